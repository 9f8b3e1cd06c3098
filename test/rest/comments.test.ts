import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../../src/db/generated/client.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;

type UserBody = { id: string };
type Permissions = { view: boolean; edit: boolean; reply: boolean; delete: boolean };
type Reaction = { emoji: string; count: number; users: { user: UserBody; reactedAt: string }[] };
type CommentBody = {
  postedAt: string;
  id: string;
  status: "open" | "resolved";
  resolvedAt?: string;
  resolvedBy?: UserBody;
  editedAt?: string;
  postedBy: UserBody;
  body: { markdown?: string; document?: { object: string; nodes: unknown[] } };
  replies: number;
  repliers: { count: number; user: UserBody; updatedAt: string }[];
  reactions: Reaction[];
  target: { space: string; revision: string; changeRequest?: string; page?: { id: string }; node?: { id: string } };
  permissions: Permissions;
  urls: { location: string };
};
type ReplyBody = Omit<CommentBody, "status" | "replies" | "repliers" | "target">;
type List<Item> = { items: Item[]; count: number; next?: { page: string } };

const token = (role: Role | "guest") => org.members[role].token;

async function newSpaceWithPages(title: string) {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: token("admin"),
    body: { title },
  });
  expect(space.status).toBe(201);
  const edit = await t.rest<{ revision: string; inserted: { id: string }[] }>(
    "POST",
    `/spaces/${space.body.id}/content`,
    {
      token: token("admin"),
      body: {
        changes: [
          { type: "insert", page: { title: "Intro", markdown: "Hello" } },
          { type: "insert", page: { title: "Setup", markdown: "Install" } },
        ],
      },
    },
  );
  expect(edit.status).toBe(200);
  const [intro, setup] = edit.body.inserted.map((item) => item.id) as [string, string];
  return { spaceId: space.body.id, revision: edit.body.revision, intro, setup };
}

async function counters(spaceId: string, changeRequestId?: string) {
  const space = await t.rest<{ comments: number }>("GET", `/spaces/${spaceId}`, { token: token("admin") });
  if (!changeRequestId) return space.body.comments;
  const cr = await t.rest<{ comments: number }>("GET", `/spaces/${spaceId}/change-requests/${changeRequestId}`, {
    token: token("admin"),
  });
  return [space.body.comments, cr.body.comments];
}

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Comments Org");
});

