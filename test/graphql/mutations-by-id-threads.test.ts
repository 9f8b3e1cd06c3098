import { beforeAll, describe, expect, it } from "vitest";
import { createSpace } from "../factories.ts";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { refusalOf } from "../helpers/graphql-answer.ts";

/*
 * Issue 37 item 2, for change requests, comment threads and memberships: the mutation by the object's own id
 * changes the row (read back over REST); a parent id that is not the object's answers NOT_FOUND, as always.
 */

const UpdateDetails = graphql(`
  mutation ByIdUpdateChangeRequest($spaceId: ID, $changeRequestId: ID!, $subject: String!) {
    updateChangeRequestDetails(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, subject: $subject }) {
      changeRequest { id subject }
    }
  }
`);
const RequestReviewers = graphql(`
  mutation ByIdRequestReviewers($changeRequestId: ID!, $users: [ID!]!) {
    requestReviewersForChangeRequest(input: { changeRequestId: $changeRequestId, users: $users }) {
      changeRequest { id }
    }
  }
`);
const ResolveComment = graphql(`
  mutation ByIdResolveComment($spaceId: ID, $commentId: ID!) {
    updateComment(input: { spaceId: $spaceId, commentId: $commentId, resolved: true }) { comment { id } }
  }
`);
const PostReply = graphql(`
  mutation ByIdPostReply($commentId: ID!) {
    postCommentReply(input: { commentId: $commentId, body: { markdown: "A reply" } }) { reply { id } }
  }
`);
const EditReply = graphql(`
  mutation ByIdEditReply($commentId: ID, $commentReplyId: ID!) {
    updateCommentReply(input: { commentId: $commentId, commentReplyId: $commentReplyId, body: { markdown: "Edited" } }) { reply { id } }
  }
`);
const DeleteReply = graphql(`
  mutation ByIdDeleteReply($commentReplyId: ID!) {
    deleteCommentReply(input: { commentReplyId: $commentReplyId }) { deletedId }
  }
`);
const DeleteComment = graphql(`
  mutation ByIdDeleteComment($commentId: ID!) { deleteComment(input: { commentId: $commentId }) { deletedId } }
`);
const UpdateMember = graphql(`
  mutation ByIdUpdateMember($memberId: ID, $organizationId: ID, $userId: ID) {
    updateOrganizationMember(input: { memberId: $memberId, organizationId: $organizationId, userId: $userId, role: REVIEW }) { member { id role } }
  }
`);
const RemoveMember = graphql(`
  mutation ByIdRemoveMember($memberId: ID!) {
    removeOrganizationMember(input: { memberId: $memberId }) { removedId removedUserId organizationId }
  }
`);
const MemberIds = graphql(`
  query ByIdMemberIds($id: ID!, $userId: ID!) { organization(id: $id) { member(userId: $userId) { id } } }
`);

let t: TestApp;
let org: SeededOrganization;
let outsider: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Threads by id");
  outsider = await seedOrganization(t.db, "Threads by id outsider");
});

describe("change request mutations by the change request's id", () => {
  it("change it without the space; a wrong space, a bare number or an outsider gets NOT_FOUND", async () => {
    const editor = t.graphql(org.members.admin.token);
    const space = await createSpace(t, org, { title: "Reviewed" });
    const other = await createSpace(t, org, { title: "Other" });
    const created = await t.rest<{ id: string; number: number }>("POST", `/spaces/${space.id}/change-requests`, {
      token: org.members.admin.token,
      body: { subject: "Draft" },
    });
    const changed = await editor.request(UpdateDetails, { changeRequestId: created.body.id, subject: "By id" });
    expect(changed.updateChangeRequestDetails?.changeRequest).toEqual({ id: created.body.id, subject: "By id" });
    const path = `/spaces/${space.id}/change-requests/${created.body.id}`;
    const read = await t.rest<{ subject: string }>("GET", path, { token: org.members.admin.token });
    expect(read.body.subject).toBe("By id");
    await editor.request(RequestReviewers, { changeRequestId: created.body.id, users: [org.members.review.id] });
    const reviewers = await t.rest<{ items: { user: { id: string } }[] }>("GET", `${path}/requested-reviewers`, {
      token: org.members.admin.token,
    });
    expect(reviewers.body.items.map((item) => item.user.id)).toEqual([org.members.review.id]);

    const wrongSpace = { spaceId: other.id, changeRequestId: created.body.id, subject: "Elsewhere" };
    expect((await refusalOf(editor.request(UpdateDetails, wrongSpace)))?.code).toBe("NOT_FOUND");
    const byNumber = { changeRequestId: String(created.body.number), subject: "Which space?" };
    expect((await refusalOf(editor.request(UpdateDetails, byNumber)))?.code).toBe("NOT_FOUND");
    const foreign = t.graphql(outsider.members.admin.token).request(UpdateDetails, {
      changeRequestId: created.body.id,
      subject: "Taken",
    });
    expect((await refusalOf(foreign))?.message).toBe(`Change request ${created.body.id} not found`);
  });
});

