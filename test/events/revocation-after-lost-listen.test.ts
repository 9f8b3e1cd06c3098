import { randomBytes } from "node:crypto";
import { type AddressInfo, connect, createServer, type Socket } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { addMember } from "../../src/modules/user/user.service.ts";
import { type SeededOrganization, seedOrganization, seedUser, startTestApp, type TestApp } from "../helpers/app.ts";

// Issue 52, attack 7: an instance whose LISTEN connection was dropped missed the revocation's NOTIFY and kept
// accepting the revoked token for the cache's 60 s, while its /readyz said 200. Two apps on one PostgreSQL database;
// the second connects as a role of its own, so the test can kill its LISTEN connection and keep it from coming back
// (NOLOGIN refuses new connections; its pools keep the connections they hold). A third connects through a loopback
// proxy that can freeze its LISTEN connection: no error, no close, nothing delivered, as in a network partition.

const serverUrl = process.env.TEST_DATABASE_URL;
const revokeToken = "mutation($id: ID!) { revokeAPIToken(input: { id: $id }) { apiToken { id revokedAt } } }";

/** A TCP proxy to PostgreSQL on loopback whose connection that LISTENs to the event bus can be frozen. */
async function startFreezingProxy(target: URL) {
  const links: { listens: boolean; frozen: boolean }[] = [];
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const server = connect(Number(target.port || 5432), target.hostname);
    const link = { listens: false, frozen: false };
    links.push(link);
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket
        .on("error", () => {})
        .on("close", () => {
          sockets.delete(socket);
          client.destroy();
          server.destroy();
        });
    }
    client.on("data", (chunk: Buffer) => {
      if (chunk.includes('LISTEN "gateway_events"')) link.listens = true;
      if (!link.frozen) server.write(chunk);
    });
    server.on("data", (chunk: Buffer) => {
      if (!link.frozen) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((proxy.address() as AddressInfo).port);
  return {
    url,
    /** Freezes the live connections that LISTEN; resolves with how many. */
    freezeListeners() {
      const listening = links.filter((link) => link.listens && !link.frozen);
      for (const link of listening) link.frozen = true;
      return listening.length;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}

describe.skipIf(!serverUrl)(
  "a revocation while an instance's LISTEN connection is down (skipped without TEST_DATABASE_URL)",
  () => {
    const role = `gateway_second_${randomBytes(4).toString("hex")}`;
    let t: TestApp;
    let second: TestApp;
    let secondDb: Database | undefined;
    let third: TestApp;
    let thirdDb: Database | undefined;
    let proxy: Awaited<ReturnType<typeof startFreezingProxy>> | undefined;
    let admin: pg.Client;
    let org: SeededOrganization;

    beforeAll(async () => {
      t = await startTestApp();
      org = await seedOrganization(t.db, "Lost notifications");
      admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`CREATE ROLE ${role} LOGIN SUPERUSER`);
      const [database] = await t.db.sql.rows<{ name: string }>("SELECT current_database() AS name");
      const url = new URL(serverUrl ?? "");
      url.username = role;
      url.pathname = `/${database?.name}`;
      secondDb = await openDatabase({ kind: "postgres", url: url.toString() });
      second = await startTestApp({ db: secondDb });
      const direct = new URL(serverUrl ?? "");
      direct.pathname = `/${database?.name}`;
      proxy = await startFreezingProxy(direct);
      thirdDb = await openDatabase({ kind: "postgres", url: proxy.url.toString() });
      third = await startTestApp({ db: thirdDb });
    });

    afterAll(async () => {
      await admin?.query(`ALTER ROLE ${role} LOGIN`);
      await secondDb?.close();
      await thirdDb?.close();
      await proxy?.close();
      await admin?.query(`DROP ROLE IF EXISTS ${role}`);
      await admin?.end();
    });

    /** `probe` until it answers `expected`, a bounded number of times (a wait for a state, not a timing). */
    async function until<Answer>(what: string, probe: () => Promise<Answer>, expected: Answer): Promise<void> {
      for (let round = 0; round < 200; round++) {
        if ((await probe()) === expected) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`${what}: not within 200 probes`);
    }

    /** A new admin of the organization, and its token's id. */
    async function newMember(name: string) {
      const user = await seedUser(t.db, name);
      await addMember(t.db.prisma, org.organizationId, user.id, "admin", new Date());
      const { id: tokenId } = await t.db.prisma.apiToken.findFirstOrThrow({ where: { userId: user.id } });
      return { ...user, tokenId };
    }

    /** Revokes the token on the first instance, with itself. */
    async function revoke(token: string, tokenId: string) {
      const revoked = await t.app.fetch(
        new Request("http://gateway.test/graphql", {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ query: revokeToken, variables: { id: tokenId } }),
        }),
      );
      expect(revoked.status).toBe(200);
      const { data } = (await revoked.json()) as { data?: { revokeAPIToken?: { apiToken?: { revokedAt?: string } } } };
      expect(data?.revokeAPIToken?.apiToken?.revokedAt).toEqual(expect.any(String));
    }

    const readyz = async (app: TestApp) => (await app.app.fetch(new Request("http://gateway.test/readyz"))).status;
    const orgs = async (app: TestApp, token: string) => (await app.rest("GET", "/orgs", { token })).status;

    it("refuses the revoked token on the other instance within 2 s, answers 503 on /readyz until LISTEN is back", async () => {
      const user = await newMember("revoked-while-down");
      const bystander = org.members.read.token;
      // Both instances have verified (and cached) the tokens.
      for (const app of [t, second]) {
        expect(await orgs(app, user.token)).toBe(200);
        expect(await orgs(app, bystander)).toBe(200);
        expect(await readyz(app)).toBe(200);
      }

      await admin.query(`ALTER ROLE ${role} NOLOGIN`);
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1 AND query LIKE 'LISTEN%'`,
        [role],
      );
      expect(killed.rowCount).toBe(1);
      await until("the second instance's /readyz answering 503", () => readyz(second), 503);
      // What its cache read less than 2 s ago still serves.
      expect(await orgs(second, user.token)).toBe(200);

      // The revocation's NOTIFY cannot reach the second instance now: it is lost.
      await revoke(user.token, user.tokenId);
      expect(await orgs(t, user.token)).toBe(401);
      second.clock.advance(2000);
      expect(await orgs(second, user.token)).toBe(401);
      // The other tokens keep working, read from their rows.
      expect(await orgs(second, bystander)).toBe(200);
      expect(await readyz(second)).toBe(503);

      await admin.query(`ALTER ROLE ${role} LOGIN`);
      await until("the second instance's /readyz answering 200 again", () => readyz(second), 200);
      expect(await orgs(second, user.token)).toBe(401);
      expect(await orgs(second, bystander)).toBe(200);
    });

    it("refuses a revoked token within seconds on an instance whose LISTEN connection went silent", async () => {
      const user = await newMember("revoked-while-silent");
      for (const app of [t, third]) expect(await orgs(app, user.token)).toBe(200);

      // The connection stays open and says nothing: no error tells the instance that NOTIFYs no longer arrive.
      expect(proxy?.freezeListeners()).toBe(1);
      await revoke(user.token, user.tokenId);
      expect(await orgs(t, user.token)).toBe(401);
      // Its probe of the LISTEN connection goes unanswered (within 3 s): the cache is emptied, the token refused.
      await until("the token refused where LISTEN went silent", () => orgs(third, user.token), 401);
      await until("its /readyz answering 200 on a new LISTEN connection", () => readyz(third), 200);
      expect(await orgs(third, user.token)).toBe(401);
    });
  },
);