describe("comments on a space", () => {
  it("posts on a page of the current revision, serves markdown or documents, and keeps the open counter", async () => {
    const { spaceId, revision, intro } = await newSpaceWithPages("Discussed");
    const base = `/spaces/${spaceId}/comments`;
    const introPage = await t.rest<{ document: { nodes: { key: string }[] } }>(
      "GET",
      `/spaces/${spaceId}/content/page/${intro}`,
      { token: token("read") },
    );
    const nodeKey = introPage.body.document.nodes[0]?.key as string;

    const posted = await t.rest<CommentBody>("POST", base, {
      token: token("comment"),
      body: { page: intro, node: nodeKey, body: { markdown: "Is **this** right?" } },
    });
    expect(posted.status).toBe(200);
    expectMatchesSpec("postCommentInSpace", 200, posted.body);
    expect(posted.body).toMatchObject({
      status: "open",
      replies: 0,
      repliers: [],
      reactions: [],
      postedBy: { id: org.members.comment.id },
      target: { space: spaceId, revision, page: { id: intro }, node: { id: nodeKey } },
      permissions: { view: true, edit: true, reply: true, delete: true },
    });
    expect(posted.body.body.document?.object).toBe("document");
    expect(await counters(spaceId)).toBe(1);

    const asMarkdown = await t.rest<CommentBody>("GET", `${base}/${posted.body.id}`, {
      token: token("read"),
      query: { format: "markdown" },
    });
    expect(asMarkdown.status).toBe(200);
    expectMatchesSpec("getCommentInSpace", 200, asMarkdown.body);
    expect(asMarkdown.body.body).toEqual({ markdown: "Is **this** right?" });
    expect(asMarkdown.body.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });

    // A rich-text document body goes through the same converter as pages.
    const fromDocument = await t.rest<CommentBody>("POST", base, {
      token: token("edit"),
      body: { page: intro, body: { document: posted.body.body.document } },
    });
    expect(fromDocument.status).toBe(200);
    const again = await t.rest<CommentBody>("GET", `${base}/${fromDocument.body.id}`, {
      token: token("edit"),
      query: { format: "markdown" },
    });
    expect(again.body.body.markdown).toBe("Is **this** right?");
    expect(await counters(spaceId)).toBe(2);
  });

  it("lets each role do what its permissions say", async () => {
    const { spaceId, intro } = await newSpaceWithPages("Roles");
    const base = `/spaces/${spaceId}/comments`;
    const theirs = await t.rest<CommentBody>("POST", base, {
      token: token("edit"),
      body: { page: intro, body: { markdown: "someone else's" } },
    });
    const expected: Record<Role | "guest", { post: number; permissions?: Permissions }> = {
      admin: { post: 200, permissions: { view: true, edit: false, reply: true, delete: true } },
      create: { post: 200, permissions: { view: true, edit: false, reply: true, delete: false } },
      review: { post: 200, permissions: { view: true, edit: false, reply: true, delete: false } },
      edit: { post: 200, permissions: { view: true, edit: true, reply: true, delete: true } },
      comment: { post: 200, permissions: { view: true, edit: false, reply: true, delete: false } },
      read: { post: 403, permissions: { view: true, edit: false, reply: false, delete: false } },
      guest: { post: 404 },
    };
    for (const [role, rules] of Object.entries(expected) as [Role | "guest", (typeof expected)["admin"]][]) {
      const seen = await t.rest<CommentBody>("GET", `${base}/${theirs.body.id}`, { token: token(role) });
      expect(seen.status, role).toBe(rules.permissions ? 200 : 404);
      if (rules.permissions) expect(seen.body.permissions, role).toEqual(rules.permissions);
      const posted = await t.rest<CommentBody>("POST", base, {
        token: token(role),
        body: { page: intro, body: { markdown: `by ${role}` } },
      });
      expect(posted.status, role).toBe(rules.post);
      const reply = await t.rest("POST", `${base}/${theirs.body.id}/replies`, {
        token: token(role),
        body: { body: { markdown: `reply by ${role}` } },
      });
      expect(reply.status, role).toBe(rules.post);
      const resolve = await t.rest("PUT", `${base}/${theirs.body.id}`, {
        token: token(role),
        body: { resolved: false },
      });
      expect(resolve.status, role).toBe(rules.post);
      if (rules.post !== 200) continue;
      // Authors see their own message as editable and deletable.
      expect(posted.body.permissions, role).toEqual({ view: true, edit: true, reply: true, delete: true });
      const own = await t.rest("PUT", `${base}/${posted.body.id}`, {
        token: token(role),
        body: { body: { markdown: "edited" } },
      });
      expect(own.status, role).toBe(200);
      const other = await t.rest("PUT", `${base}/${theirs.body.id}`, {
        token: token(role),
        body: { body: { markdown: "edited" } },
      });
      expect(other.status, role).toBe(role === "edit" ? 200 : 403);
    }
    expect(await counters(spaceId)).toBe(6);
  });

  it("refuses bad targets and bodies with 400, readers with 403 and outsiders with 404, writing nothing", async () => {
    const { spaceId, intro } = await newSpaceWithPages("Guarded");
    const base = `/spaces/${spaceId}/comments`;
    const refusals: [Role | "guest", unknown, number][] = [
      ["comment", { page: "page_missing", body: { markdown: "x" } }, 400],
      ["comment", { node: "n", body: { markdown: "x" } }, 400],
      ["comment", { page: intro, node: "not-a-node", body: { markdown: "x" } }, 400],
      ["comment", { page: intro, tableCell: { record: "r", definition: "d" }, body: { markdown: "x" } }, 400],
      ["comment", { page: intro, body: { markdown: "   " } }, 400],
      ["comment", { page: intro, body: { html: "<p>x</p>" } }, 400],
      ["comment", { page: intro }, 400],
      ["comment", { page: intro, body: { markdown: "x" }, color: "red" }, 400],
      ["read", { page: intro, body: { markdown: "x" } }, 403],
      ["guest", { page: intro, body: { markdown: "x" } }, 404],
    ];
    for (const [role, body, status] of refusals) {
      const response = await t.rest<{ error: { code: number; message: string } }>("POST", base, {
        token: token(role),
        body,
      });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(response.body.error.code).toBe(status);
    }
    const list = await t.rest<List<CommentBody>>("GET", base, { token: token("admin") });
    expect(list.body.count).toBe(0);
    expect(await counters(spaceId)).toBe(0);
  });

  it("threads replies, reactions, edits, resolution and deletion with per-role permissions", async () => {
    const { spaceId, intro } = await newSpaceWithPages("Threads");
    const base = `/spaces/${spaceId}/comments`;
    const comment = await t.rest<CommentBody>("POST", base, {
      token: token("edit"),
      body: { page: intro, body: { markdown: "First" } },
    });
    const commentPath = `${base}/${comment.body.id}`;

    const replies: ReplyBody[] = [];
    for (const role of ["comment", "review", "comment"] as const) {
      t.clock.advance(1000);
      const reply = await t.rest<ReplyBody>("POST", `${commentPath}/replies`, {
        token: token(role),
        body: { body: { markdown: `reply by ${role}` } },
      });
      expect(reply.status).toBe(200);
      expectMatchesSpec("postCommentReplyInSpace", 200, reply.body);
      replies.push(reply.body);
    }
    const readerReply = await t.rest("POST", `${commentPath}/replies`, {
      token: token("read"),
      body: { body: { markdown: "no" } },
    });
    expect(readerReply.status).toBe(403);

    const thread = await t.rest<CommentBody>("GET", commentPath, { token: token("edit") });
    expect(thread.body.replies).toBe(3);
    expect(thread.body.repliers.map((replier) => [replier.user.id, replier.count])).toEqual([
      [org.members.comment.id, 2],
      [org.members.review.id, 1],
    ]);
    expect(thread.body.repliers[0]?.updatedAt).toBe(replies[2]?.postedAt);

    const page1 = await t.rest<List<ReplyBody>>("GET", `${commentPath}/replies`, {
      token: token("read"),
      query: { limit: 2, format: "markdown" },
    });
    expect(page1.status).toBe(200);
    expectMatchesSpec("listCommentRepliesInSpace", 200, page1.body);
    expect(page1.body.items.map((reply) => reply.body.markdown)).toEqual(["reply by comment", "reply by review"]);
    expect(page1.body.count).toBe(3);
    const page2 = await t.rest<List<ReplyBody>>("GET", `${commentPath}/replies`, {
      token: token("read"),
      query: { limit: 2, page: page1.body.next?.page },
    });
    expect(page2.body.items.map((reply) => reply.id)).toEqual([replies[2]?.id]);
    expect(page2.body.next).toBeUndefined();

    // Reactions: one per user and emoji, added twice stays one; counts and users follow.
    const firstReply = replies[0] as ReplyBody;
    const replyPath = `${commentPath}/replies/${firstReply.id}`;
    for (const role of ["comment", "comment", "admin"] as const) {
      const reacted = await t.rest<ReplyBody>("PUT", replyPath, {
        token: token(role),
        body: { addedReactions: ["👍", "👍"] },
      });
      expect(reacted.status).toBe(200);
      expectMatchesSpec("updateCommentReplyInSpace", 200, reacted.body);
    }
    t.clock.advance(1000);
    const reacted = await t.rest<ReplyBody>("PUT", replyPath, {
      token: token("admin"),
      body: { addedReactions: ["🎉"], removedReactions: ["👍"] },
    });
    expect(reacted.body.reactions.map((reaction) => [reaction.emoji, reaction.count])).toEqual([
      ["👍", 1],
      ["🎉", 1],
    ]);
    expect(reacted.body.reactions[0]?.users.map((entry) => entry.user.id)).toEqual([org.members.comment.id]);
    expect((await t.rest("PUT", replyPath, { token: token("read"), body: { addedReactions: ["👀"] } })).status).toBe(
      403,
    );
    // Space replies do not resolve threads.
    expect((await t.rest("PUT", replyPath, { token: token("comment"), body: { resolved: true } })).status).toBe(400);

    // Authors edit their own reply; others may not.
    expect(
      (await t.rest("PUT", replyPath, { token: token("admin"), body: { body: { markdown: "hijacked" } } })).status,
    ).toBe(403);
    t.clock.advance(1000);
    const edited = await t.rest<ReplyBody>("PUT", replyPath, {
      token: token("comment"),
      body: { body: { markdown: "edited reply" } },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.editedAt).toBe(t.clock.now().toISOString());
    const got = await t.rest<ReplyBody>("GET", replyPath, { token: token("comment"), query: { format: "markdown" } });
    expect(got.status).toBe(200);
    expectMatchesSpec("getCommentReplyInSpace", 200, got.body);
    expect(got.body.body.markdown).toBe("edited reply");
    expect(got.body.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
    const seenByAdmin = await t.rest<ReplyBody>("GET", replyPath, { token: token("admin") });
    expect(seenByAdmin.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: true });
    const seenByReviewer = await t.rest<ReplyBody>("GET", replyPath, { token: token("review") });
    expect(seenByReviewer.body.permissions).toEqual({ view: true, edit: false, reply: true, delete: false });

    // Deleting a reply: not by another commenter; by its author or an admin.
    expect((await t.rest("DELETE", replyPath, { token: token("review") })).status).toBe(403);
    const deletedReply = await t.rest("DELETE", `${commentPath}/replies/${replies[1]?.id}`, { token: token("admin") });
    expect(deletedReply.status).toBe(204);
    expectMatchesSpec("deleteCommentReplyInSpace", 204, deletedReply.body);
    expect((await t.rest("DELETE", `${commentPath}/replies/${replies[1]?.id}`, { token: token("admin") })).status).toBe(
      204,
    );
    expect((await t.rest<CommentBody>("GET", commentPath, { token: token("edit") })).body.replies).toBe(2);

    // The comment: edit by its author sets editedAt; resolve and reopen move the counter once each.
    expect(
      (await t.rest("PUT", commentPath, { token: token("comment"), body: { body: { markdown: "mine now" } } })).status,
    ).toBe(403);
    const resolved = await t.rest<CommentBody>("PUT", commentPath, {
      token: token("comment"),
      body: { resolved: true },
    });
    expect(resolved.status).toBe(200);
    expectMatchesSpec("updateCommentInSpace", 200, resolved.body);
    expect(resolved.body).toMatchObject({ status: "resolved", resolvedBy: { id: org.members.comment.id } });
    expect(resolved.body.resolvedAt).toBe(t.clock.now().toISOString());
    expect(await counters(spaceId)).toBe(0);
    await t.rest("PUT", commentPath, { token: token("edit"), body: { resolved: true } });
    expect(await counters(spaceId)).toBe(0);
    const reopened = await t.rest<CommentBody>("PUT", commentPath, {
      token: token("edit"),
      body: { resolved: false, body: { markdown: "First, edited" } },
    });
    expect(reopened.body.status).toBe("open");
    expect(reopened.body.resolvedAt).toBeUndefined();
    expect(reopened.body.editedAt).toBe(t.clock.now().toISOString());
    expect(await counters(spaceId)).toBe(1);

    // Deleting the thread: its author or an admin; the counter follows; a missing comment answers 204.
    expect((await t.rest("DELETE", commentPath, { token: token("comment") })).status).toBe(403);
    const deleted = await t.rest("DELETE", commentPath, { token: token("edit") });
    expect(deleted.status).toBe(204);
    expectMatchesSpec("deleteCommentInSpace", 204, deleted.body);
    expect(await counters(spaceId)).toBe(0);
    expect((await t.rest("GET", commentPath, { token: token("edit") })).status).toBe(404);
    expect((await t.rest("DELETE", commentPath, { token: token("edit") })).status).toBe(204);
    expect(await t.db.prisma.commentReply.count({ where: { commentId: comment.body.id } })).toBe(0);
    expect(await t.db.prisma.commentReaction.count({ where: { commentId: comment.body.id } })).toBe(0);
  });

  it("filters by status, page and authors, orders and paginates, and lists commenters", async () => {
    const { spaceId, intro, setup } = await newSpaceWithPages("Lists");
    const base = `/spaces/${spaceId}/comments`;
    const ids: string[] = [];
    const posts: [Role, string][] = [
      ["comment", intro],
      ["edit", setup],
      ["comment", setup],
      ["admin", intro],
    ];
    for (const [role, page] of posts) {
      t.clock.advance(1000);
      const posted = await t.rest<CommentBody>("POST", base, {
        token: token(role),
        body: { page, body: { markdown: `${role} on ${page}` } },
      });
      ids.push(posted.body.id);
    }
    await t.rest("PUT", `${base}/${ids[1]}`, { token: token("admin"), body: { resolved: true } });
    await t.rest("POST", `${base}/${ids[0]}/replies`, { token: token("review"), body: { body: { markdown: "re" } } });

    const list = async (query: Record<string, string | number | string[]>) => {
      const response = await t.rest<List<CommentBody>>("GET", base, { token: token("read"), query });
      expect(response.status).toBe(200);
      expectMatchesSpec("listCommentsInSpace", 200, response.body);
      return response.body;
    };
    expect((await list({})).items.map((item) => item.id)).toEqual([...ids].reverse());
    expect((await list({ order: "asc" })).items.map((item) => item.id)).toEqual(ids);
    expect((await list({ status: "resolved" })).items.map((item) => item.id)).toEqual([ids[1]]);
    expect((await list({ status: "open", order: "asc" })).items.map((item) => item.id)).toEqual([
      ids[0],
      ids[2],
      ids[3],
    ]);
    expect((await list({ targetPage: setup, order: "asc" })).items.map((item) => item.id)).toEqual([ids[1], ids[2]]);
    const byAuthors = await list({ authors: [org.members.edit.id, org.members.admin.id], order: "asc" });
    expect(byAuthors.items.map((item) => item.id)).toEqual([ids[1], ids[3]]);
    const first = await list({ limit: 3, format: "markdown" });
    expect(first.items).toHaveLength(3);
    expect(first.count).toBe(4);
    expect(first.items[0]?.body.markdown).toBe(`admin on ${intro}`);
    const rest = await list({ limit: 3, page: first.next?.page ?? "" });
    expect(rest.items.map((item) => item.id)).toEqual([ids[0]]);
    expect((await t.rest("GET", base, { token: token("read"), query: { status: "closed" } })).status).toBe(400);
    expect((await t.rest("GET", base, { token: token("read"), query: { order: "up" } })).status).toBe(400);
    expect((await t.rest("GET", base, { token: token("guest") })).status).toBe(404);
    expect(await counters(spaceId)).toBe(3);

    const commenters = await t.rest<List<{ id: string; role: string }>>("GET", `/spaces/${spaceId}/commenters`, {
      token: token("read"),
    });
    expect(commenters.status).toBe(200);
    expectMatchesSpec("listCommentersInSpace", 200, commenters.body);
    expect(commenters.body.items.map((member) => member.id).sort()).toEqual(
      [org.members.comment.id, org.members.edit.id, org.members.admin.id, org.members.review.id].sort(),
    );
    const pageOne = await t.rest<List<{ id: string }>>("GET", `/spaces/${spaceId}/commenters`, {
      token: token("read"),
      query: { limit: 3 },
    });
    expect(pageOne.body.items).toHaveLength(3);
    expect(pageOne.body.next?.page).toBeTruthy();
  });
  it("keeps the open counter equal to the open comments under concurrent posts, resolves, reopens and deletes", async () => {
    const { spaceId, intro } = await newSpaceWithPages("Busy");
    const base = `/spaces/${spaceId}/comments`;
    const post = (role: Role) =>
      t.rest<CommentBody>("POST", base, { token: token(role), body: { page: intro, body: { markdown: role } } });
    const seeded = await Promise.all((["comment", "edit", "review", "admin"] as const).map(post));
    const [a, b, c, d] = seeded.map((response) => response.body.id);
    const resolve = (id: string | undefined, role: Role, resolved: boolean) =>
      t.rest("PUT", `${base}/${id}`, { token: token(role), body: { resolved } });
    const responses = await Promise.all([
      resolve(a, "comment", true),
      resolve(a, "edit", true),
      resolve(a, "review", true),
      resolve(b, "edit", true),
      resolve(b, "admin", false),
      t.rest("DELETE", `${base}/${c}`, { token: token("admin") }),
      resolve(c, "admin", true),
      t.rest("DELETE", `${base}/${d}`, { token: token("admin") }),
      post("comment"),
      post("edit"),
    ]);
    for (const response of responses) expect([200, 204, 404]).toContain(response.status);
    const open = await t.db.prisma.comment.count({ where: { spaceId, changeRequestId: null, resolvedAt: null } });
    expect(await counters(spaceId)).toBe(open);
  });
});

