import { listRoute, orderKey, selectAlong } from "../../rest/list-route.ts";
import type { QueryVariables, RestRoute } from "../../rest/route.ts";
import { changeRequestFields, contentEditFields, contentReadRoutes, userFields } from "../content/content.public.ts";

const reviewFields = /* GraphQL */ `
  fragment ReviewFields on ChangeRequestReview {
    object: __typename id revision: revisionId status outdated createdAt updatedAt urls { location }
    reviewer { ${userFields} }
    requestedBy { ${userFields} }
  }
`;

const filterVariables =
  "$status: ChangeRequestStatus, $creator: ID, $contributor: ID, $requestedReviewer: ID, $orderBy: [ChangeRequestOrder!]";
const filterArguments =
  "status: $status, creator: $creator, contributor: $contributor, requestedReviewer: $requestedReviewer, orderBy: $orderBy";
/** The reference's `orderBy`, the time listed by (newest first), is one `orderBy` key of the document. */
const orderByRule = { oneOf: ["updatedAt", "createdAt"] } as const;
const orderByTime: QueryVariables = {
  variables: ["orderBy"],
  from: (sent) => {
    const time = sent("orderBy");
    return time === undefined
      ? {}
      : { orderBy: [orderKey(time === "createdAt" ? "CREATED_AT" : "UPDATED_AT", "desc")] };
  },
};
/** The model has no site topics, style-guide runs or findings: filtering by one is refused, not ignored. */
const topicRule = { unsupported: "change requests are not linked to site topics" } as const;
const organizationQueryRules = {
  orderBy: orderByRule,
  topic: topicRule,
  styleguideRun: { unsupported: "there are no style-guide runs" },
  finding: { unsupported: "there are no style-guide findings" },
} as const;
/** A review's body carries no rich text (its comment is not part of it): either format answers it as is. */
const reviewFormatRule = { oneOf: ["document", "markdown"] } as const;

const base = "/spaces/{spaceId}/change-requests/{changeRequestId}";
const crVariables = "$spaceId: ID!, $changeRequestId: ID!";
const crArguments = "spaceId: $spaceId, changeRequestId: $changeRequestId";
const changeRequestPath = ["space(id: $spaceId)", "changeRequest(id: $changeRequestId)"];
const selectChangeRequest = (inner: string) => selectAlong(changeRequestPath, inner);

