import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app.ts";
import { openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { createRateLimiter } from "../../src/http/rate-limit.ts";
import { createLogger } from "../../src/platform/logger.ts";
import { baseUrl, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { createScratchDatabase, type ScratchPostgresDatabase } from "../helpers/database.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";
import { type SseSubscription, subscribe } from "../helpers/sse.ts";

const serverUrl = process.env.TEST_DATABASE_URL;

const CommentsPosted = `subscription Comments($spaceId: ID!, $changeRequestId: ID!) {
  changeRequestCommentPosted(spaceId: $spaceId, changeRequestId: $changeRequestId) { comment: commentId }
}`;

let server: ServerProcess | undefined;

/** Retries `attempt` until it returns a value, a bounded number of times, pausing briefly between attempts. */
async function poll<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  for (let round = 0; round < 150; round++) {
    if (server && server.child.exitCode !== null)
      throw new Error(`${what}: the server exited (${await server.exited})`);
    const value = await attempt().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what}: not within 150 attempts`);
}

/** The stream's next event, or "nothing" if none arrives within `ms` (a bound on failure, not a synchronisation). */
async function nextOrNothing(stream: SseSubscription, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const nothing = new Promise<"nothing">((resolve) => {
    timer = setTimeout(() => resolve("nothing"), ms);
  });
  try {
    return await Promise.race([stream.next(), nothing]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!serverUrl)(
  "a server whose PostgreSQL connections are killed (skipped without TEST_DATABASE_URL)",
  () => {
    let scratch: ScratchPostgresDatabase | undefined;

    afterAll(async () => {
      if (server?.child.exitCode === null) await server.stop();
      await scratch?.drop();
    });

    it("stays up, answers again, becomes ready again and delivers events to old and new subscriptions", async () => {
      scratch = await createScratchDatabase(serverUrl ?? "");
      const databaseUrl = scratch.url;
      const db = await openDatabase({ kind: "postgres", url: databaseUrl });
      await applyMigrations(db);
      const org = await seedOrganization(db, "Healing");
      // The test's own pool is gone before the kill: only the server's connections are terminated.
      await db.close();

      server = await startServerProcess({ DATABASE_URL: databaseUrl, RUN_JOBS: "false", RATE_LIMIT_TOKEN: "0" });
      const base = server.url;
      const call = (method: string, path: string, token: string, body?: unknown) =>
        fetch(`${base}/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const space = (await (
        await call("POST", `/orgs/${org.organizationId}/spaces`, org.members.admin.token, { title: "Healing" })
      ).json()) as { id: string };
      const changeRequest = (await (
        await call("POST", `/spaces/${space.id}/change-requests`, org.members.edit.token, { subject: "Survive" })
      ).json()) as { id: string };
      const variables = { spaceId: space.id, changeRequestId: changeRequest.id };
      const openedBefore = await subscribe(fetch, `${base}/graphql`, org.members.read.token, CommentsPosted, variables);

      // Readers in a bounded loop while the server's backends are terminated twice under them.
      const statuses: (number | "no answer")[] = [];
      const reader = async () => {
        for (let round = 0; round < 40; round++) {
          const status = await call("GET", `/orgs/${org.organizationId}`, org.members.read.token).then(
            async (response) => {
              await response.arrayBuffer();
              return response.status;
            },
            () => "no answer" as const,
          );
          statuses.push(status);
        }
      };
      const readers = Promise.all([reader(), reader(), reader(), reader()]);
      const terminate = `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()`;
      const killer = new pg.Client({ connectionString: databaseUrl });
      await killer.connect();
      let killed: pg.QueryResult;
      try {
        await poll("requests before the kill", async () => (statuses.length >= 8 ? true : undefined));
        killed = await killer.query(terminate);
        await poll("requests between the kills", async () => (statuses.length >= 40 ? true : undefined));
        await killer.query(terminate);
      } finally {
        await killer.end();
      }
      await readers;
      expect(killed.rowCount).toBeGreaterThan(1);

      await poll("a request answering 200 again", async () => {
        const response = await call("GET", `/orgs/${org.organizationId}`, org.members.read.token);
        return response.status === 200 ? true : undefined;
      });
      await poll("/readyz answering 200 again", async () => {
        const response = await fetch(`${base}/readyz`);
        return response.status === 200 ? true : undefined;
      });
      const openedAfter = await subscribe(fetch, `${base}/graphql`, org.members.read.token, CommentsPosted, variables);
      const comment = await call(
        "POST",
        `/spaces/${space.id}/change-requests/${changeRequest.id}/comments`,
        org.members.comment.token,
        {
          body: { markdown: "Still here" },
        },
      );
      expect(comment.status).toBe(200);
      const { id } = (await comment.json()) as { id: string };

      const expected = { data: { changeRequestCommentPosted: { comment: id } } };
      expect(await nextOrNothing(openedAfter, 10_000)).toEqual(expected);
      expect(await nextOrNothing(openedBefore, 10_000)).toEqual(expected);
      expect(statuses).not.toContain("no answer");
      expect(server.child.exitCode).toBe(null);
      await openedBefore.close();
      await openedAfter.close();
    }, 120_000);

    it("Database.listen issues LISTEN again after its connection is killed, and close stops reconnecting", async () => {
      const scratchListen = await createScratchDatabase(serverUrl ?? "");
      const db = await openDatabase({ kind: "postgres", url: scratchListen.url });
      const admin = new pg.Client({ connectionString: scratchListen.url });
      await admin.connect();
      const listenBackends = async () =>
        (
          await admin.query<{ pid: number }>(
            `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
          )
        ).rows;
      const killListen = () =>
        admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%'`);
      try {
        const received: string[] = [];
        const losses: Error[] = [];
        const listening = await db.listen(
          "healing",
          (payload) => received.push(payload),
          (error) => losses.push(error),
        );
        expect(listening.healthy()).toBe(true);
        await killListen();
        await poll("the loss reported", async () => (losses.length > 0 ? true : undefined));
        await poll("LISTEN again", async () => (listening.healthy() ? true : undefined));
        await db.notify("healing", "after the kill");
        await poll("the NOTIFY received", async () => (received.includes("after the kill") ? true : undefined));

        // Closed while it waits to reconnect: it ends with no connection and nothing scheduled to open one.
        await killListen();
        await poll("the second loss reported", async () => (losses.length > 1 ? true : undefined));
        await listening.close();
        expect(listening.healthy()).toBe(false);
        expect(await listenBackends()).toEqual([]);
      } finally {
        await admin.end();
        await db.close();
        await scratchListen.drop();
      }
    }, 60_000);
  },
);

describe("/readyz and the event connection", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });

  it("answers 503 while the event bus's LISTEN connection is down, 200 once it is back", async () => {
    let listening = false;
    const logger = createLogger("silent");
    const rateLimiter = await createRateLimiter(t.config, logger);
    const app = createApp({
      config: t.config,
      db: t.db,
      events: { ...t.events, healthy: () => listening },
      logger,
      rateLimiter,
    });
    const down = await app.fetch(new Request(`${baseUrl}/readyz`));
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: "event connection unavailable" });
    listening = true;
    expect((await app.fetch(new Request(`${baseUrl}/readyz`))).status).toBe(200);
    await rateLimiter.close();
  });
});
