import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewerMembershipLoader } from "../../src/auth/access.ts";
import { createTokenCache } from "../../src/auth/token-cache.ts";
import { tokenFromValue } from "../../src/auth/tokens.ts";
import { authenticate } from "../../src/auth/viewer.ts";
import type { Member, Organization, Prisma, SiteSpace, User } from "../../src/db/generated/client.ts";
import type { SqlReader } from "../../src/db/sql.ts";
import { listChangeRequests } from "../../src/modules/change-request/change-request.service.ts";
import { seedDemoContent } from "../../src/modules/demo/demo.service.ts";
import { organizationByIdLoader } from "../../src/modules/organization/organization.loaders.ts";
import { insertOrganization } from "../../src/modules/organization/organization.service.ts";
import { listSiteSpaces } from "../../src/modules/site-structure/site-space.service.ts";
import { structureReads } from "../../src/modules/site-structure/structure-reads.ts";
import {
  liveSiteSpace,
  siteOrder,
  siteSectionOrder,
  siteSpaceOrder,
} from "../../src/modules/site-structure/structure-sql.ts";
import { spaceByIdLoader } from "../../src/modules/space/space-reads.ts";
import { addMember, createApiToken, userByIdLoader } from "../../src/modules/user/user.service.ts";
import { mapNodes, type Page, type PageArgs, paginate, type SortKey } from "../../src/paging/pagination.ts";
import { newId } from "../../src/platform/ids.ts";
import { contextActingAs, type RequestContext } from "../../src/request/context.ts";
import { type SeededOrganization, seedOrganization, seedUser, startTestApp, type TestApp } from "../helpers/app.ts";

/** A page as its readers see it: each edge's cursor and node (an edge encodes its cursor when read), page info, count. */
/** A page as a read sees it: cursors read, the list counted (as a read selecting `totalCount` counts it). */
async function asRead<Node>(page: Page<Node>) {
  const totalCount = typeof page.totalCount === "number" ? page.totalCount : await page.totalCount();
  return { ...page, totalCount, edges: page.edges.map(({ cursor, node }) => ({ cursor, node })) };
}

// Every hand-written read (src/db/sql.ts) beside the Prisma query it replaces, on the same seeded rows: the rows
// must be equal, Dates, parsed JSON, arrays, nulls and nested relations included (`toStrictEqual` tells a Date from
// its text and a bigint from a number). Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.

let t: TestApp;
let org: SeededOrganization;
/** The rows of every statement the recording reader ran since the last `reset`. */
let recorded: unknown[][];
let viewerId: string;
let spaceIds: string[];
let siteId: string;
let sectionIds: string[];
let ssoOrganizationIds: string[];

function recordingReader(sql: SqlReader): SqlReader {
  return {
    async rows<Row>(text: string, params?: readonly unknown[]) {
      const rows = await sql.rows<Row>(text, params);
      recorded.push(rows);
      return rows;
    },
    // Recorded with each row's relations merged back in: the shape `rows` would answer, compared the same way.
    async rowsAndRelated<Row, Related>(text: string, params?: readonly unknown[]) {
      const answer = await sql.rowsAndRelated<Row, Related>(text, params);
      recorded.push(answer.rows.map((row, index) => ({ ...row, ...answer.related[index] })));
      return answer;
    },
  };
}

/** A request context of `userId` whose hand-written reads are recorded. */
function contextOf(userId: string): RequestContext {
  return contextActingAs(
    { prisma: t.db.prisma, sql: recordingReader(t.db.sql), config: t.config, clock: t.clock, events: t.events },
    userId,
    "hand-written-reads",
  );
}

/**
 * The rows of the one statement `work` runs through the reader, run twice: a text's first run describes its columns
 * and compiles its row builder (sql.ts), later runs reuse them, and both must agree.
 */
async function rowsOf(work: () => Promise<unknown>): Promise<unknown[]> {
  const runs: unknown[][] = [];
  for (let run = 0; run < 2; run++) {
    recorded = [];
    await work();
    expect(recorded).toHaveLength(1);
    runs.push(recorded[0] as unknown[]);
  }
  expect(runs[1]).toStrictEqual(runs[0]);
  return runs[1] as unknown[];
}

