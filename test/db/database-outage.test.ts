import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { openTestDatabase } from "../helpers/database.ts";
import { eventually } from "../helpers/eventually.ts";

/*
 * A database that fails says nothing about the data: the answer is 503 with Retry-After (REST) or
 * SERVICE_UNAVAILABLE (GraphQL), never a 404, a null or an empty list. The database fails for real here: its
 * backends are terminated mid-read (PostgreSQL), or it is closed under the service (both databases).
 */

interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: string[]; extensions?: { code?: string; retryAfter?: number } }[];
  /** The response's Retry-After header. */
  retryAfter: string | null;
}

async function graphql(t: TestApp, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await t.app.fetch(
    new Request(`${baseUrl}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    }),
  );
  return { ...(await response.json()), retryAfter: response.headers.get("retry-after") } as GraphQLAnswer;
}

async function get(t: TestApp, path: string, token: string) {
  const response = await t.app.fetch(
    new Request(`${baseUrl}/v1${path}`, { headers: { authorization: `Bearer ${token}` } }),
  );
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
}

/** What every read of a failed database must answer, REST and GraphQL. */
function expectUnavailable(rest: Awaited<ReturnType<typeof get>>) {
  expect(rest.status).toBe(503);
  expect(Number(rest.retryAfter)).toBeGreaterThan(0);
  expect(rest.body).toEqual({ error: { code: 503, message: expect.stringContaining("temporarily unavailable") } });
}

function expectUnavailableErrors(answer: GraphQLAnswer) {
  expect(answer.errors?.length).toBeGreaterThan(0);
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  for (const error of answer.errors ?? []) {
    expect(error.extensions?.code).toBe("SERVICE_UNAVAILABLE");
    expect(error.extensions?.retryAfter).toBe(Number(answer.retryAfter));
    expect(error.message).not.toMatch(/not found|terminat|PGlite|pool/i);
  }
}

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

describe.runIf(testDatabaseUrl)("PostgreSQL backends terminated while they read", () => {
  let t: TestApp;
  let org: SeededOrganization;
  let spaceId: string;

  beforeAll(async () => {
    t = await startTestApp();
    org = await seedOrganization(t.db, "Outage");
    const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      body: { title: "Still here" },
    });
    spaceId = created.body.id;
  });

  /**
   * `request`'s answer when the backend running its read of the space table is terminated: a session of its own holds
   * that table, so the read waits, in flight, until every backend of the service is terminated.
   */
  async function terminatedWhileReading<Answer>(request: () => Promise<Answer>): Promise<Answer> {
    const [database] = await t.db.withRawConnection((connection) =>
      connection.query<{ name: string }>("SELECT current_database() AS name"),
    );
    const url = new URL(testDatabaseUrl as string);
    url.pathname = `/${database?.name}`;
    const locker = new pg.Client({ connectionString: url.toString() });
    await locker.connect();
    try {
      await locker.query(`BEGIN; LOCK TABLE "Space" IN ACCESS EXCLUSIVE MODE`);
      let answered = false;
      const answer = request().finally(() => {
        answered = true;
      });
      // The read waits on the lock; or, when it opens a connection (the first read after backends were terminated),
      // that connection may never be established, and the pool's time limit answers first.
      const blocked = await eventually(
        async () => {
          if (answered) return true;
          const { rows } = await locker.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          return (rows[0]?.waiting ?? 0) > 0;
        },
        true,
        400,
      );
      expect(blocked.at(-1)).toBe(true);
      await locker.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      await locker.query("ROLLBACK");
      return await answer;
    } finally {
      await locker.end();
    }
  }

  it("answer 503 / SERVICE_UNAVAILABLE for a space that exists, never 404 or null, then serve it again", async () => {
    const token = org.members.read.token;
    expectUnavailable(await terminatedWhileReading(() => get(t, `/spaces/${spaceId}`, token)));
    const space = await terminatedWhileReading(() =>
      graphql(t, token, "query($id: ID!) { space(id: $id) { id title } }", { id: spaceId }),
    );
    expectUnavailableErrors(space);
    expect(space.data?.space ?? null).toBeNull();
    expectUnavailableErrors(
      await terminatedWhileReading(() =>
        graphql(t, token, "query($id: ID!) { node(id: $id) { id } }", { id: spaceId }),
      ),
    );
    // The pool opens new connections: the next read is served.
    const statuses = await eventually(async () => (await get(t, `/spaces/${spaceId}`, token)).status, 200);
    expect(statuses.at(-1)).toBe(200);
  }, 120_000);
});

describe("a database closed under the service", () => {
  it("answers 503 with Retry-After on REST and SERVICE_UNAVAILABLE on GraphQL, lists included", async () => {
    const db = await openTestDatabase();
    const t = await startTestApp({ db });
    const org = await seedOrganization(db, "Closed");
    const token = org.members.admin.token;
    const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token,
      body: { title: "Unreachable" },
    });
    expect((await get(t, `/orgs/${org.organizationId}/spaces`, token)).status).toBe(200);
    await db.close();

    expectUnavailable(await get(t, `/spaces/${created.body.id}`, token));
    expectUnavailable(await get(t, `/orgs/${org.organizationId}/spaces`, token));
    expectUnavailableErrors(
      await graphql(t, token, "query($id: ID!) { node(id: $id) { id } }", { id: created.body.id }),
    );
    const list = await graphql(
      t,
      token,
      "query($id: ID!) { organization(id: $id) { spaces(first: 5) { nodes { id } } } }",
      {
        id: org.organizationId,
      },
    );
    expectUnavailableErrors(list);
  });
});
