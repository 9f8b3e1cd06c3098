import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobUpdate } from "../../src/events/topics.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// Jobs as a server runs them: woken by the commit that added them, several at a time, each within its time limit.
// The engine here polls only every 10 minutes (JOB_POLL_INTERVAL_SECONDS=600): a job done within a test's time ran
// because its commit woke a worker, whatever the machine's load; nothing here is timed.

const document = JSON.stringify({ openapi: "3.0.0", info: { title: "Small", version: "1.0.0" }, paths: {} });
const jobTimeoutSeconds = 3;
/** No worker polls within a test: only the commit of a job wakes one. */
const engineEnv = {
  OPENAPI_FETCH_ALLOW_HOSTS: "127.0.0.1",
  OPENAPI_FETCH_TIMEOUT_MS: "300000",
  JOB_POLL_INTERVAL_SECONDS: "600",
};

let t: TestApp;
/** The same with a job time limit of 3 s, for the abort at the limit. */
let limited: TestApp;
let hanging: Server;
let hangingUrl: string;
/** Requests the hanging server received: it never answers them. */
const received: IncomingMessage[] = [];
let onRequest = () => {};

beforeAll(async () => {
  // The default time limit (300 s): a job's fetch hangs for as long as the test needs it to.
  t = await startTestApp({ env: engineEnv });
  await t.startJobEngine();
  limited = await startTestApp({ env: { ...engineEnv, JOB_TIMEOUT_SECONDS: String(jobTimeoutSeconds) } });
  await limited.startJobEngine();
  hanging = createServer((request) => {
    received.push(request);
    onRequest();
  });
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
});

afterAll(async () => {
  hanging?.closeAllConnections();
  await new Promise((resolve) => hanging?.close(resolve) ?? resolve(undefined));
});

/** The organization's next job update (on `app`'s events) that satisfies `until`. */
async function nextUpdate(
  organizationId: string,
  until: (update: JobUpdate) => boolean,
  app: TestApp = t,
): Promise<JobUpdate> {
  const updates = app.events.subscribe("organizationJobUpdated", organizationId);
  try {
    for await (const update of updates) if (until(update)) return update;
    throw new Error("the event stream ended");
  } finally {
    updates.close();
  }
}

/** Creates a spec from text and waits for its processing job's end. */
async function createTextSpec(org: SeededOrganization, slug: string): Promise<void> {
  const done = nextUpdate(org.organizationId, (update) => update.status === "done" || update.status === "failed");
  const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/openapi`, {
    token: org.members.admin.token,
    body: { slug, source: { text: document } },
  });
  expect(created.status).toBe(201);
  expect((await done).status).toBe("done");
  const spec = await t.rest<{ lastVersion?: string; processingState: string }>(
    "GET",
    `/orgs/${org.organizationId}/openapi/${slug}`,
    { token: org.members.admin.token },
  );
  expect(spec.body).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
}

describe("jobs start when the transaction that added them commits", () => {
  it("gives each of 5 specs sent as text its first version, woken by its commit (no worker polls)", async () => {
    const org = await seedOrganization(t.db, "Text Specs");
    for (let index = 0; index < 5; index++) await createTextSpec(org, `text-${index}`);
    const jobs = await t.db.prisma.job.groupBy({
      by: ["status"],
      where: { organizationId: org.organizationId },
      _count: true,
    });
    expect(jobs.map((group) => [group.status, group._count])).toEqual([["done", 5]]);
  });

  it("gives another organization's spec its version while a spec's fetch hangs", async () => {
    const slow = await seedOrganization(t.db, "Hanging Source");
    const other = await seedOrganization(t.db, "Other Tenant");
    const requested = received.length;
    const running = nextUpdate(slow.organizationId, (update) => update.status === "running");
    const fetching = new Promise<void>((resolve) => {
      onRequest = resolve;
    });
    const created = await t.rest("POST", `/orgs/${slow.organizationId}/openapi`, {
      token: slow.members.admin.token,
      body: { slug: "hangs", source: { url: `${hangingUrl}/openapi.json` } },
    });
    expect(created.status).toBe(201);
    const slowJob = await running;
    await fetching;

    await createTextSpec(other, "unaffected");
    // The fetch is still hanging meanwhile: the other organization's job did not wait for it.
    expect(received.length).toBe(requested + 1);
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: slowJob.id } })).toMatchObject({
      status: "running",
    });
  });

  it("aborts a hanging job at its time limit, closing its request, and leaves it for its retry", async () => {
    const slow = await seedOrganization(limited.db, "Hanging Source");
    const requested = received.length;
    const aborted = nextUpdate(
      slow.organizationId,
      (update) => update.status === "pending" && Boolean(update.lastError),
      limited,
    );
    const created = await limited.rest("POST", `/orgs/${slow.organizationId}/openapi`, {
      token: slow.members.admin.token,
      body: { slug: "hangs", source: { url: `${hangingUrl}/openapi.json` } },
    });
    expect(created.status).toBe(201);
    expect(await aborted).toMatchObject({
      status: "pending",
      lastError: `The job did not finish within ${jobTimeoutSeconds} s`,
    });
    // The abort closed the request, if a loaded machine let it reach the source within the limit at all.
    const sockets = received.slice(requested).map((request) => request.socket);
    const closed = await Promise.all(
      sockets.map(
        (socket) => socket.destroyed || new Promise<boolean>((resolve) => socket.once("close", () => resolve(true))),
      ),
    );
    expect(closed).toEqual(sockets.map(() => true));
  });
});
