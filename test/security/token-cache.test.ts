import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/app.ts";
import { createRateLimiter } from "../../src/http/rate-limit.ts";
import { addMember, createApiToken } from "../../src/modules/user/user.service.ts";
import { createLogger } from "../../src/platform/logger.ts";
import {
  baseUrl,
  type SeededOrganization,
  type SeededUser,
  seedOrganization,
  seedUser,
  startTestApp,
  type TestApp,
} from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";

const revokeToken = "mutation($id: ID!) { revokeAPIToken(input: { id: $id }) { apiToken { id revokedAt } } }";
const createToken = 'mutation { createAPIToken(input: { label: "second" }) { token apiToken { id } } }';

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Token cache");
});

async function graphql<Data>(app: TestApp, token: string, query: string, variables = {}): Promise<Data> {
  const response = await app.app.fetch(
    new Request("http://gateway.test/graphql", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    }),
  );
  const body = (await response.json()) as { data: Data; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** A fresh user of `org` with the role, and a token id (its tokens are its own: revoking them spoils no other test). */
async function member(role: "admin" | "read"): Promise<SeededUser & { tokenId: string }> {
  const user = await seedUser(t.db, `cached-${role}`);
  await addMember(t.db.prisma, org.organizationId, user.id, role, new Date());
  const { id: tokenId } = await t.db.prisma.apiToken.findFirstOrThrow({ where: { userId: user.id } });
  return { ...user, tokenId };
}

describe("API tokens verified once per instance", () => {
  it("a small read with a token already seen costs one statement: the space, without a token read", async () => {
    const reader = await member("read");
    const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      body: { title: "Cached" },
    });
    expect(created.status).toBe(201);
    const statementsOf = async (token: string) => {
      const before = t.db.statementCount();
      expect((await t.rest("GET", `/spaces/${created.body.id}`, { token })).status).toBe(200);
      return t.db.statementCount() - before;
    };
    // The first call of a token reads its row; later calls do not. An admin's read of a space is then the space
    // with the caller's membership in one statement; a reader's adds their grants.
    expect(await statementsOf(reader.token)).toBe(3);
    expect(await statementsOf(reader.token)).toBe(2);
    expect(await statementsOf(org.members.admin.token)).toBe(1);
  });

  it("revoking a cached token (revokeAPIToken) locks it out at once here, and on another instance within a second", async () => {
    const admin = await member("admin");
    const other = await startTestApp({ db: t.db });
    for (const app of [t, other]) expect((await app.rest("GET", "/orgs", { token: admin.token })).status).toBe(200);

    await graphql(t, admin.token, revokeToken, { id: admin.tokenId });
    expect((await t.rest("GET", "/orgs", { token: admin.token })).status).toBe(401);
    const seen = await eventually(async () => (await other.rest("GET", "/orgs", { token: admin.token })).status, 401);
    expect(seen.at(-1)).toBe(401);
  });

  it("trusts a token's row for 2 s while the event connection is down, and empties the cache when it is back", async () => {
    const [user, other] = [await member("read"), await member("read")];
    let listening = true;
    let eventsMissed = () => {};
    const logger = createLogger("silent");
    const rateLimiter = await createRateLimiter(t.config, logger);
    const app = createApp({
      config: t.config,
      db: t.db,
      clock: t.clock,
      logger,
      rateLimiter,
      events: {
        ...t.events,
        healthy: () => listening,
        onEventsMissed: (listener) => {
          eventsMissed = listener;
        },
      },
    });
    const status = async (token: string) =>
      (await app.fetch(new Request(`${baseUrl}/v1/orgs`, { headers: { authorization: `Bearer ${token}` } }))).status;
    /** A revocation whose event this instance never hears: the row changes, no NOTIFY. */
    const revokeSilently = (tokenId: string) =>
      t.db.prisma.apiToken.update({ where: { id: tokenId }, data: { revokedAt: t.clock.now() } });
    try {
      for (const { token } of [user, other]) expect(await status(token)).toBe(200);
      await revokeSilently(user.tokenId);
      expect(await status(user.token)).toBe(200);

      // Down: the entry read 0 s ago still serves; 2 s after its read, the row is read again.
      listening = false;
      expect(await status(user.token)).toBe(200);
      t.clock.advance(2000);
      expect(await status(user.token)).toBe(401);

      // Back (the bus reports it): what the cache held is gone, though events flow again.
      await revokeSilently(other.tokenId);
      listening = true;
      eventsMissed();
      expect(await status(other.token)).toBe(401);
    } finally {
      await app.close();
      await rateLimiter.close();
    }
  });

  it("keeps only token -> user: a role change and a removal apply to the next request of a cached token", async () => {
    const user = await member("admin");
    const members = `/orgs/${org.organizationId}/members`;
    const patch = (token: string) =>
      t.rest("PATCH", `/orgs/${org.organizationId}`, { token, body: { title: "Token cache" } });
    expect((await patch(user.token)).status).toBe(200);

    const demoted = await t.rest("PATCH", `${members}/${user.id}`, {
      token: org.members.admin.token,
      body: { role: "read" },
    });
    expect(demoted.status).toBe(200);
    expect((await patch(user.token)).status).toBe(403);
    expect((await t.rest("GET", `/orgs/${org.organizationId}`, { token: user.token })).status).toBe(200);

    const removed = await t.rest("DELETE", `${members}/${user.id}`, { token: org.members.admin.token });
    expect(removed.status).toBe(204);
    expect((await t.rest("GET", `/orgs/${org.organizationId}`, { token: user.token })).status).toBe(404);
  });

  it("refuses a cached token once it expires", async () => {
    const user = await seedUser(t.db, "expiring");
    const expiresAt = new Date(t.clock.now().getTime() + 60_000);
    const { token } = await createApiToken(t.db.prisma, user.id, { expiresAt });
    expect((await t.rest("GET", "/orgs", { token })).status).toBe(200);
    t.clock.advance(60_000);
    expect((await t.rest("GET", "/orgs", { token })).status).toBe(401);
  });

  it("a token created after a revocation works, and the revoked one stays refused", async () => {
    const user = await member("read");
    const created = await graphql<{ createAPIToken: { token: string; apiToken: { id: string } } }>(
      t,
      user.token,
      createToken,
    );
    await graphql(t, created.createAPIToken.token, revokeToken, { id: user.tokenId });
    expect((await t.rest("GET", "/orgs", { token: user.token })).status).toBe(401);
    expect((await t.rest("GET", "/orgs", { token: created.createAPIToken.token })).status).toBe(200);
  });
});