/**
 * The rows of each key read alone, together: a batch of one key is sent as a keyed read's `= $n` text, a batch of
 * more as its `= ANY($n)` text (`keyedSql`), and each must answer Prisma's rows.
 */
async function rowsKeyByKey(keys: readonly string[], read: (key: string) => Promise<unknown>): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (const key of keys) rows.push(...(await rowsOf(() => read(key))));
  return rows;
}

const byKey =
  <Row>(key: (row: Row) => string) =>
  (a: Row, b: Row) =>
    key(a).localeCompare(key(b));

/** `ssoAdmitsSql` as a Prisma filter on members. */
const ssoAdmits: Prisma.MemberWhereInput = {
  OR: [{ sso: true }, { role: "admin" }, { organization: { sso: false } }],
};

// A zone other than UTC: a timestamp read or sent as local time would be hours off, and these comparisons fail.
const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = "America/New_York";
});
afterAll(() => {
  process.env.TZ = zone;
});

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Hand-written reads");
  viewerId = org.members.edit.id;
  const admin = contextActingAs(
    { prisma: t.db.prisma, sql: t.db.sql, config: t.config, clock: t.clock, events: t.events },
    org.members.admin.id,
    "seed",
  );
  await seedDemoContent(admin, org.organizationId, "small", async () => {});
  const { prisma } = t.db;
  // JSON, arrays and nullable timestamps with values, so their conversions are compared too.
  await prisma.organization.update({
    where: { id: org.organizationId },
    data: { emailDomains: ["seed.test", "example.com"], mergeRules: { type: "approvals", count: 2, nested: [1, "a"] } },
  });
  const site = await prisma.site.findFirstOrThrow({ where: { organizationId: org.organizationId } });
  siteId = site.id;
  await prisma.site.update({ where: { id: siteId }, data: { adaptiveSchema: { type: "object", properties: {} } } });
  sectionIds = (await prisma.siteSection.findMany({ where: { siteId }, select: { id: true } })).map(({ id }) => id);
  const spaces = await prisma.space.findMany({ where: { organizationId: org.organizationId }, orderBy: { id: "asc" } });
  spaceIds = spaces.map(({ id }) => id);
  const [synced, deleted] = spaces;
  if (!synced || !deleted) throw new Error("the demo content has fewer than two spaces");
  await prisma.space.update({ where: { id: deleted.id }, data: { deletedAt: new Date("2026-01-02T03:04:05.678Z") } });
  await prisma.gitSync.create({
    data: {
      spaceId: synced.id,
      url: "https://git.example.com/docs.git",
      ref: "refs/heads/main",
      operationDirection: "import",
      operationState: "success",
      operationStartedAt: new Date("2026-01-01T00:00:00.123Z"),
      appliedTimestamp: new Date("2026-01-01T00:00:01.456Z"),
      updatedAt: new Date("2026-01-01T00:00:02Z"),
    },
  });
  await prisma.changeRequest.createMany({
    data: Array.from({ length: 7 }, (_, index) => ({
      id: newId("ChangeRequest"),
      spaceId: synced.id,
      organizationId: org.organizationId,
      number: index + 1,
      status: index === 6 ? "merged" : "open",
      subject: `Change ${index + 1}`,
      description: index % 2 === 0 ? { document: { nodes: [{ text: `change ${index}` }] } } : undefined,
      createdById: index % 3 === 0 ? viewerId : org.members.admin.id,
      revisionId: `rev_${index}`,
      revisionInitial: "rev_0",
      mergedAt: index === 6 ? new Date("2026-02-01T00:00:00Z") : null,
      // Two share an update time: the id breaks the tie, on both sides of a page boundary.
      createdAt: new Date(Date.UTC(2026, 0, 1 + index, 10, 0, 0, index)),
      updatedAt: new Date(Date.UTC(2026, 1, 1 + Math.min(index, 5), 12, 30, 0, 250)),
    })),
  });
  const changeRequests = await prisma.changeRequest.findMany({ where: { spaceId: synced.id }, select: { id: true } });
  await prisma.changeRequestContributor.createMany({
    data: changeRequests.slice(0, 3).map(({ id }) => ({ changeRequestId: id, userId: viewerId })),
  });
  await prisma.changeRequestReviewer.createMany({
    data: changeRequests.slice(2, 5).map(({ id }) => ({
      changeRequestId: id,
      userId: viewerId,
      requestedById: org.members.admin.id,
      revisionId: "rev_2",
    })),
  });

  // The viewer in two SSO organizations: as a plain member (refused by SSO) and as an admin (admitted), and a
  // space in each, so memberships come back null and present from the joins.
  ssoOrganizationIds = [];
  for (const role of ["read", "admin"] as const) {
    const organization = await insertOrganization(prisma, { title: `SSO ${role}` }, new Date());
    await prisma.organization.update({ where: { id: organization.id }, data: { sso: true } });
    await addMember(prisma, organization.id, viewerId, role, new Date());
    await prisma.member.update({
      where: { organizationId_userId: { organizationId: organization.id, userId: viewerId } },
      data: { lastSeenAt: new Date("2026-03-01T00:00:00.999Z") },
    });
    const space = await prisma.space.create({
      data: {
        id: newId("Space"),
        organizationId: organization.id,
        title: `SSO ${role} space`,
        revisionId: "rev_0",
        defaultLevel: "read",
      },
    });
    ssoOrganizationIds.push(organization.id);
    spaceIds.push(space.id);
  }
  // A space of an organization the viewer is not a member of.
  const stranger = await seedOrganization(t.db, "Not the viewer's");
  const foreign = await prisma.space.create({
    data: { id: newId("Space"), organizationId: stranger.organizationId, title: "Foreign", revisionId: "rev_0" },
  });
  spaceIds.push(foreign.id);
});

