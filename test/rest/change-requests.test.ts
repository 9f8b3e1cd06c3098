import { beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../src/modules/user/user.service.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let editor: string;
let reviewer: string;

type ChangeRequestBody = {
  id: string;
  number: number;
  status: string;
  subject: string;
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  outdated: boolean;
  createdBy?: { id: string };
};
type EditBody = { revision: string; result: string; inserted: { type: string; id: string }[] };
type PageBody = { id: string; title: string; slug: string; path: string; markdown?: string; pages: PageBody[] };

async function newSpace(title: string) {
  const space = await t.rest<{ id: string; revision: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title },
  });
  expect(space.status).toBe(201);
  return space.body;
}

async function liveEdit(spaceId: string, changes: unknown[]) {
  const edit = await t.rest<EditBody>("POST", `/spaces/${spaceId}/content`, { token: editor, body: { changes } });
  expect(edit.status).toBe(200);
  return edit.body;
}

async function openChangeRequest(spaceId: string, subject: string) {
  const created = await t.rest<ChangeRequestBody>("POST", `/spaces/${spaceId}/change-requests`, {
    token: editor,
    body: { subject },
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function editChangeRequest(spaceId: string, changeRequestId: string, changes: unknown[]) {
  return t.rest<EditBody>("POST", `/spaces/${spaceId}/change-requests/${changeRequestId}/content`, {
    token: editor,
    body: { changes },
  });
}

async function pageMarkdown(path: string) {
  const page = await t.rest<PageBody>("GET", path, { token: editor, query: { format: "markdown" } });
  expect(page.status).toBe(200);
  return page.body.markdown;
}

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Change Org");
  editor = org.members.edit.token;
  reviewer = org.members.review.token;
});

describe("change requests", () => {
  it("edits on branches, updates, merges and refuses conflicts as a Git user expects", async () => {
    const space = await newSpace("Handbook");
    const base = await liveEdit(space.id, [
      { type: "insert", page: { title: "Intro", markdown: "# Intro\n\nline one\nline two\nline three\n" } },
      { type: "insert", page: { title: "Setup", markdown: "Install it.\n" } },
      { type: "insert", page: { title: "FAQ", markdown: "Q: why?\nA: because.\n" } },
    ]);
    const [intro, setup, faq] = base.inserted.map((item) => item.id) as [string, string, string];

    const first = await openChangeRequest(space.id, "Rework the intro");
    expectMatchesSpec("createChangeRequest", 201, first);
    const second = await openChangeRequest(space.id, "Setup and intro");
    expect([first.number, second.number]).toEqual([1, 2]);
    expect(first).toMatchObject({
      status: "open",
      revision: base.revision,
      revisionInitial: base.revision,
      outdated: false,
    });

    // The first change request edits the start of the intro and the FAQ; the second the end of the intro and setup.
    const firstEdit = await editChangeRequest(space.id, first.id, [
      { type: "update", pageId: intro, page: { markdown: "# Intro\n\nline ONE\nline two\nline three\n" } },
      { type: "update", pageId: faq, page: { title: "Questions" } },
    ]);
    expect(firstEdit.status).toBe(200);
    const secondEdit = await editChangeRequest(space.id, `${second.number}`, [
      { type: "update", pageId: intro, page: { markdown: "# Intro\n\nline one\nline two\nline THREE\n" } },
      { type: "update", pageId: setup, page: { markdown: "Install it with npm.\n" } },
      { type: "insert", page: { title: "Upgrading", parent: setup, markdown: "Read the notes.\n" } },
    ]);
    expect(secondEdit.status).toBe(200);

    // The space has not moved: its content is still the base.
    expect(await pageMarkdown(`/spaces/${space.id}/content/page/${intro}`)).toBe(
      "# Intro\n\nline one\nline two\nline three\n",
    );

    const merged = await t.rest<{ revision: string; result: string }>(
      "POST",
      `/spaces/${space.id}/change-requests/${first.id}/merge`,
      { token: reviewer },
    );
    expect(merged.status).toBe(200);
    expectMatchesSpec("mergeChangeRequest", 200, merged.body);
    expect(merged.body.result).toBe("merge");
    const afterFirst = await t.rest<ChangeRequestBody>("GET", `/spaces/${space.id}/change-requests/${first.id}`, {
      token: editor,
    });
    expect(afterFirst.body).toMatchObject({ status: "merged", revisionMerged: merged.body.revision, outdated: false });
    const spaceNow = await t.rest<{ revision: string }>("GET", `/spaces/${space.id}`, { token: editor });
    expect(spaceNow.body.revision).toBe(merged.body.revision);

    // The second change request is now behind the space.
    const behind = await t.rest<ChangeRequestBody>("GET", `/spaces/${space.id}/change-requests/2`, { token: editor });
    expect(behind.body.outdated).toBe(true);
    const updated = await t.rest<{ revision: string; result: string }>(
      "POST",
      `/spaces/${space.id}/change-requests/${second.id}/update`,
      { token: editor },
    );
    expect(updated.status).toBe(200);
    expectMatchesSpec("updateChangeRequest", 200, updated.body);
    const upToDate = await t.rest<ChangeRequestBody>("GET", `/spaces/${space.id}/change-requests/${second.id}`, {
      token: editor,
    });
    expect(upToDate.body).toMatchObject({ outdated: false, revision: updated.body.revision });
    expect(upToDate.body.revisionMergedAncestor).toBe(merged.body.revision);
    // Both edits of the intro are in the change request now, line by line.
    expect(await pageMarkdown(`/spaces/${space.id}/change-requests/${second.id}/content/page/${intro}`)).toBe(
      "# Intro\n\nline ONE\nline two\nline THREE\n",
    );

    const mergedSecond = await t.rest<{ revision: string }>(
      "POST",
      `/spaces/${space.id}/change-requests/${second.id}/merge`,
      { token: reviewer },
    );
    expect(mergedSecond.status).toBe(200);
    const pages = await t.rest<{ pages: PageBody[] }>("GET", `/spaces/${space.id}/content/pages`, { token: editor });
    expect(pages.status).toBe(200);
    expectMatchesSpec("listPages", 200, pages.body);
    expect(pages.body.pages.map((page) => [page.title, page.pages.map((child) => child.path)])).toEqual([
      ["Intro", []],
      ["Setup", ["setup/upgrading"]],
      ["Questions", []],
    ]);
    expect(await pageMarkdown(`/spaces/${space.id}/content/page/${setup}`)).toBe("Install it with npm.\n");
    expect(await pageMarkdown(`/spaces/${space.id}/content/page/${intro}`)).toBe(
      "# Intro\n\nline ONE\nline two\nline THREE\n",
    );
    const revision = await t.rest<{ parents: string[]; type: string }>("GET", `/spaces/${space.id}/content`, {
      token: editor,
    });
    expectMatchesSpec("getCurrentRevision", 200, revision.body);
    expect(revision.body).toMatchObject({ type: "merge", parents: [merged.body.revision, upToDate.body.revision] });

    // Two change requests changing the same line differently: the second merge is a conflict naming the page.
    const third = await openChangeRequest(space.id, "Third");
    const fourth = await openChangeRequest(space.id, "Fourth");
    expect(
      (
        await editChangeRequest(space.id, third.id, [
          { type: "update", pageId: faq, page: { markdown: "Q: why?\nA: 42.\n" } },
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await editChangeRequest(space.id, fourth.id, [
          { type: "update", pageId: faq, page: { markdown: "Q: why?\nA: nobody knows.\n" } },
        ])
      ).status,
    ).toBe(200);
    expect(
      (await t.rest("POST", `/spaces/${space.id}/change-requests/${third.id}/merge`, { token: reviewer })).status,
    ).toBe(200);
    const conflict = await t.rest<{ error: { code: number; message: string } }>(
      "POST",
      `/spaces/${space.id}/change-requests/${fourth.id}/merge`,
      { token: reviewer },
    );
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.message).toContain("Questions");
    expect(conflict.body.error.message).toContain(faq);
    const stillOpen = await t.rest<ChangeRequestBody>("GET", `/spaces/${space.id}/change-requests/${fourth.id}`, {
      token: editor,
    });
    expect(stillOpen.body).toMatchObject({ status: "open", outdated: true });
    expect(await pageMarkdown(`/spaces/${space.id}/content/page/${faq}`)).toBe("Q: why?\nA: 42.\n");
    // The update hits the same conflict: nothing is written.
    const refused = await t.rest("POST", `/spaces/${space.id}/change-requests/${fourth.id}/update`, { token: editor });
    expect(refused.status).toBe(409);
    expect(
      (await t.rest<ChangeRequestBody>("GET", `/spaces/${space.id}/change-requests/${fourth.id}`, { token: editor }))
        .body.revision,
    ).toBe(stillOpen.body.revision);
  });

  it("deletes on one side and edits on the other conflict; unrelated deletes combine", async () => {
    const space = await newSpace("Deletes");
    const base = await liveEdit(space.id, [
      { type: "insert", page: { title: "Keep", markdown: "keep\n" } },
      { type: "insert", page: { title: "Drop", markdown: "drop\n" } },
      { type: "insert", page: { title: "Edited", markdown: "v1\n" } },
    ]);
    const [keep, drop, edited] = base.inserted.map((item) => item.id) as [string, string, string];
    const deleter = await openChangeRequest(space.id, "Delete two pages");
    expect(
      (
        await editChangeRequest(space.id, deleter.id, [
          { type: "delete", pageId: drop },
          { type: "delete", pageId: edited },
        ])
      ).status,
    ).toBe(200);
    await liveEdit(space.id, [{ type: "update", pageId: edited, page: { markdown: "v2\n" } }]);
    const refused = await t.rest<{ error: { message: string } }>(
      "POST",
      `/spaces/${space.id}/change-requests/${deleter.id}/merge`,
      { token: reviewer },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain("deleted on one side and changed on the other");
    expect(refused.body.error.message).toContain(edited);
    expect(refused.body.error.message).not.toContain(drop);

    const onlyDrop = await openChangeRequest(space.id, "Delete one page");
    expect((await editChangeRequest(space.id, onlyDrop.id, [{ type: "delete", pageId: drop }])).status).toBe(200);
    expect(
      (await t.rest("POST", `/spaces/${space.id}/change-requests/${onlyDrop.id}/merge`, { token: reviewer })).status,
    ).toBe(200);
    const pages = await t.rest<{ pages: PageBody[] }>("GET", `/spaces/${space.id}/content/pages`, { token: editor });
    expect(pages.body.pages.map((page) => page.id)).toEqual([keep, edited]);
  });

  it("lists with filters, patches status with counters, and allocates numbers without gaps under concurrency", async () => {
    const space = await newSpace("Numbers");
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, index) => openChangeRequest(space.id, `Concurrent ${index}`)),
    );
    expect(created.map((cr) => cr.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));

    const drafted = await t.rest<ChangeRequestBody>("PATCH", `/spaces/${space.id}/change-requests/3`, {
      token: editor,
      body: { status: "draft", subject: "Draft three" },
    });
    expect(drafted.status).toBe(200);
    expectMatchesSpec("updateChangeRequestById", 200, drafted.body);
    expect(drafted.body).toMatchObject({ status: "draft", subject: "Draft three", number: 3 });
    await t.rest("PATCH", `/spaces/${space.id}/change-requests/4`, { token: editor, body: { status: "archived" } });
    const counters = await t.rest<{ changeRequests: number; changeRequestsOpen: number; changeRequestsDraft: number }>(
      "GET",
      `/spaces/${space.id}`,
      { token: editor },
    );
    expect(counters.body).toMatchObject({ changeRequests: 12, changeRequestsOpen: 10, changeRequestsDraft: 1 });

    const open = await t.rest<{ items: ChangeRequestBody[]; count: number; next?: { page: string } }>(
      "GET",
      `/spaces/${space.id}/change-requests`,
      { token: editor, query: { limit: 4 } },
    );
    expect(open.status).toBe(200);
    expectMatchesSpec("listChangeRequestsForSpace", 200, open.body);
    expect(open.body.count).toBe(10);
    expect(open.body.items).toHaveLength(4);
    const rest = await t.rest<{ items: ChangeRequestBody[] }>("GET", `/spaces/${space.id}/change-requests`, {
      token: editor,
      query: { limit: 100, page: open.body.next?.page },
    });
    expect(new Set([...open.body.items, ...rest.body.items].map((cr) => cr.number)).size).toBe(10);
    // Pages of 3 walk the same order as one page of all, each item once.
    const walked: number[] = [];
    let page: string | undefined;
    do {
      const next = await t.rest<{ items: ChangeRequestBody[]; next?: { page: string } }>(
        "GET",
        `/spaces/${space.id}/change-requests`,
        { token: editor, query: page ? { limit: 3, page } : { limit: 3 } },
      );
      walked.push(...next.body.items.map((cr) => cr.number));
      page = next.body.next?.page;
    } while (page);
    expect(walked).toEqual([...open.body.items, ...rest.body.items].map((cr) => cr.number));
    // A well-formed cursor whose first value is no timestamp is refused, not a server error.
    const forged = Buffer.from(
      JSON.stringify({ order: "updatedAt desc,id desc", values: ["not a time", "cr_x"] }),
    ).toString("base64url");
    const refused = await t.rest<{ error: { message: string } }>("GET", `/spaces/${space.id}/change-requests`, {
      token: editor,
      query: { page: forged },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe("Invalid page cursor");
    // A cursor of the updatedAt order is no position in the createdAt order: refused, not misread.
    const otherOrder = await t.rest<{ error: { message: string } }>("GET", `/spaces/${space.id}/change-requests`, {
      token: editor,
      query: { orderBy: "createdAt", page: open.body.next?.page },
    });
    expect(otherOrder.status).toBe(400);
    expect(otherOrder.body.error.message).toBe(
      "Invalid page cursor: it belongs to another order; ask for the first page again",
    );
    const drafts = await t.rest<{ items: ChangeRequestBody[] }>("GET", `/spaces/${space.id}/change-requests`, {
      token: editor,
      query: { status: "draft" },
    });
    expect(drafts.body.items.map((cr) => cr.number)).toEqual([3]);
    const mine = await t.rest<{ count: number }>("GET", `/orgs/${org.organizationId}/change-requests`, {
      token: editor,
      query: { creator: org.members.edit.id, status: "archived" },
    });
    expect(mine.status).toBe(200);
    expectMatchesSpec("listChangeRequestsForOrganization", 200, mine.body);
    expect(mine.body.count).toBe(1);

    const tooLong = await t.rest("PATCH", `/spaces/${space.id}/change-requests/5`, {
      token: editor,
      body: { subject: "x".repeat(101) },
    });
    expect(tooLong.status).toBe(400);
    const badStatus = await t.rest("PATCH", `/spaces/${space.id}/change-requests/5`, {
      token: editor,
      body: { status: "merged" },
    });
    expect(badStatus.status).toBe(400);
    expect((await t.rest("GET", `/spaces/${space.id}/change-requests/999`, { token: editor })).status).toBe(404);
    expect(
      (await t.rest("GET", `/spaces/${space.id}/change-requests`, { token: editor, query: { status: "nope" } })).status,
    ).toBe(400);
  });

  it("gives each role what access.md says, and refuses writes to locked spaces and merged change requests", async () => {
    const space = await newSpace("Roles");
    expect(
      (await t.rest("POST", `/spaces/${space.id}/change-requests`, { token: org.members.comment.token, body: {} }))
        .status,
    ).toBe(403);
    expect((await t.rest("GET", `/spaces/${space.id}/change-requests`, { token: org.members.read.token })).status).toBe(
      200,
    );
    const cr = await openChangeRequest(space.id, "Roles");
    expect((await t.rest("POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: editor })).status).toBe(
      403,
    );
    const outsider = await seedOrganization(t.db, "Outsider");
    expect(
      (await t.rest("GET", `/spaces/${space.id}/change-requests/${cr.id}`, { token: outsider.members.admin.token }))
        .status,
    ).toBe(404);
    await t.rest("PATCH", `/spaces/${space.id}`, { token: org.members.admin.token, body: { editMode: "locked" } });
    expect((await editChangeRequest(space.id, cr.id, [{ type: "insert", page: { title: "Locked out" } }])).status).toBe(
      403,
    );
    expect(
      (
        await t.rest("POST", `/spaces/${space.id}/content`, {
          token: editor,
          body: { changes: [{ type: "insert", page: { title: "x" } }] },
        })
      ).status,
    ).toBe(403);
    await t.rest("PATCH", `/spaces/${space.id}`, { token: org.members.admin.token, body: { editMode: "live" } });
    expect(
      (await t.rest("POST", `/spaces/${space.id}/change-requests/${cr.id}/merge`, { token: reviewer })).status,
    ).toBe(200);
    const late = await editChangeRequest(space.id, cr.id, [{ type: "insert", page: { title: "Too late" } }]);
    expect(late.status).toBe(409);
    expect(
      (
        await t.rest("PATCH", `/spaces/${space.id}/change-requests/${cr.id}`, {
          token: editor,
          body: { status: "open" },
        })
      ).status,
    ).toBe(409);
  });

  it("validates content changes and writes nothing from a rejected batch", async () => {
    const space = await newSpace("Validation");
    const before = await t.rest<{ revision: string }>("GET", `/spaces/${space.id}`, { token: editor });
    const cases: unknown[] = [
      { changes: [] },
      { changes: Array.from({ length: 51 }, () => ({ type: "insert", page: { title: "x" } })) },
      {
        changes: [
          { type: "insert", page: { title: "ok" } },
          { type: "update", pageId: "page_missing", page: { title: "y" } },
        ],
      },
      { changes: [{ type: "insert", page: { title: "" } }] },
      { changes: [{ type: "insert", page: { title: "a", slug: "Not A Slug" } }] },
      { changes: [{ type: "insert", page: { title: "a", parent: "page_nope" } }] },
      { changes: [{ type: "explode" }] },
      { changes: [{ type: "insert", file: { name: "a.txt", contentType: "text/plain", content: "not base64!" } }] },
      { changes: [{ type: "insert", page: { title: "a", unknownField: 1 } }] },
      { changes: [{ type: "insert", page: { title: "deep", markdown: `${"> ".repeat(300)}quote` } }] },
    ];
    for (const body of cases) {
      const response = await t.rest<{ error: { code: number; message: string } }>(
        "POST",
        `/spaces/${space.id}/content`,
        {
          token: editor,
          body,
        },
      );
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error.code).toBe(400);
    }
    const after = await t.rest<{ revision: string }>("GET", `/spaces/${space.id}`, { token: editor });
    expect(after.body.revision).toBe(before.body.revision);
    expect(await t.db.prisma.revision.count({ where: { spaceId: space.id } })).toBe(1);
  });

  it("follows its space to another organization on transfer", async () => {
    const space = await newSpace("Travelling");
    const cr = await openChangeRequest(space.id, "Luggage");
    const target = await seedOrganization(t.db, "Target Org");
    const admin = org.members.admin;
    await addMember(t.db.prisma, target.organizationId, admin.id, "admin", new Date());
    const moved = await t.rest("POST", `/spaces/${space.id}/transfer`, {
      token: admin.token,
      body: { organization: target.organizationId },
    });
    expect(moved.status).toBe(200);
    const there = await t.rest<{ items: ChangeRequestBody[] }>(
      "GET",
      `/orgs/${target.organizationId}/change-requests`,
      {
        token: admin.token,
      },
    );
    expect(there.body.items.map((item) => item.id)).toEqual([cr.id]);
    const here = await t.rest<{ items: ChangeRequestBody[] }>("GET", `/orgs/${org.organizationId}/change-requests`, {
      token: admin.token,
    });
    expect(here.body.items.map((item) => item.id)).not.toContain(cr.id);
  });
});
