import { beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { present } from "../helpers/present.ts";

const CreateSpace = graphql(`
  mutation CommentsTestCreateSpace($organizationId: ID!) {
    createSpace(input: { organizationId: $organizationId, title: "GraphQL comments" }) { space { id } }
  }
`);

const CreateChangeRequest = graphql(`
  mutation CommentsTestCreateChangeRequest($spaceId: ID!) {
    createChangeRequest(input: { spaceId: $spaceId, subject: "Discussed" }) { changeRequest { id } }
  }
`);

const WriteContent = graphql(`
  mutation CommentsTestWrite($input: UpdateChangeRequestContentInput!) {
    updateChangeRequestContent(input: $input) {
      contentEdit { inserted { id: contentId } }
    }
  }
`);

const PostComment = graphql(`
  mutation CommentsTestPost($input: PostCommentInput!) {
    postComment(input: $input) { comment { id status } }
  }
`);

const PostReply = graphql(`
  mutation CommentsTestReply($spaceId: ID!, $changeRequestId: ID, $commentId: ID!, $markdown: String!) {
    postCommentReply(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, commentId: $commentId, body: { markdown: $markdown } }) { reply { id } }
  }
`);

const React = graphql(`
  mutation CommentsTestReact($spaceId: ID!, $changeRequestId: ID, $commentId: ID!, $emoji: String!) {
    updateComment(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, commentId: $commentId, addedReactions: [$emoji] }) { comment { id } }
  }
`);

const ChangeRequestWithComments = graphql(`
  query CommentsTestNested($spaceId: ID!, $changeRequestId: ID!) {
    space(id: $spaceId) {
      commentCount
      changeRequest(id: $changeRequestId) {
        comments
        commentThreads(first: 100, orderBy: [{ field: POSTED_AT, direction: ASC }]) {
          totalCount
          nodes {
            id status replyCount changeRequest { id }
            body(format: MARKDOWN) { markdown }
            postedBy { email }
            viewerCanUpdate viewerCanReply viewerCanDelete
            reactions { emoji count users { user { email } } }
            repliers { count user { email } }
            target { page { id: pageId } revisionId }
            replies(first: 100) { totalCount nodes { body(format: MARKDOWN) { markdown } postedBy { email } viewerCanUpdate } }
          }
        }
        commenters(first: 100) { totalCount }
      }
    }
  }
`);

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "GraphQL Comments Org");
});

