import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { subscribe } from "../helpers/sse.ts";

const StatusUpdates = `subscription Status($spaceId: ID!, $changeRequestId: ID!) {
  changeRequestUpdated(spaceId: $spaceId, changeRequestId: $changeRequestId) { id: changeRequestId changeRequest { id subject } number status subject revision: revisionId mergedRevisionId mergedRevision { id } }
}`;
const CommentsPosted = `subscription Comments($spaceId: ID!, $changeRequestId: ID!) {
  changeRequestCommentPosted(spaceId: $spaceId, changeRequestId: $changeRequestId) { changeRequest: changeRequestId comment: commentId reply: replyId postedBy: postedById }
}`;

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Watched change requests");
});

async function openChangeRequest() {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title: "Watched" },
  });
  const cr = await t.rest<{ id: string; number: number }>("POST", `/spaces/${space.body.id}/change-requests`, {
    token: org.members.edit.token,
    body: { subject: "Watch me" },
  });
  return { spaceId: space.body.id, changeRequest: cr.body };
}

describe("change request subscriptions over server-sent events", () => {
  it("sends the change request's state, each change, and ends with the merge", async () => {
    const { spaceId, changeRequest } = await openChangeRequest();
    const stream = await subscribe(t.app.fetch, `${baseUrl}/graphql`, org.members.read.token, StatusUpdates, {
      spaceId,
      changeRequestId: String(changeRequest.number),
    });
    expect((await stream.next())?.data?.changeRequestUpdated).toMatchObject({ status: "OPEN", subject: "Watch me" });

    const base = `/spaces/${spaceId}/change-requests/${changeRequest.id}`;
    await t.rest("PATCH", base, { token: org.members.edit.token, body: { status: "draft", subject: "Renamed" } });
    const edit = await t.rest<{ revision: string }>("POST", `${base}/content`, {
      token: org.members.edit.token,
      body: { changes: [{ type: "insert", page: { title: "New" } }] },
    });
    const merged = await t.rest<{ revision: string }>("POST", `${base}/merge`, { token: org.members.review.token });
    expect(merged.status).toBe(200);

    const seen = [];
    for (let event = await stream.next(); event; event = await stream.next())
      seen.push(event.data?.changeRequestUpdated);
    expect(seen).toEqual([
      expect.objectContaining({ status: "DRAFT", subject: "Renamed" }),
      expect.objectContaining({ status: "DRAFT", revision: edit.body.revision }),
      expect.objectContaining({
        status: "MERGED",
        mergedRevisionId: merged.body.revision,
        mergedRevision: { id: merged.body.revision },
        changeRequest: { id: changeRequest.id, subject: "Renamed" },
      }),
    ]);
  });

  it("sends each comment and reply posted on the change request, to readers of its space only", async () => {
    const { spaceId, changeRequest } = await openChangeRequest();
    const outsider = await seedOrganization(t.db, "Outsider");
    const refused = await subscribe(t.app.fetch, `${baseUrl}/graphql`, outsider.members.admin.token, CommentsPosted, {
      spaceId,
      changeRequestId: changeRequest.id,
    });
    expect((await refused.next())?.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });

    const stream = await subscribe(t.app.fetch, `${baseUrl}/graphql`, org.members.read.token, CommentsPosted, {
      spaceId,
      changeRequestId: changeRequest.id,
    });
    const base = `/spaces/${spaceId}/change-requests/${changeRequest.id}`;
    const comment = await t.rest<{ id: string }>("POST", `${base}/comments`, {
      token: org.members.comment.token,
      body: { body: { markdown: "Looks good" } },
    });
    expect(comment.status).toBe(200);
    const reply = await t.rest<{ id: string }>("POST", `${base}/comments/${comment.body.id}/replies`, {
      token: org.members.edit.token,
      body: { body: { markdown: "Thanks" } },
    });
    expect((await stream.next())?.data?.changeRequestCommentPosted).toEqual({
      changeRequest: changeRequest.id,
      comment: comment.body.id,
      reply: null,
      postedBy: org.members.comment.id,
    });
    expect((await stream.next())?.data?.changeRequestCommentPosted).toEqual({
      changeRequest: changeRequest.id,
      comment: comment.body.id,
      reply: reply.body.id,
      postedBy: org.members.edit.id,
    });
    await stream.close();
  });
});
