import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/platform/ids.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// A first page of a long list reads an index range in the list's order, never the whole set sorted: the live
// spaces' and a space's own comments' orders are partial indexes, as `deletedAt IS NULL` / `changeRequestId IS NULL`
// between the parent and the order would not count as equality to the planner. PostgreSQL's plans only.

const serverUrl = process.env.TEST_DATABASE_URL;
const spaces = 3000;
const comments = 3000;

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe.skipIf(!serverUrl)("first pages of long lists (skipped without TEST_DATABASE_URL)", () => {
  let t: TestApp;
  let org: SeededOrganization;
  let spaceId: string;
  let captured: { sql: string; params: unknown[] }[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    org = await seedOrganization(t.db);
    const now = Date.parse("2026-01-01T00:00:00.000Z");
    const ids = Array.from({ length: spaces }, () => newId("Space"));
    spaceId = ids[0] as string;
    await t.db.prisma.space.createMany({
      data: ids.map((id, index) => ({
        id,
        organizationId: org.organizationId,
        title: `Space ${index}`,
        revisionId: newId("Revision"),
        // Every tenth space is in the trash, and public: listed to no one, whoever may read it.
        visibility: index % 10 === 9 ? "public" : "private",
        deletedAt: index % 10 === 9 ? new Date(now) : null,
        createdAt: new Date(now + index),
      })),
    });
    const changeRequestId = newId("ChangeRequest");
    await t.db.prisma.changeRequest.create({
      data: {
        id: changeRequestId,
        spaceId,
        organizationId: org.organizationId,
        number: 1,
        subject: "Change",
        createdById: org.members.admin.id,
        revisionId: newId("Revision"),
        revisionInitial: newId("Revision"),
      },
    });
    await t.db.prisma.comment.createMany({
      data: Array.from({ length: comments }, (_, index) => ({
        id: newId("Comment"),
        spaceId,
        // Half of them in a change request: the space's own list leaves them out.
        changeRequestId: index % 2 === 0 ? changeRequestId : null,
        postedById: org.members.admin.id,
        revisionId: newId("Revision"),
        markdown: `Comment ${index}`,
        postedAt: new Date(now + index),
      })),
    });
    await t.db.prisma.$executeRawUnsafe(`ANALYZE "Space"`);
    await t.db.prisma.$executeRawUnsafe(`ANALYZE "Comment"`);
    t.db.onStatement((sql, params) => captured.push({ sql, params }));
  });

  /** The plan of the statement of `table`'s first page (the one with ORDER BY and LIMIT) the request sent. */
  async function firstPagePlan(table: string, request: () => Promise<unknown>): Promise<PlanNode[]> {
    captured = [];
    await request();
    const statement = captured.find(
      ({ sql }) => sql.includes(`FROM "public"."${table}"`) && /ORDER BY/.test(sql) && /LIMIT/.test(sql),
    );
    if (!statement) throw new Error(`no ordered read of ${table} in ${JSON.stringify(captured.map((c) => c.sql))}`);
    const [row] = await t.db.withRawConnection((connection) =>
      connection.query<{ "QUERY PLAN": { Plan: PlanNode }[] }>(
        `EXPLAIN (FORMAT JSON) ${statement.sql}`,
        statement.params,
      ),
    );
    return nodes((row?.["QUERY PLAN"][0] as { Plan: PlanNode }).Plan);
  }

  it("reads the first 20 live spaces of each order through its partial index", async () => {
    const orders = { CREATED_AT: "createdAt", UPDATED_AT: "updatedAt", TITLE: "title", POSITION: "position" };
    for (const [field, column] of Object.entries(orders)) {
      for (const direction of ["ASC", "DESC"]) {
        const plan = await firstPagePlan("Space", () =>
          t.graphql(org.members.admin.token).request(
            `query($id: ID!, $orderBy: [SpaceOrder!]) {
              organization(id: $id) { spaces(first: 20, orderBy: $orderBy) { nodes { id } } }
            }`,
            { id: org.organizationId, orderBy: [{ field, direction }] },
          ),
        );
        expect(
          plan.map((node) => node["Node Type"]),
          `${field} ${direction}`,
        ).not.toContain("Sort");
        expect(plan.map((node) => node["Index Name"])).toContain(`Space_live_${column}_idx`);
      }
    }
    const listed = await t.rest<{ items: { id: string }[]; count: number }>(
      "GET",
      `/orgs/${org.organizationId}/spaces`,
      { token: org.members.admin.token, query: { limit: 20 } },
    );
    expect(listed.body.count).toBe(spaces - spaces / 10);
    expect(listed.body.items[0]?.id).toBe(spaceId);
  });

  it("reads the first 20 of a space's own comments through its partial index", async () => {
    for (const order of ["desc", "asc"]) {
      const plan = await firstPagePlan("Comment", () =>
        t.rest("GET", `/spaces/${spaceId}/comments`, { token: org.members.admin.token, query: { limit: 20, order } }),
      );
      expect(
        plan.map((node) => node["Node Type"]),
        order,
      ).not.toContain("Sort");
      expect(plan.map((node) => node["Index Name"])).toContain("Comment_space_postedAt_idx");
    }
    const listed = await t.rest<{ items: { id: string }[]; count: number }>("GET", `/spaces/${spaceId}/comments`, {
      token: org.members.admin.token,
      query: { limit: 20 },
    });
    expect(listed.body.count).toBe(comments / 2);
    expect(listed.body.items).toHaveLength(20);
  });
});