describe("comments over GraphQL", () => {
  it("reads a change request with its threads, replies, reactions and authors in a fixed number of statements", async () => {
    const admin = t.graphql(org.members.admin.token);
    const editor = t.graphql(org.members.edit.token);
    const commenter = t.graphql(org.members.comment.token);
    const createSpace = present(
      (await admin.request(CreateSpace, { organizationId: org.organizationId })).createSpace?.space,
    );
    const spaceId = createSpace.id;
    const createChangeRequest = present(
      (await editor.request(CreateChangeRequest, { spaceId })).createChangeRequest?.changeRequest,
    );
    const changeRequestId = createChangeRequest.id;
    const written = await editor.request(WriteContent, {
      input: { spaceId, changeRequestId, changes: [{ type: "INSERT", page: { title: "Page", markdown: "text" } }] },
    });
    const pageId = present(written.updateChangeRequestContent?.contentEdit).inserted[0]?.id as string;

    const addThreads = async (count: number, repliesEach: number) => {
      for (let i = 0; i < count; i++) {
        t.clock.advance(1000);
        const postComment = present(
          (
            await commenter.request(PostComment, {
              input: { spaceId, changeRequestId, page: pageId, body: { markdown: `thread ${i}` } },
            })
          ).postComment?.comment,
        );
        for (let j = 0; j < repliesEach; j++) {
          t.clock.advance(1000);
          await (j % 2 ? editor : admin).request(PostReply, {
            spaceId,
            changeRequestId,
            commentId: postComment.id,
            markdown: `reply ${j}`,
          });
        }
        await editor.request(React, { spaceId, changeRequestId, commentId: postComment.id, emoji: "👍" });
      }
    };
    const read = async () => {
      const before = t.db.statementCount();
      const data = await editor.request(ChangeRequestWithComments, { spaceId, changeRequestId });
      return { data, count: t.db.statementCount() - before };
    };

    await addThreads(1, 1);
    const small = await read();
    await addThreads(5, 4);
    const large = await read();
    expect(large.count).toBe(small.count);

    const changeRequest = present(present(large.data.space).changeRequest);
    expect(present(large.data.space).commentCount).toBe(0);
    expect(changeRequest.comments).toBe(6);
    expect(present(changeRequest.commentThreads).totalCount).toBe(6);
    expect(present(changeRequest.commenters).totalCount).toBe(3);
    const last = present(changeRequest.commentThreads).nodes.at(-1);
    expect(last).toMatchObject({
      status: "OPEN",
      replyCount: 4,
      body: { markdown: "thread 4" },
      postedBy: { email: org.members.comment.email },
      viewerCanUpdate: false,
      viewerCanReply: true,
      viewerCanDelete: false,
      reactions: [{ emoji: "👍", count: 1, users: [{ user: { email: org.members.edit.email } }] }],
      repliers: [
        { count: 2, user: { email: org.members.admin.email } },
        { count: 2, user: { email: org.members.edit.email } },
      ],
      target: { page: { id: pageId } },
    });
    expect(present(changeRequest.commentThreads).nodes.map((node) => node.changeRequest?.id)).toEqual(
      Array(6).fill(changeRequestId),
    );
    expect(last?.replies?.nodes.map((reply) => [reply.body?.markdown, reply.viewerCanUpdate])).toEqual([
      ["reply 0", false],
      ["reply 1", true],
      ["reply 2", false],
      ["reply 3", true],
    ]);
  });

  it("shows an outsider reading an unlisted space's commenters no more of their organization than its id", async () => {
    const admin = t.graphql(org.members.admin.token);
    const spaceId = present(
      (await admin.request(CreateSpace, { organizationId: org.organizationId })).createSpace?.space,
    ).id;
    await admin.request(
      `mutation ($id: ID!) { updateSpaceVisibility(input: { spaceId: $id, visibility: UNLISTED }) { space { id } } }`,
      { id: spaceId },
    );
    await admin.request(PostComment, { input: { spaceId, body: { markdown: "on the space" } } });
    const commenters = (organization: string) =>
      `query ($id: ID!) { space(id: $id) { commenters(first: 10) { nodes { organizationId ${organization} } } } }`;
    type Commenters = { space: { commenters: { nodes: { organizationId: string; organization?: { id: string } }[] } } };

    const member = await t.graphql(org.members.read.token).request<Commenters>(commenters("organization { id }"), {
      id: spaceId,
    });
    expect(member.space.commenters.nodes).toEqual([
      { organizationId: org.organizationId, organization: { id: org.organizationId } },
    ]);
    const outsider = t.graphql((await seedOrganization(t.db, "Outsider Org")).members.admin.token);
    const seen = await outsider.request<Commenters>(commenters(""), { id: spaceId });
    expect(seen.space.commenters.nodes).toEqual([{ organizationId: org.organizationId }]);
    await expect(outsider.request(commenters("organization { id }"), { id: spaceId })).rejects.toThrow(
      /Organization \S+ not found/,
    );
  });

  it("answers GraphQL errors with codes for readers and unknown threads", async () => {
    const admin = t.graphql(org.members.admin.token);
    const createSpace = present(
      (await admin.request(CreateSpace, { organizationId: org.organizationId })).createSpace?.space,
    );
    const reader = t.graphql(org.members.read.token);
    await expect(
      reader.request(PostComment, { input: { spaceId: createSpace.id, body: { markdown: "hi" } } }),
    ).rejects.toThrow(/FORBIDDEN|comment role/);
    await expect(
      admin.request(PostReply, { spaceId: createSpace.id, commentId: "cmt_missing", markdown: "hi" }),
    ).rejects.toThrow(/Comment cmt_missing not found/);
  });
});
