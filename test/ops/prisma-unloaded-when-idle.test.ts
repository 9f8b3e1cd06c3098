import { beforeAll, describe, expect, it, vi } from "vitest";
import { bootstrapDemoData } from "../../src/app/bootstrap.ts";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { startJobEngine } from "../../src/jobs/engine.ts";
import { seedDemoContent } from "../../src/modules/demo/demo.service.ts";
import { encryptStoredVisitorAuthKeys } from "../../src/modules/site-structure/site.service.ts";
import { createLogger } from "../../src/platform/logger.ts";
import { contextActingAs } from "../../src/request/context.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// Prisma's query engine (WebAssembly) is compiled on its first statement, ~30 MB resident, and its client parses a
// ~13 MB parameterization graph when constructed: a start on an existing database and a job runner with nothing due
// check through the hand-written reads only (src/app/main.ts), so do the reads front ends make most, and the client is
// constructed on first use.

/** How many Prisma clients were constructed: the real class, counted. */
const constructions = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../src/db/generated/client.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/db/generated/client.ts")>();
  class CountedPrismaClient extends real.PrismaClient {
    constructor(...args: ConstructorParameters<typeof real.PrismaClient>) {
      super(...args);
      constructions.count += 1;
    }
  }
  return { ...real, PrismaClient: CountedPrismaClient };
});

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db);
});

/** The database with a Prisma client that fails the test on any use. */
function withoutPrisma(db: Database): Pick<Database, "prisma" | "sql"> {
  const prisma = new Proxy({} as Database["prisma"], {
    get(_target, property) {
      throw new Error(`Prisma used: prisma.${String(property)}`);
    },
  });
  return { prisma, sql: db.sql };
}

describe("a start and an idle job runner leave Prisma unloaded", () => {
  it("checks the demo data and the stored visitor-auth keys without Prisma when there is nothing to do", async () => {
    expect(await bootstrapDemoData(withoutPrisma(t.db), t.clock)).toBeNull();
    expect(await encryptStoredVisitorAuthKeys(withoutPrisma(t.db), t.config.secretsKey)).toBe(0);
  });

  it("starts the job engine, hands nothing over and idles without Prisma; a queued job runs through it", async () => {
    const options = { clock: t.clock, config: t.config, logger: createLogger("silent"), events: t.events };
    const idle = await startJobEngine({
      ...options,
      db: { ...t.db, ...withoutPrisma(t.db) },
      wakeOnCommit: false,
      onSchedule: false,
    });
    try {
      expect(await idle.drain()).toBe(0);
    } finally {
      await idle.stop();
    }
    const spec = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/openapi`, {
      token: org.members.admin.token,
      body: {
        slug: "through-prisma",
        source: { text: '{"openapi":"3.0.0","info":{"title":"T","version":"1"},"paths":{}}' },
      },
    });
    expect(spec.status).toBe(201);
    expect(await t.runJobs()).toBe(1);
    expect(await t.db.prisma.openAPISpecVersion.count({ where: { specId: spec.body.id } })).toBe(1);
  });
});

describe("Prisma's client is constructed on first use", () => {
  it("opening, migrating and reading construct none; the first Prisma call constructs one, used from then on", async () => {
    const before = constructions.count;
    const db = await openDatabase({ kind: "pglite", dataDir: "memory://" });
    try {
      await applyMigrations(db);
      expect(await db.sql.rows('SELECT count(*)::int AS users FROM "User"')).toStrictEqual([{ users: 0 }]);
      expect(constructions.count).toBe(before);

      expect(await db.prisma.user.count()).toBe(0);
      expect(await db.prisma.$transaction(async (tx) => tx.organization.count())).toBe(0);
      expect(constructions.count).toBe(before + 1);
    } finally {
      await db.close();
    }
  });
});

describe("the reads front ends make most leave Prisma unloaded", () => {
  it("the nested site structure, the long lists and a space by id (REST and GraphQL) read without Prisma", async () => {
    const admin = org.members.admin;
    const seeding = contextActingAs(
      { prisma: t.db.prisma, sql: t.db.sql, config: t.config, clock: t.clock, events: t.events },
      admin.id,
      "seed",
    );
    await seedDemoContent(seeding, org.organizationId, "small", async () => {});
    const sites = await t.rest<{ items: { id: string }[] }>("GET", `/orgs/${org.organizationId}/sites`, {
      token: admin.token,
    });
    const site = sites.body.items[0] as { id: string };
    const siteSpaces = await t.rest<{ items: { space: { id: string } }[] }>(
      "GET",
      `/orgs/${org.organizationId}/sites/${site.id}/site-spaces`,
      { token: admin.token },
    );
    const spaceId = (siteSpaces.body.items[0] as { space: { id: string } }).space.id;
    const created = await t.rest("POST", `/spaces/${spaceId}/change-requests`, {
      token: org.members.edit.token,
      body: { subject: "Read without Prisma" },
    });
    expect(created.status).toBe(201);

    // Another app on the same database whose Prisma fails any use: a read reaching Prisma answers 500.
    const reads = await startTestApp({ db: { ...t.db, ...withoutPrisma(t.db) } });
    const get = (path: string) => reads.rest<Record<string, unknown>>("GET", path, { token: admin.token });
    const changeRequests = await get(`/spaces/${spaceId}/change-requests?limit=1000`);
    expect(changeRequests.status).toBe(200);
    expect(changeRequests.body.items).toMatchObject([{ subject: "Read without Prisma" }]);
    const listed = await get(`/orgs/${org.organizationId}/sites/${site.id}/site-spaces?limit=1000`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toHaveLength(siteSpaces.body.items.length);
    const space = await get(`/spaces/${spaceId}`);
    expect(space.status).toBe(200);
    expect(space.body).toMatchObject({ id: spaceId, changeRequestsOpen: 1 });

    const graphql = reads.graphql(admin.token);
    const small = await graphql.request<{ space: { id: string } }>(
      "query SmallRead($id: ID!) { space(id: $id) { id title emoji visibility createdAt } }",
      { id: spaceId },
    );
    expect(small.space.id).toBe(spaceId);
    const nested = await graphql.request<{
      organization: {
        sites: { nodes: { sections: { nodes: { siteSpaces: { nodes: { space: { id: string } }[] } }[] } }[] };
      };
    }>(
      `query SiteStructure($id: ID!) {
        organization(id: $id) {
          sites(first: 20) {
            nodes { id title sections(first: 10) { nodes { id title path siteSpaces { nodes { id path space { id title emoji } } } } } }
          }
        }
      }`,
      { id: org.organizationId },
    );
    const nestedSpaces = nested.organization.sites.nodes.flatMap((each) =>
      each.sections.nodes.flatMap((section) => section.siteSpaces.nodes.map((siteSpace) => siteSpace.space.id)),
    );
    expect(nestedSpaces).toContain(spaceId);
  });
});
