import { type GitBookAPI, GitBookAPIError } from "@gitbook/api";
import { beforeAll, describe, expect, it } from "vitest";
import type { SeededOrganization, TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { startOfficialClient } from "../helpers/official-client.ts";

// The official client, unchanged, driving all 22 comment operations on a listening server.
let t: TestApp;
let org: SeededOrganization;
let api: GitBookAPI;

beforeAll(async () => {
  ({ t, org, api } = await startOfficialClient("Comments Client Org"));
});

async function insertPage(path: string) {
  const response = await t.rest<{ inserted: { id: string }[] }>("POST", path, {
    token: org.members.admin.token,
    body: { changes: [{ type: "insert", page: { title: "Page", markdown: "text" } }] },
  });
  expect(response.status).toBe(200);
  return response.body.inserted[0]?.id as string;
}

async function refusal(call: Promise<unknown>): Promise<number> {
  try {
    await call;
  } catch (error) {
    if (error instanceof GitBookAPIError) return error.code;
    throw error;
  }
  throw new Error("the call succeeded");
}

describe("@gitbook/api GitBookAPI: comments", () => {
  it("drives space comments, replies, reactions, resolution and commenters", async () => {
    const space = await api.orgs.createSpace(org.organizationId, { title: "Client comments" });
    const spaceId = space.data.id;
    const page = await insertPage(`/spaces/${spaceId}/content`);

    const posted = await api.spaces.postCommentInSpace(spaceId, { page, body: { markdown: "Hello" } });
    expectMatchesSpec("postCommentInSpace", posted.status, posted.data);
    const commentId = posted.data.id;

    const listed = await api.spaces.listCommentsInSpace(spaceId, {
      format: "markdown",
      status: "open",
      order: "asc",
      targetPage: page,
      authors: [org.members.admin.id],
    } as never);
    expectMatchesSpec("listCommentsInSpace", listed.status, listed.data);
    expect(listed.data.items.map((item) => item.id)).toEqual([commentId]);
    expect(listed.data.items[0]?.body).toEqual({ markdown: "Hello" });

    const got = await api.spaces.getCommentInSpace(spaceId, commentId, { format: "document" } as never);
    expectMatchesSpec("getCommentInSpace", got.status, got.data);

    const updated = await api.spaces.updateCommentInSpace(spaceId, commentId, {
      resolved: true,
      addedReactions: ["🚀"],
      body: { markdown: "Hello, edited" },
    });
    expectMatchesSpec("updateCommentInSpace", updated.status, updated.data);
    expect(updated.data).toMatchObject({ status: "resolved", reactions: [{ emoji: "🚀", count: 1 }] });
    expect(updated.data.editedAt).toBeTruthy();

    const reply = await api.spaces.postCommentReplyInSpace(spaceId, commentId, { body: { markdown: "Reply" } });
    expectMatchesSpec("postCommentReplyInSpace", reply.status, reply.data);
    const replies = await api.spaces.listCommentRepliesInSpace(spaceId, commentId, { limit: 10 } as never);
    expectMatchesSpec("listCommentRepliesInSpace", replies.status, replies.data);
    expect(replies.data.items.map((item) => item.id)).toEqual([reply.data.id]);
    const gotReply = await api.spaces.getCommentReplyInSpace(spaceId, commentId, reply.data.id, {
      format: "markdown",
    } as never);
    expectMatchesSpec("getCommentReplyInSpace", gotReply.status, gotReply.data);
    const updatedReply = await api.spaces.updateCommentReplyInSpace(spaceId, commentId, reply.data.id, {
      body: { markdown: "Reply, edited" },
      addedReactions: ["👍"],
    });
    expectMatchesSpec("updateCommentReplyInSpace", updatedReply.status, updatedReply.data);

    const commenters = await api.spaces.listCommentersInSpace(spaceId, {} as never);
    expectMatchesSpec("listCommentersInSpace", commenters.status, commenters.data);
    expect(commenters.data.items.map((member) => member.user.id)).toEqual([org.members.admin.id]);

    const deletedReply = await api.spaces.deleteCommentReplyInSpace(spaceId, commentId, reply.data.id);
    expect(deletedReply.status).toBe(204);
    const deleted = await api.spaces.deleteCommentInSpace(spaceId, commentId);
    expect(deleted.status).toBe(204);
    expect(await refusal(api.spaces.getCommentInSpace(spaceId, commentId, {} as never))).toBe(404);
    expect(await refusal(api.spaces.postCommentInSpace(spaceId, { page: "page_nope", body: { markdown: "x" } }))).toBe(
      400,
    );
  });

  it("drives change request comments, replies that resolve threads, and commenters", async () => {
    const space = await api.orgs.createSpace(org.organizationId, { title: "Client CR comments" });
    const spaceId = space.data.id;
    const created = await api.spaces.createChangeRequest(spaceId, { subject: "Talk" });
    const crId = created.data.id;
    const page = await insertPage(`/spaces/${spaceId}/change-requests/${crId}/content`);

    const posted = await api.spaces.postCommentInChangeRequest(spaceId, crId, { page, body: { markdown: "Hm?" } });
    expectMatchesSpec("postCommentInChangeRequest", posted.status, posted.data);
    const commentId = posted.data.id;
    const listed = await api.spaces.listCommentsInChangeRequest(spaceId, crId, { status: "all" } as never);
    expectMatchesSpec("listCommentsInChangeRequest", listed.status, listed.data);
    expect(listed.data.count).toBe(1);
    const got = await api.spaces.getCommentInChangeRequest(spaceId, crId, commentId, {} as never);
    expectMatchesSpec("getCommentInChangeRequest", got.status, got.data);
    expect(got.data.target).toMatchObject({ changeRequest: crId, page: { id: page } });

    const reply = await api.spaces.postCommentReplyInChangeRequest(
      spaceId,
      crId,
      commentId,
      { body: { markdown: "Fixed" } },
      { format: "markdown" } as never,
    );
    expectMatchesSpec("postCommentReplyInChangeRequest", reply.status, reply.data);
    const resolving = await api.spaces.updateCommentReplyInChangeRequest(spaceId, crId, commentId, reply.data.id, {
      resolved: true,
    } as never);
    expectMatchesSpec("updateCommentReplyInChangeRequest", resolving.status, resolving.data);
    const replies = await api.spaces.listCommentRepliesInChangeRequest(spaceId, crId, commentId, {} as never);
    expectMatchesSpec("listCommentRepliesInChangeRequest", replies.status, replies.data);
    const gotReply = await api.spaces.getCommentReplyInChangeRequest(
      spaceId,
      crId,
      commentId,
      reply.data.id,
      {} as never,
    );
    expectMatchesSpec("getCommentReplyInChangeRequest", gotReply.status, gotReply.data);

    const reopened = await api.spaces.updateCommentInChangeRequest(spaceId, crId, commentId, { resolved: false });
    expectMatchesSpec("updateCommentInChangeRequest", reopened.status, reopened.data);
    expect(reopened.data.status).toBe("open");
    const changeRequest = await api.spaces.getChangeRequestById(spaceId, crId);
    expect(changeRequest.data.comments).toBe(1);

    const commenters = await api.spaces.listCommentersInChangeRequest(spaceId, crId, {} as never);
    expectMatchesSpec("listCommentersInChangeRequest", commenters.status, commenters.data);
    expect(commenters.data.count).toBe(1);

    expect((await api.spaces.deleteCommentReplyInChangeRequest(spaceId, crId, commentId, reply.data.id)).status).toBe(
      204,
    );
    expect((await api.spaces.deleteCommentInChangeRequest(spaceId, crId, commentId)).status).toBe(204);
    expect((await api.spaces.getChangeRequestById(spaceId, crId)).data.comments).toBe(0);
  });
});
