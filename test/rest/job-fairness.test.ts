import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobUpdate } from "../../src/events/topics.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// One organization floods the job queue with specs whose source accepts the connection and never answers (issue 52,
// attack 6): under the defaults every worker of every instance hung on them while another organization's spec waited
// minutes. Each organization now runs at most JOB_CONCURRENCY_PER_ORGANIZATION jobs at once.

const document = JSON.stringify({ openapi: "3.0.0", info: { title: "Small", version: "1.0.0" }, paths: {} });
const perOrganization = 2;

let t: TestApp;
let silent: Server;
let silentUrl: string;
/** Connections the silent server accepted and holds: it reads nothing and answers nothing. */
const held = new Set<Socket>();
let onConnection = () => {};

beforeAll(async () => {
  t = await startTestApp({
    env: {
      OPENAPI_FETCH_ALLOW_HOSTS: "127.0.0.1",
      OPENAPI_FETCH_TIMEOUT_MS: "300000",
      JOB_CONCURRENCY: "4",
      JOB_CONCURRENCY_PER_ORGANIZATION: String(perOrganization),
    },
  });
  await t.startJobEngine();
  silent = createServer((socket) => {
    held.add(socket);
    socket.on("close", () => held.delete(socket));
    onConnection();
  });
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve) ?? resolve(undefined));
});

/** The organization's next job update that satisfies `until` (subscribed at this call). */
async function nextUpdate(organizationId: string, until: (update: JobUpdate) => boolean): Promise<JobUpdate> {
  const updates = t.events.subscribe("organizationJobUpdated", organizationId);
  try {
    for await (const update of updates) if (until(update)) return update;
    throw new Error("the event stream ended");
  } finally {
    updates.close();
  }
}

async function createSpec(org: SeededOrganization, slug: string, source: { url: string } | { text: string }) {
  const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/openapi`, {
    token: org.members.admin.token,
    body: { slug, source },
  });
  expect(created.status).toBe(201);
  return created.body;
}

describe("jobs shared fairly between organizations", () => {
  it("runs another organization's spec while one organization's 40 fetches hang on a silent host", async () => {
    const flooder = await seedOrganization(t.db, "Flooder");
    const other = await seedOrganization(t.db, "Other Tenant");
    const connected = new Promise<void>((resolve) => {
      onConnection = () => {
        if (held.size >= perOrganization) resolve();
      };
    });
    for (let index = 0; index < 40; index++) {
      await createSpec(flooder, `flood-${index}`, { url: `${silentUrl}/spec-${index}.json` });
    }
    // The flood holds its share of workers: its fetches are connected and waiting for an answer that never comes.
    await connected;

    const done = nextUpdate(other.organizationId, (update) => update.status === "done" || update.status === "failed");
    const spec = await createSpec(other, "unaffected", { text: document });
    expect((await done).status).toBe("done");
    const processed = await t.rest("GET", `/orgs/${other.organizationId}/openapi/unaffected`, {
      token: other.members.admin.token,
    });
    expect(processed.body).toMatchObject({ id: spec.id, processingState: "complete", lastVersion: expect.any(String) });

    // Meanwhile the flood's fetches still hang, no more of them than its share, and the rest of it waits its turn.
    expect(held.size).toBe(perOrganization);
    const flood = await t.db.prisma.job.groupBy({
      by: ["status"],
      where: { organizationId: flooder.organizationId },
      _count: true,
    });
    const errors = await t.db.prisma.job.findMany({
      where: { organizationId: flooder.organizationId, lastError: { not: null } },
      select: { lastError: true },
    });
    expect(errors).toEqual([]);
    expect(Object.fromEntries(flood.map((group) => [group.status, group._count]))).toEqual({
      running: perOrganization,
      pending: 40 - perOrganization,
    });
  }, 60_000);
});
