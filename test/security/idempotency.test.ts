import { beforeAll, describe, expect, it } from "vitest";
import { requestHash, startIdempotentRequest } from "../../src/modules/idempotency/idempotency.service.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Idempotent");
});

function post(path: string, body: unknown, key: string, token = org.members.admin.token) {
  return t.app.fetch(
    new Request(`${baseUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify(body),
    }),
  );
}

const spacesPath = () => `/v1/orgs/${org.organizationId}/spaces`;
const spacesTitled = (title: string) =>
  t.db.prisma.space.count({ where: { organizationId: org.organizationId, title } });

describe("Idempotency-Key on POST", () => {
  it("replays the first response for the same key and body, and writes once", async () => {
    const first = await post(spacesPath(), { title: "Once" }, "key-once");
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const again = await post(spacesPath(), { title: "Once" }, "key-once");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(firstBody);
    expect(await spacesTitled("Once")).toBe(1);
  });

  it("answers 422 for the same key with another body, and writes nothing", async () => {
    expect((await post(spacesPath(), { title: "First body" }, "key-other-body")).status).toBe(201);
    const other = await post(spacesPath(), { title: "Second body" }, "key-other-body");
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({ error: { code: 422, message: expect.stringContaining("Idempotency-Key") } });
    expect(await spacesTitled("Second body")).toBe(0);
  });

  it("answers 409 while the first request with the key is still running", async () => {
    const body = JSON.stringify({ title: "In flight" });
    const callerKey = `user:${org.members.admin.id}`;
    const hash = requestHash("POST", spacesPath(), body);
    expect(
      await startIdempotentRequest(
        { prisma: t.db.prisma, secretsKey: t.config.secretsKey },
        callerKey,
        "key-running",
        hash,
        t.clock.now(),
      ),
    ).toEqual({
      kind: "started",
    });
    const response = await post(spacesPath(), { title: "In flight" }, "key-running");
    expect(response.status).toBe(409);
    expect(await spacesTitled("In flight")).toBe(0);
  });

  it("keeps keys per caller: another user's same key is a new request", async () => {
    await post(spacesPath(), { title: "Mine" }, "key-shared");
    const theirs = await post(spacesPath(), { title: "Mine" }, "key-shared", org.members.create.token);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(await spacesTitled("Mine")).toBe(2);
  });

  it("replays error responses too (the request is not run again)", async () => {
    const refused = await post(spacesPath(), { title: "Nope" }, "key-refused", org.members.read.token);
    expect(refused.status).toBe(403);
    const again = await post(spacesPath(), { title: "Nope" }, "key-refused", org.members.read.token);
    expect(again.status).toBe(403);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
  });

  it("works for GraphQL mutations over POST", async () => {
    const query = `mutation { createOrganization(input: { title: "Idempotent GraphQL" }) { organization { id } } }`;
    const first = await post("/graphql", { query }, "key-graphql");
    const again = await post("/graphql", { query }, "key-graphql");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
    expect(await t.db.prisma.organization.count({ where: { title: "Idempotent GraphQL" } })).toBe(1);
  });

  it("refuses malformed keys with 400", async () => {
    const response = await post(spacesPath(), { title: "Bad key" }, "has space");
    expect(response.status).toBe(400);
    expect(await spacesTitled("Bad key")).toBe(0);
  });

  it("expires keys after 24 hours; the purge job removes them", async () => {
    expect((await post(spacesPath(), { title: "Daily" }, "key-daily")).status).toBe(201);
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = await post(spacesPath(), { title: "Daily" }, "key-daily");
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(await spacesTitled("Daily")).toBe(2);
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    await t.runScheduledJobs();
    expect(await t.db.prisma.idempotencyRecord.count()).toBe(0);
  });
});
