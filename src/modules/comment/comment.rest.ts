import { listRoute, orderParameter } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";
import { userFields } from "../content/content.public.ts";
import { memberFields } from "../member/member.public.ts";

const messageFields = `
  object: __typename id postedAt editedAt urls { location } postedBy { ${userFields} }
  body(format: $format) { markdown document }
  reactions { emoji count users { reactedAt user { ${userFields} } } }
  permissions__view: viewerCanView permissions__edit: viewerCanUpdate permissions__reply: viewerCanReply permissions__delete: viewerCanDelete
`;

const commentFields = /* GraphQL */ `
  fragment CommentFields on Comment {
    ${messageFields}
    status resolvedAt resolvedBy { ${userFields} }
    replies: replyCount
    repliers { count updatedAt user { ${userFields} } }
    target { space: spaceId revision: revisionId changeRequest: changeRequestId page { id: pageId } node { id: key } tableCell { record definition } }
  }
`;

const replyFields = /* GraphQL */ `fragment ReplyFields on CommentReply { ${messageFields} }`;

/** The routes of one base: the space itself, or one of its change requests. */
function baseRoutes(base: {
  path: string;
  variables: string;
  /** Mutation arguments naming the base. */
  arguments: string;
  select: (inner: string) => string;
  /** The fields from the root to the base, for list routes. */
  fields: readonly [string, ...string[]];
  result: string;
  suffix: "InSpace" | "InChangeRequest";
}): RestRoute[] {
  const { path, variables, select, fields, result, suffix } = base;
  const commentVariables = `${variables}, $commentId: ID!`;
  const commentArguments = `${base.arguments}, commentId: $commentId`;
  const replyVariables = `${commentVariables}, $commentReplyId: ID!`;
  const replyArguments = `${commentArguments}, commentReplyId: $commentReplyId`;
  const comment = `${path}/comments/{commentId}`;
  const reply = `${comment}/replies/{commentReplyId}`;
  return [
    listRoute({
      path: `${path}/comments`,
      operation: `listComments${suffix}`,
      variables: `${variables}, $orderBy: [CommentOrder!], $status: CommentStatusFilter, $format: PageFormat,
        $targetPage: ID, $authors: [ID!]`,
      fields: [
        ...fields,
        "commentThreads(orderBy: $orderBy, status: $status, targetPage: $targetPage, authors: $authors)",
      ],
      nodes: "...CommentFields",
      fragments: commentFields,
      ...orderParameter("POSTED_AT"),
    }),
    {
      method: "POST",
      path: `${path}/comments`,
      operation: `postComment${suffix}`,
      status: 200,
      result: "postComment.comment",
      document: `mutation postComment${suffix}($input: PostCommentInput!, $format: PageFormat) {
        postComment(input: $input) { comment { ...CommentFields } }
      } ${commentFields}`,
    },
    {
      method: "GET",
      path: comment,
      operation: `getComment${suffix}`,
      status: 200,
      result: `${result}.comment`,
      document: `query getComment${suffix}(${commentVariables}, $format: PageFormat) {
        ${select("comment(id: $commentId) { ...CommentFields }")}
      } ${commentFields}`,
    },
    {
      method: "PUT",
      path: comment,
      operation: `updateComment${suffix}`,
      status: 200,
      result: "updateComment.comment",
      document: `mutation updateComment${suffix}($input: UpdateCommentInput!, $format: PageFormat) {
        updateComment(input: $input) { comment { ...CommentFields } }
      } ${commentFields}`,
    },
    {
      method: "DELETE",
      path: comment,
      operation: `deleteComment${suffix}`,
      status: 204,
      document: `mutation deleteComment${suffix}(${commentVariables}) { deleteComment(input: { ${commentArguments} }) { deletedId } }`,
    },
    listRoute({
      path: `${comment}/replies`,
      operation: `listCommentReplies${suffix}`,
      variables: `${commentVariables}, $format: PageFormat`,
      fields: [...fields, "comment(id: $commentId)", "replies"],
      nodes: "...ReplyFields",
      fragments: replyFields,
    }),
    {
      method: "POST",
      path: `${comment}/replies`,
      operation: `postCommentReply${suffix}`,
      status: 200,
      result: "postCommentReply.reply",
      document: `mutation postCommentReply${suffix}($input: PostCommentReplyInput!, $format: PageFormat) {
        postCommentReply(input: $input) { reply { ...ReplyFields } }
      } ${replyFields}`,
    },
    {
      method: "GET",
      path: reply,
      operation: `getCommentReply${suffix}`,
      status: 200,
      result: `${result}.comment.reply`,
      document: `query getCommentReply${suffix}(${replyVariables}, $format: PageFormat) {
        ${select("comment(id: $commentId) { reply(id: $commentReplyId) { ...ReplyFields } }")}
      } ${replyFields}`,
    },
    {
      method: "PUT",
      path: reply,
      operation: `updateCommentReply${suffix}`,
      status: 200,
      result: "updateCommentReply.reply",
      document: `mutation updateCommentReply${suffix}($input: UpdateCommentReplyInput!, $format: PageFormat) {
        updateCommentReply(input: $input) { reply { ...ReplyFields } }
      } ${replyFields}`,
    },
    {
      method: "DELETE",
      path: reply,
      operation: `deleteCommentReply${suffix}`,
      status: 204,
      document: `mutation deleteCommentReply${suffix}(${replyVariables}) { deleteCommentReply(input: { ${replyArguments} }) { deletedId } }`,
    },
    listRoute({
      path: `${path}/commenters`,
      operation: `listCommenters${suffix}`,
      variables: variables,
      fields: [...fields, "commenters"],
      nodes: "...MemberFields",
      fragments: memberFields,
    }),
  ];
}

export const commentRoutes: RestRoute[] = [
  ...baseRoutes({
    path: "/spaces/{spaceId}",
    variables: "$spaceId: ID!",
    arguments: "spaceId: $spaceId",
    select: (inner) => `space(id: $spaceId) { ${inner} }`,
    fields: ["space(id: $spaceId)"],
    result: "space",
    suffix: "InSpace",
  }),
  ...baseRoutes({
    path: "/spaces/{spaceId}/change-requests/{changeRequestId}",
    variables: "$spaceId: ID!, $changeRequestId: ID!",
    arguments: "spaceId: $spaceId, changeRequestId: $changeRequestId",
    select: (inner) => `space(id: $spaceId) { changeRequest(id: $changeRequestId) { ${inner} } }`,
    fields: ["space(id: $spaceId)", "changeRequest(id: $changeRequestId)"],
    result: "space.changeRequest",
    suffix: "InChangeRequest",
  }),
];