export const changeRequestRoutes: RestRoute[] = [
  listRoute({
    path: "/spaces/{spaceId}/change-requests",
    operation: "listChangeRequestsForSpace",
    variables: `$spaceId: ID!, ${filterVariables}`,
    fields: ["space(id: $spaceId)", `changeRequests(${filterArguments})`],
    nodes: "...ChangeRequestFields",
    fragments: changeRequestFields,
    queryRules: { orderBy: orderByRule, topic: topicRule },
    queryVariables: orderByTime,
  }),
  listRoute({
    path: "/orgs/{organizationId}/change-requests",
    operation: "listChangeRequestsForOrganization",
    variables: `$organizationId: ID!, ${filterVariables}, $site: ID, $space: ID`,
    fields: ["organization(id: $organizationId)", `changeRequests(${filterArguments}, site: $site, space: $space)`],
    nodes: "...ChangeRequestFields",
    fragments: changeRequestFields,
    queryRules: organizationQueryRules,
    queryVariables: orderByTime,
  }),
  {
    method: "POST",
    path: "/spaces/{spaceId}/change-requests",
    operation: "createChangeRequest",
    status: 201,
    result: "createChangeRequest.changeRequest",
    document: `mutation createChangeRequest($input: CreateChangeRequestInput!) {
      createChangeRequest(input: $input) { changeRequest { ...ChangeRequestFields } }
    } ${changeRequestFields}`,
  },
  {
    method: "GET",
    path: base,
    operation: "getChangeRequestById",
    status: 200,
    result: "space.changeRequest",
    document: `query getChangeRequestById(${crVariables}) {
      ${selectChangeRequest("...ChangeRequestFields")}
    } ${changeRequestFields}`,
  },
  {
    method: "PATCH",
    path: base,
    operation: "updateChangeRequestById",
    status: 200,
    result: "updateChangeRequestDetails.changeRequest",
    document: `mutation updateChangeRequestById($input: UpdateChangeRequestDetailsInput!) {
      updateChangeRequestDetails(input: $input) { changeRequest { ...ChangeRequestFields } }
    } ${changeRequestFields}`,
  },
  {
    method: "POST",
    path: `${base}/merge`,
    operation: "mergeChangeRequest",
    status: 200,
    result: "mergeChangeRequest.outcome",
    document: `mutation mergeChangeRequest(${crVariables}) { mergeChangeRequest(input: { ${crArguments} }) { outcome { revision: revisionId result } } }`,
  },
  {
    method: "POST",
    path: `${base}/update`,
    operation: "updateChangeRequest",
    status: 200,
    result: "updateChangeRequestFromSpace.outcome",
    document: `mutation updateChangeRequest(${crVariables}) { updateChangeRequestFromSpace(input: { ${crArguments} }) { outcome { revision: revisionId result } } }`,
  },
  {
    method: "GET",
    path: `${base}/pdf`,
    operation: "getChangeRequestPDF",
    status: 200,
    result: "space.changeRequest.pdf",
    document: `query getChangeRequestPDF(${crVariables}, $only: Boolean, $page: ID) {
      ${selectChangeRequest("pdf(only: $only, page: $page) { url }")}
    }`,
  },
  {
    method: "POST",
    path: `${base}/content`,
    operation: "updateChangeRequestContent",
    status: 200,
    result: "updateChangeRequestContent.contentEdit",
    document: `mutation updateChangeRequestContent($input: UpdateChangeRequestContentInput!) {
      updateChangeRequestContent(input: $input) { contentEdit { ${contentEditFields} } }
    }`,
  },
  ...contentReadRoutes({
    path: base,
    variables: crVariables,
    owner: changeRequestPath,
    operations: {
      revision: "getRevisionOfChangeRequestById",
      pages: "listPagesInChangeRequest",
      files: "listFilesInChangeRequestById",
      file: "getFileInChangeRequestById",
      page: "getPageInChangeRequestById",
    },
  }),
  listRoute({
    path: `${base}/reviews`,
    operation: "getReviewsByChangeRequestId",
    variables: crVariables,
    fields: [...changeRequestPath, "reviews"],
    nodes: "...ReviewFields",
    fragments: reviewFields,
    queryRules: { format: reviewFormatRule, outdated: { unsupported: "read each review's outdated field instead" } },
  }),
  {
    method: "POST",
    path: `${base}/reviews`,
    operation: "submitChangeRequestReview",
    status: 201,
    result: "submitChangeRequestReview.review",
    document: `mutation submitChangeRequestReview($input: SubmitChangeRequestReviewInput!) {
      submitChangeRequestReview(input: $input) { review { ...ReviewFields } }
    } ${reviewFields}`,
  },
  {
    method: "GET",
    path: `${base}/reviews/{reviewId}`,
    operation: "getChangeRequestReviewById",
    status: 200,
    result: "space.changeRequest.review",
    queryRules: { format: reviewFormatRule },
    document: `query getChangeRequestReviewById(${crVariables}, $reviewId: ID!) {
      ${selectChangeRequest("review(id: $reviewId) { ...ReviewFields }")}
    } ${reviewFields}`,
  },
  listRoute({
    path: `${base}/requested-reviewers`,
    operation: "getRequestedReviewersByChangeRequestId",
    variables: crVariables,
    fields: [...changeRequestPath, "requestedReviewers"],
    nodes: `object: __typename kind revision: revisionId createdAt user { ${userFields} } requestedBy { ${userFields} }`,
  }),
  {
    method: "POST",
    path: `${base}/requested-reviewers`,
    operation: "requestReviewersForChangeRequest",
    status: 200,
    result: "requestReviewersForChangeRequest.changeRequest",
    document: `mutation requestReviewersForChangeRequest($input: RequestReviewersForChangeRequestInput!) {
      requestReviewersForChangeRequest(input: $input) { changeRequest { ...ChangeRequestFields } }
    } ${changeRequestFields}`,
  },
  {
    method: "DELETE",
    path: `${base}/requested-reviewers/{userId}`,
    operation: "removeRequestedReviewerFromChangeRequest",
    status: 204,
    document: `mutation removeRequestedReviewerFromChangeRequest(${crVariables}, $userId: ID!) {
      removeRequestedReviewerFromChangeRequest(input: { ${crArguments}, userId: $userId }) { removedRequestedReviewerId }
    }`,
  },
];