describe("comments on a change request", () => {
  it("target the change request's revision, keep both counters apart, and resolve from replies", async () => {
    const { spaceId, revision, intro } = await newSpaceWithPages("Reviewed");
    const created = await t.rest<{ id: string; number: number }>("POST", `/spaces/${spaceId}/change-requests`, {
      token: token("edit"),
      body: { subject: "More pages" },
    });
    const crId = created.body.id;
    const edit = await t.rest<{ revision: string; inserted: { id: string }[] }>(
      "POST",
      `/spaces/${spaceId}/change-requests/${crId}/content`,
      {
        token: token("edit"),
        body: { changes: [{ type: "insert", page: { title: "New", markdown: "| A |\n| --- |\n| 1 |\n" } }] },
      },
    );
    const newPage = edit.body.inserted[0]?.id as string;
    const newDocument = await t.rest<{
      document: { nodes: { data: { records: Record<string, unknown>; definition: Record<string, unknown> } }[] };
    }>("GET", `/spaces/${spaceId}/change-requests/${crId}/content/page/${newPage}`, { token: token("read") });
    const table = newDocument.body.document.nodes[0]?.data;
    const cell = { record: Object.keys(table?.records ?? {})[0], definition: Object.keys(table?.definition ?? {})[0] };
    // Addressed by number too, like every change request path.
    const base = `/spaces/${spaceId}/change-requests/${created.body.number}/comments`;

    // The new page exists only in the change request's revision.
    expect(
      (
        await t.rest("POST", `/spaces/${spaceId}/comments`, {
          token: token("comment"),
          body: { page: newPage, body: { markdown: "x" } },
        })
      ).status,
    ).toBe(400);
    const posted = await t.rest<CommentBody>("POST", base, {
      token: token("comment"),
      body: { page: newPage, tableCell: cell, body: { markdown: "Why a new page?" } },
    });
    expect(posted.status).toBe(200);
    expectMatchesSpec("postCommentInChangeRequest", 200, posted.body);
    expect(posted.body.target).toEqual({
      space: spaceId,
      revision: edit.body.revision,
      changeRequest: crId,
      page: { id: newPage },
      tableCell: cell,
    });
    expect(posted.body.target.revision).not.toBe(revision);
    const onIntro = await t.rest<CommentBody>("POST", base, {
      token: token("review"),
      body: { page: intro, body: { markdown: "ok" } },
    });
    expect(await counters(spaceId, crId)).toEqual([0, 2]);
    expect((await t.rest("POST", base, { token: token("read"), body: { body: { markdown: "x" } } })).status).toBe(403);

    // Space and change request comments are separate lists.
    const spaceList = await t.rest<List<CommentBody>>("GET", `/spaces/${spaceId}/comments`, { token: token("read") });
    expect(spaceList.body.count).toBe(0);
    expect(
      (await t.rest("GET", `/spaces/${spaceId}/comments/${posted.body.id}`, { token: token("read") })).status,
    ).toBe(404);

    const commentPath = `${base}/${posted.body.id}`;
    const got = await t.rest<CommentBody>("GET", commentPath, { token: token("read"), query: { format: "document" } });
    expectMatchesSpec("getCommentInChangeRequest", 200, got.body);
    const list = await t.rest<List<CommentBody>>("GET", base, {
      token: token("read"),
      query: { status: "open", targetPage: newPage },
    });
    expectMatchesSpec("listCommentsInChangeRequest", 200, list.body);
    expect(list.body.items.map((item) => item.id)).toEqual([posted.body.id]);

    const reply = await t.rest<ReplyBody>("POST", `${commentPath}/replies`, {
      token: token("edit"),
      query: { format: "markdown" },
      body: { body: { markdown: "Because." } },
    });
    expect(reply.status).toBe(200);
    expectMatchesSpec("postCommentReplyInChangeRequest", 200, reply.body);
    expect(reply.body.body).toEqual({ markdown: "Because." });
    const replyPath = `${commentPath}/replies/${reply.body.id}`;
    const replies = await t.rest<List<ReplyBody>>("GET", `${commentPath}/replies`, { token: token("read") });
    expectMatchesSpec("listCommentRepliesInChangeRequest", 200, replies.body);
    expect(replies.body.items.map((item) => item.id)).toEqual([reply.body.id]);
    const gotReply = await t.rest<ReplyBody>("GET", replyPath, { token: token("read") });
    expectMatchesSpec("getCommentReplyInChangeRequest", 200, gotReply.body);

    // A change-request reply resolves (and reopens) its thread.
    const resolving = await t.rest<ReplyBody>("PUT", replyPath, {
      token: token("edit"),
      body: { resolved: true, addedReactions: ["✅"] },
    });
    expect(resolving.status).toBe(200);
    expectMatchesSpec("updateCommentReplyInChangeRequest", 200, resolving.body);
    const thread = await t.rest<CommentBody>("GET", commentPath, { token: token("read") });
    expect(thread.body).toMatchObject({ status: "resolved", resolvedBy: { id: org.members.edit.id }, replies: 1 });
    expect(await counters(spaceId, crId)).toEqual([0, 1]);

    const reopened = await t.rest<CommentBody>("PUT", commentPath, {
      token: token("comment"),
      body: { resolved: false, addedReactions: ["👀"] },
    });
    expectMatchesSpec("updateCommentInChangeRequest", 200, reopened.body);
    expect(reopened.body.reactions).toEqual([
      {
        emoji: "👀",
        count: 1,
        users: [{ user: expect.objectContaining({ id: org.members.comment.id }), reactedAt: expect.any(String) }],
      },
    ]);
    expect(await counters(spaceId, crId)).toEqual([0, 2]);

    const commenters = await t.rest<List<{ id: string }>>(
      "GET",
      `/spaces/${spaceId}/change-requests/${crId}/commenters`,
      { token: token("read") },
    );
    expectMatchesSpec("listCommentersInChangeRequest", 200, commenters.body);
    expect(commenters.body.items.map((member) => member.id).sort()).toEqual(
      [org.members.comment.id, org.members.review.id, org.members.edit.id].sort(),
    );

    const deletedReply = await t.rest("DELETE", replyPath, { token: token("edit") });
    expectMatchesSpec("deleteCommentReplyInChangeRequest", 204, deletedReply.body);
    expect(deletedReply.status).toBe(204);
    expect((await t.rest("DELETE", `${base}/${onIntro.body.id}`, { token: token("comment") })).status).toBe(403);
    const deleted = await t.rest("DELETE", `${base}/${onIntro.body.id}`, { token: token("admin") });
    expect(deleted.status).toBe(204);
    expectMatchesSpec("deleteCommentInChangeRequest", 204, deleted.body);
    expect(await counters(spaceId, crId)).toEqual([0, 1]);
  });
});