describe("comment and reply mutations by their own ids", () => {
  it("resolve, reply, edit and delete without the space or comment; a wrong parent gets NOT_FOUND", async () => {
    const commenter = t.graphql(org.members.admin.token);
    const space = await createSpace(t, org, { title: "Discussed" });
    const other = await createSpace(t, org, { title: "Quiet" });
    const comment = await t.rest<{ id: string }>("POST", `/spaces/${space.id}/comments`, {
      token: org.members.admin.token,
      body: { body: { markdown: "A question" } },
    });
    const commentPath = `/spaces/${space.id}/comments/${comment.body.id}`;
    await commenter.request(ResolveComment, { commentId: comment.body.id });
    const reply = await commenter.request(PostReply, { commentId: comment.body.id });
    const replyId = reply.postCommentReply?.reply?.id ?? "";
    await commenter.request(EditReply, { commentReplyId: replyId });
    const readComment = await t.rest<{ status: string; replies: number }>("GET", commentPath, {
      token: org.members.admin.token,
    });
    expect(readComment.body).toMatchObject({ status: "resolved", replies: 1 });
    const readReply = await t.rest<{ editedAt: string | null }>("GET", `${commentPath}/replies/${replyId}`, {
      token: org.members.admin.token,
    });
    expect(readReply.body.editedAt).not.toBeNull();
    expect(JSON.stringify(readReply.body)).toContain("Edited");

    const wrongSpace = commenter.request(ResolveComment, { spaceId: other.id, commentId: comment.body.id });
    expect((await refusalOf(wrongSpace))?.code).toBe("NOT_FOUND");
    const otherThread = await t.rest<{ id: string }>("POST", `/spaces/${space.id}/comments`, {
      token: org.members.admin.token,
      body: { body: { markdown: "Another thread" } },
    });
    const wrongComment = commenter.request(EditReply, { commentId: otherThread.body.id, commentReplyId: replyId });
    expect((await refusalOf(wrongComment))?.code).toBe("NOT_FOUND");
    const foreign = t.graphql(outsider.members.admin.token).request(DeleteReply, { commentReplyId: replyId });
    expect((await refusalOf(foreign))?.message).toBe(`Reply ${replyId} not found`);

    await commenter.request(DeleteReply, { commentReplyId: replyId });
    const replies = await t.rest("GET", `${commentPath}/replies/${replyId}`, { token: org.members.admin.token });
    expect(replies.status).toBe(404);
    await commenter.request(DeleteComment, { commentId: comment.body.id });
    expect((await t.rest("GET", commentPath, { token: org.members.admin.token })).status).toBe(404);
  });
});

describe("membership mutations by the membership's id", () => {
  it("take memberId or both ids; neither is BAD_USER_INPUT, a memberId that disagrees is NOT_FOUND", async () => {
    const admin = t.graphql(org.members.admin.token);
    // The comment-role member is used nowhere else in this file: it may change role and leave.
    const person = org.members.comment;
    const ids = await admin.request(MemberIds, { id: org.organizationId, userId: person.id });
    const memberId = ids.organization?.member?.id ?? "";
    expect(memberId).toBe(`mbr_${org.organizationId}:${person.id}`);

    const updated = await admin.request(UpdateMember, { memberId });
    expect(updated.updateOrganizationMember?.member).toEqual({ id: memberId, role: "REVIEW" });
    const memberPath = `/orgs/${org.organizationId}/members/${person.id}`;
    const read = await t.rest<{ role: string }>("GET", memberPath, { token: org.members.admin.token });
    expect(read.body.role).toBe("review");
    const byBoth = await admin.request(UpdateMember, { organizationId: org.organizationId, userId: person.id });
    expect(byBoth.updateOrganizationMember?.member?.id).toBe(memberId);

    expect((await refusalOf(admin.request(UpdateMember, {})))?.code).toBe("BAD_USER_INPUT");
    const halfNamed = admin.request(UpdateMember, { userId: person.id });
    expect((await refusalOf(halfNamed))?.code).toBe("BAD_USER_INPUT");
    const disagreeing = admin.request(UpdateMember, { memberId, organizationId: outsider.organizationId });
    expect((await refusalOf(disagreeing))?.code).toBe("NOT_FOUND");
    const notAMembership = admin.request(UpdateMember, { memberId: person.id });
    expect((await refusalOf(notAMembership))?.code).toBe("NOT_FOUND");
    const foreign = t.graphql(outsider.members.admin.token).request(UpdateMember, { memberId });
    expect((await refusalOf(foreign))?.code).toBe("NOT_FOUND");

    const removed = await admin.request(RemoveMember, { memberId });
    expect(removed.removeOrganizationMember).toEqual({
      removedId: memberId,
      removedUserId: person.id,
      organizationId: org.organizationId,
    });
    expect((await t.rest("GET", memberPath, { token: org.members.admin.token })).status).toBe(404);
  });
});
