import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { addMember } from "../../src/modules/user/user.service.ts";
import { type SeededOrganization, seedOrganization, seedUser, startTestApp, type TestApp } from "../helpers/app.ts";

// Issue 52, attack 7: an instance whose LISTEN connection was dropped missed the revocation's NOTIFY and kept
// accepting the revoked token for the cache's 60 s, while its /readyz said 200. Two apps on one PostgreSQL database;
// the second connects as a role of its own, so the test can kill its LISTEN connection and keep it from coming back
// (NOLOGIN refuses new connections; its pools keep the connections they hold).

const serverUrl = process.env.TEST_DATABASE_URL;
const revokeToken = "mutation($id: ID!) { revokeApiToken(id: $id) { apiToken { id revokedAt } } }";

describe.skipIf(!serverUrl)(
  "a revocation while an instance's LISTEN connection is down (skipped without TEST_DATABASE_URL)",
  () => {
    const role = `gateway_second_${randomBytes(4).toString("hex")}`;
    let t: TestApp;
    let second: TestApp;
    let secondDb: Database | undefined;
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
    });

    afterAll(async () => {
      await admin?.query(`ALTER ROLE ${role} LOGIN`);
      await secondDb?.close();
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

    const readyz = async (app: TestApp) => (await app.app.fetch(new Request("http://gateway.test/readyz"))).status;
    const orgs = async (app: TestApp, token: string) => (await app.rest("GET", "/orgs", { token })).status;

    it("refuses the revoked token on the other instance at once, answers 503 on /readyz until LISTEN is back", async () => {
      const user = await seedUser(t.db, "revoked-while-down");
      await addMember(t.db.prisma, org.organizationId, user.id, "admin", new Date());
      const { id: tokenId } = await t.db.prisma.apiToken.findFirstOrThrow({ where: { userId: user.id } });
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

      // The revocation's NOTIFY cannot reach the second instance now: it is lost.
      const revoked = await t.app.fetch(
        new Request("http://gateway.test/graphql", {
          method: "POST",
          headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
          body: JSON.stringify({ query: revokeToken, variables: { id: tokenId } }),
        }),
      );
      expect(revoked.status).toBe(200);
      expect(await orgs(t, user.token)).toBe(401);
      expect(await orgs(second, user.token)).toBe(401);
      // The other tokens keep working, read from their rows while the cache is bypassed.
      expect(await orgs(second, bystander)).toBe(200);
      expect(await readyz(second)).toBe(503);

      await admin.query(`ALTER ROLE ${role} LOGIN`);
      await until("the second instance's /readyz answering 200 again", () => readyz(second), 200);
      expect(await orgs(second, user.token)).toBe(401);
      expect(await orgs(second, bystander)).toBe(200);
    });
  },
);
