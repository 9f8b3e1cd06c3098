import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// With TEST_DATABASE_URL (CI's second pass) the requests below run on separate PostgreSQL connections at once;
// on PGlite they interleave on one connection. Either way no merge may be lost.
let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Concurrency Org");
});

type EditBody = { revision: string; inserted: { id: string }[] };

describe("concurrent merges", () => {
  it("lands every merge of different change requests on top of the others: none is lost", async () => {
    const editor = org.members.edit.token;
    const reviewer = org.members.review.token;
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      body: { title: "Busy" },
    });
    const spaceId = space.body.id;
    const count = 8;
    const base = await t.rest<EditBody>("POST", `/spaces/${spaceId}/content`, {
      token: editor,
      body: {
        changes: Array.from({ length: count }, (_, index) => ({
          type: "insert",
          page: { title: `Page ${index}`, markdown: `original ${index}\n` },
        })),
      },
    });
    const pageIds = base.body.inserted.map((item) => item.id);

    const changeRequests: string[] = [];
    for (const [index, pageId] of pageIds.entries()) {
      const cr = await t.rest<{ id: string }>("POST", `/spaces/${spaceId}/change-requests`, {
        token: editor,
        body: { subject: `Edit ${index}` },
      });
      const write = await t.rest("POST", `/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
        token: editor,
        body: {
          changes: [
            { type: "update", pageId, page: { markdown: `edited by change request ${index}\n` } },
            { type: "insert", page: { title: `Added ${index}`, markdown: `new ${index}\n` } },
          ],
        },
      });
      expect(write.status).toBe(200);
      changeRequests.push(cr.body.id);
    }

    const results = await Promise.all(
      changeRequests.map((id) =>
        t.rest<{ revision: string }>("POST", `/spaces/${spaceId}/change-requests/${id}/merge`, { token: reviewer }),
      ),
    );
    for (const result of results) expect([200, 409]).toContain(result.status);
    const landed = results.flatMap((result, index) => (result.status === 200 ? [index] : []));
    // Different pages never conflict: every merge lands, each on top of the ones before it.
    expect(landed).toHaveLength(count);

    const pages = await t.rest<{ pages: { id: string; title: string; markdown: string }[] }>(
      "GET",
      `/spaces/${spaceId}/content/pages`,
      { token: editor },
    );
    for (const index of landed) {
      const page = pages.body.pages.find((item) => item.id === pageIds[index]);
      expect(page?.markdown).toBe(`edited by change request ${index}\n`);
      expect(pages.body.pages.filter((item) => item.title === `Added ${index}`)).toHaveLength(1);
    }
    expect(pages.body.pages).toHaveLength(count * 2);

    // The space's history is one chain of merges through every merged revision.
    const revisions = await t.db.prisma.revision.findMany({ where: { spaceId } });
    const byId = new Map(revisions.map((revision) => [revision.id, revision]));
    const stored = await t.db.prisma.space.findUniqueOrThrow({ where: { id: spaceId } });
    const chain: string[] = [];
    for (let id: string | undefined = stored.revisionId; id; id = byId.get(id)?.parents[0]) chain.push(id);
    const mergeRevisions = results.map((result) => result.body.revision);
    expect(chain.filter((id) => byId.get(id)?.type === "merge").sort()).toEqual([...mergeRevisions].sort());
    expect(chain.at(-1)).toBe(revisions.find((revision) => revision.parents.length === 0)?.id);

    const crs = await t.db.prisma.changeRequest.findMany({ where: { spaceId } });
    expect(crs.every((cr) => cr.status === "merged" && mergeRevisions.includes(cr.revisionMerged ?? ""))).toBe(true);
    expect(stored).toMatchObject({ changeRequests: count, changeRequestsOpen: 0, changeRequestsDraft: 0 });
  });

  it("serializes concurrent edits of one change request without losing any", async () => {
    const editor = org.members.edit.token;
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      body: { title: "Busy writers" },
    });
    const cr = await t.rest<{ id: string }>("POST", `/spaces/${space.body.id}/change-requests`, {
      token: editor,
      body: {},
    });
    const path = `/spaces/${space.body.id}/change-requests/${cr.body.id}/content`;
    const writes = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        t.rest<EditBody>("POST", path, {
          token: editor,
          body: { changes: [{ type: "insert", page: { title: `Writer ${index}` } }] },
        }),
      ),
    );
    expect(writes.map((write) => write.status)).toEqual(Array(6).fill(200));
    const pages = await t.rest<{ pages: { title: string }[] }>("GET", `${path}/pages`, { token: editor });
    expect(pages.body.pages.map((page) => page.title).sort()).toEqual(
      Array.from({ length: 6 }, (_, index) => `Writer ${index}`),
    );
  });
});