describe("hand-written reads return the rows Prisma returns", () => {
  it("authenticate: the token row by its lookup (live, expiring and revoked tokens)", async () => {
    const user = await seedUser(t.db, "tokens");
    const expiring = await createApiToken(t.db.prisma, user.id);
    const revoked = await createApiToken(t.db.prisma, user.id);
    await t.db.prisma.apiToken.update({
      where: { id: expiring.apiToken.id },
      data: { expiresAt: new Date("2099-01-01T00:00:00.001Z") },
    });
    await t.db.prisma.apiToken.update({ where: { id: revoked.apiToken.id }, data: { revokedAt: new Date() } });
    for (const token of [user.token, expiring.token, revoked.token]) {
      const reader = recordingReader(t.db.sql);
      const rows = await rowsOf(() => authenticate(reader, t.clock, createTokenCache(t.events), token));
      const expected = await t.db.prisma.apiToken.findMany({
        where: { lookup: tokenFromValue(token).lookup },
        select: { id: true, userId: true, hash: true, revokedAt: true, expiresAt: true },
      });
      expect(expected).toHaveLength(1);
      expect(rows).toStrictEqual(expected);
    }
  });

  it("viewerMembershipLoader: the viewer's memberships the organizations' SSO rules admit", async () => {
    const organizationIds = [org.organizationId, ...ssoOrganizationIds, "org_unknown"];
    const rows = await rowsOf(() => viewerMembershipLoader(contextOf(viewerId)).loadMany(organizationIds));
    const expected = await t.db.prisma.member.findMany({
      where: { userId: viewerId, organizationId: { in: organizationIds }, ...ssoAdmits },
    });
    expect(expected.map((member) => member.organizationId).sort()).toStrictEqual(
      [org.organizationId, ssoOrganizationIds[1]].sort(),
    );
    const key = byKey<Member>((member) => member.organizationId);
    expect((rows as Member[]).sort(key)).toStrictEqual(expected.sort(key));
    const alone = await rowsKeyByKey(organizationIds, (id) => viewerMembershipLoader(contextOf(viewerId)).load(id));
    expect((alone as Member[]).sort(key)).toStrictEqual(expected);
  });

  it("spaceByIdLoader: spaces with their Git sync and the viewer's admitted membership", async () => {
    const ids = [...spaceIds, "space_unknown"];
    const rows = await rowsOf(() => spaceByIdLoader(contextOf(viewerId)).loadMany(ids));
    const spaces = await t.db.prisma.space.findMany({
      where: { id: { in: ids } },
      include: {
        gitSync: true,
        organization: { select: { members: { where: { userId: viewerId, ...ssoAdmits } } } },
      },
    });
    const expected = spaces.map(({ organization, ...space }) => ({
      ...space,
      membership: organization.members[0] ?? null,
    }));
    expect(expected.filter((space) => space.gitSync)).toHaveLength(1);
    expect(expected.filter((space) => space.membership)).toHaveLength(expected.length - 2);
    const key = byKey<{ id: string }>((space) => space.id);
    expect((rows as { id: string }[]).sort(key)).toStrictEqual(expected.sort(key));
    const alone = await rowsKeyByKey(ids, (id) => spaceByIdLoader(contextOf(viewerId)).load(id));
    expect((alone as { id: string }[]).sort(key)).toStrictEqual(expected);
  });

  it("organizationByIdLoader: organizations by id", async () => {
    const ids = [org.organizationId, ...ssoOrganizationIds];
    const rows = await rowsOf(() => organizationByIdLoader(contextOf(viewerId)).loadMany(ids));
    const expected = await t.db.prisma.organization.findMany({ where: { id: { in: ids } } });
    const key = byKey<Organization>((organization) => organization.id);
    expect((rows as Organization[]).sort(key)).toStrictEqual(expected.sort(key));
    const alone = await rowsKeyByKey(ids, (id) => organizationByIdLoader(contextOf(viewerId)).load(id));
    expect((alone as Organization[]).sort(key)).toStrictEqual(expected);
  });

  it("userByIdLoader: users by id (a photo and none, verified and not, an unknown id)", async () => {
    const ids = Object.values(org.members).map((member) => member.id);
    const [withPhoto, unverified] = ids as [string, string];
    await t.db.prisma.user.update({ where: { id: withPhoto }, data: { photoURL: "https://photos.seed.test/a.png" } });
    await t.db.prisma.user.update({ where: { id: unverified }, data: { emailVerified: false } });
    const rows = await rowsOf(() => userByIdLoader(contextOf(viewerId)).loadMany([...ids, newId("User")]));
    const expected = await t.db.prisma.user.findMany({ where: { id: { in: ids } } });
    expect(expected.filter((user) => user.photoURL !== null)).toHaveLength(1);
    const key = byKey<User>((user) => user.id);
    expect((rows as User[]).sort(key)).toStrictEqual(expected.sort(key));
    const alone = await rowsKeyByKey(ids, (id) => userByIdLoader(contextOf(viewerId)).load(id));
    expect((alone as User[]).sort(key)).toStrictEqual(expected);
  });

  it("the site structure loaders: sites, sections and live site spaces, in list order", async () => {
    // A new request each run: the loaders keep what they read for the request.
    const ctx = () => contextOf(viewerId);
    const { prisma } = t.db;
    const orderBy = <Node>(sort: readonly SortKey<Node>[]) => sort.map((key) => ({ [key.field]: key.direction }));
    // Each read by one key (its `= $n` text) and by that key beside one that matches nothing (`= ANY($n)`).
    const oneAndMore = (key: string) => [[key], [key, "unknown"]];
    const cases: {
      keys: string[][];
      read(keys: string[]): Promise<unknown>;
      expected(keys: string[]): Promise<unknown[]>;
    }[] = [
      {
        keys: oneAndMore(siteId),
        read: (keys) => structureReads(ctx()).site.loadMany(keys),
        expected: (keys) => prisma.site.findMany({ where: { id: { in: keys } } }),
      },
      {
        keys: oneAndMore(org.organizationId),
        read: (keys) => structureReads(ctx()).sitesOfOrganization(siteOrder).loadMany(keys),
        expected: (keys) =>
          prisma.site.findMany({ where: { organizationId: { in: keys } }, orderBy: orderBy(siteOrder) }),
      },
      {
        keys: oneAndMore(siteId),
        read: (keys) => structureReads(ctx()).sectionsOfSite().loadMany(keys),
        expected: (keys) =>
          prisma.siteSection.findMany({ where: { siteId: { in: keys } }, orderBy: orderBy(siteSectionOrder) }),
      },
      {
        keys: [sectionIds.slice(0, 1), sectionIds],
        read: (keys) => structureReads(ctx()).section.loadMany(keys),
        expected: (keys) => prisma.siteSection.findMany({ where: { id: { in: keys } } }),
      },
      {
        keys: oneAndMore(siteId),
        read: (keys) => structureReads(ctx()).siteSpacesOfSite().loadMany(keys),
        expected: (keys) =>
          prisma.siteSpace.findMany({
            where: { siteId: { in: keys }, ...liveSiteSpace },
            orderBy: orderBy(siteSpaceOrder),
            // Site-space reads leave out `createdAt` unless their order or filter uses it (structure-sql.ts).
            omit: { createdAt: true },
          }),
      },
    ];
    expect(sectionIds.length).toBeGreaterThan(1);
    for (const { keys: keySets, read, expected: expectedRows } of cases) {
      for (const keys of keySets) {
        const rows = await rowsOf(() => read(keys));
        const expected = await expectedRows(keys);
        expect(expected.length).toBeGreaterThan(0);
        // `structureReads(ctx).section` reads by id without an order: both sides compared in JavaScript's id order (the
        // database's collation may order mixed-case ids otherwise).
        if (read === cases[3]?.read) {
          (rows as { id: string }[]).sort(byKey((row) => row.id));
          (expected as { id: string }[]).sort(byKey((row) => row.id));
        }
        expect(rows).toStrictEqual(expected);
      }
    }
    // The demo's deleted space hides its site spaces: the filter on the live space was exercised.
    expect(await prisma.siteSpace.count({ where: { siteId, space: { deletedAt: { not: null } } } })).toBeGreaterThan(0);
  });

  it("the structure's defaults: each scope's live pointer, else its first live site space, as Prisma's rows say", async () => {
    const { prisma } = t.db;
    const expected = new Set<string>();
    const site = await prisma.site.findUniqueOrThrow({ where: { id: siteId } });
    const sections = await prisma.siteSection.findMany({ where: { siteId } });
    const live = await prisma.siteSpace.findMany({
      where: { siteId, ...liveSiteSpace },
      orderBy: siteSpaceOrder.map((key) => ({ [key.field]: key.direction })),
    });
    const pointers = new Map<string | null, string | null>([
      [null, site.defaultSiteSpaceId],
      ...sections.map((section) => [section.id, section.defaultSiteSpaceId] as const),
    ]);
    for (const scope of new Set(live.map((siteSpace) => siteSpace.sectionId))) {
      const ids = live.filter((siteSpace) => siteSpace.sectionId === scope).map((siteSpace) => siteSpace.id);
      const pointer = pointers.get(scope);
      expected.add(pointer && ids.includes(pointer) ? pointer : (ids[0] as string));
    }
    expect(expected.size).toBeGreaterThan(1);
    expect(await structureReads(contextOf(viewerId)).defaults.load(siteId)).toEqual(expected);
    // With another key in the batch, the statement's `= ANY($1)` text.
    expect(await structureReads(contextOf(viewerId)).defaults.loadMany([siteId, "site_unknown"])).toEqual([
      expected,
      new Set(),
    ]);
  });

  it("paginateSql: change request pages (filters, both orders, Date cursors) equal Prisma's paginate", async () => {
    const spaceId = spaceIds[0] as string;
    const ctx = () => contextOf(viewerId);
    const filterCases: [Parameters<typeof listChangeRequests>[2], Prisma.ChangeRequestWhereInput, "createdAt"?][] = [
      [{}, { status: "open" }],
      [{ status: "merged" }, { status: "merged" }],
      [{}, { status: "open" }, "createdAt"],
      [{ creator: viewerId }, { status: "open", createdById: viewerId }],
      [{ contributor: viewerId }, { status: "open", contributors: { some: { userId: viewerId } } }],
      [{ requestedReviewer: viewerId }, { status: "open", requestedReviewers: { some: { userId: viewerId } } }],
    ];
    for (const [filters, where, orderedBy] of filterCases) {
      const sort: SortKey<Prisma.ChangeRequestGetPayload<object>>[] = [
        { field: orderedBy ?? "updatedAt", direction: "desc" },
        { field: "id", direction: "desc" },
      ];
      const list = orderedBy ? { orderBy: [{ field: "CREATED_AT", direction: "DESC" }] } : {};
      const expectedPage = (args: PageArgs) =>
        paginate(args, { model: t.db.prisma.changeRequest, sort, where: { ...where, spaceId: { in: [spaceId] } } });
      let args: PageArgs = { first: 2 };
      for (let pageNumber = 0; pageNumber < 5; pageNumber++) {
        const page = await listChangeRequests(ctx(), { spaceId }, filters, args, list, true);
        expect(await asRead(page)).toStrictEqual(await asRead(await expectedPage(args)));
        if (!page.pageInfo.hasNextPage) break;
        args = { first: 2, after: page.pageInfo.endCursor };
      }
      const last = await listChangeRequests(ctx(), { spaceId }, filters, { last: 2, before: args.after }, list, true);
      expect(await asRead(last)).toStrictEqual(await asRead(await expectedPage({ last: 2, before: args.after })));
    }
  });

  it("paginateSql: site space pages (all, defaults only, the others; by position or creation) equal Prisma's paginate", async () => {
    const ctx = () => contextOf(org.members.admin.id);
    const settleAll = { spaces: "full", defaults: true, urls: true } as const;
    const defaultIds = [...(await structureReads(ctx()).defaults.load(siteId))];
    expect(defaultIds.length).toBeGreaterThan(0);
    const byCreation = { orderBy: [{ field: "CREATED_AT", direction: "DESC" }] };
    const createdOrder: SortKey<SiteSpace>[] = [
      { field: "createdAt", direction: "desc" },
      { field: "id", direction: "desc" },
    ];
    const orders = [
      { list: {}, sort: siteSpaceOrder, withCreatedAt: false },
      { list: byCreation, sort: createdOrder, withCreatedAt: true },
    ];
    for (const [wanted, order] of [undefined, true, false].flatMap((w) => orders.map((o) => [w, o] as const))) {
      const where: Prisma.SiteSpaceWhereInput = { siteId, ...liveSiteSpace };
      if (wanted !== undefined) where.id = wanted ? { in: defaultIds } : { notIn: defaultIds };
      // Only a created order reads `createdAt` (structure-sql.ts).
      const rowAsRead = ({ createdAt, ...row }: SiteSpace) => (order.withCreatedAt ? { ...row, createdAt } : row);
      const expectedPage = async (args: PageArgs) => {
        const page = await paginate(args, { model: t.db.prisma.siteSpace, sort: order.sort, where });
        return mapNodes(page, rowAsRead);
      };
      let args: PageArgs = { first: 1 };
      for (let pageNumber = 0; pageNumber < 8; pageNumber++) {
        const page = await listSiteSpaces(
          ctx(),
          org.organizationId,
          siteId,
          args,
          { default: wanted },
          order.list,
          settleAll,
        );
        expect(await asRead(page)).toStrictEqual(await asRead(await expectedPage(args)));
        expect(page.edges.length).toBeGreaterThan(0);
        if (!page.pageInfo.hasNextPage) break;
        args = { first: 1, after: page.pageInfo.endCursor };
      }
    }
  });
});
