import { listRoute, orderParameter } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";

export const spaceFields = /* GraphQL */ `
  fragment SpaceFields on Space {
    object: __typename id title emoji visibility createdAt updatedAt deletedAt editMode mergeRules urls { location app }
    organization: organizationId parent: parentId language revision: revisionId defaultLevel
    comments: commentCount changeRequests: changeRequestCount changeRequestsOpen: changeRequestOpenCount
    changeRequestsDraft: changeRequestDraftCount
    permissions__view: viewerCanView permissions__access: viewerCanAccess permissions__admin: viewerCanAdminister permissions__viewInviteLinks: viewerCanViewInviteLinks permissions__edit: viewerCanEdit permissions__triggerGitSync: viewerCanTriggerGitSync permissions__comment: viewerCanComment permissions__merge: viewerCanMerge permissions__review: viewerCanReview permissions__installIntegration: viewerCanInstallIntegration
    gitSync { repoName installationProvider integration url updatedAt }
  }
`;

const collectionFields = /* GraphQL */ `
  fragment CollectionFields on Collection {
    object: __typename id title description organization: organizationId parent: parentId defaultLevel urls { location app }
    permissions__view: viewerCanView permissions__admin: viewerCanAdminister permissions__viewInviteLinks: viewerCanViewInviteLinks permissions__create: viewerCanCreateContent
  }
`;

export const spaceRoutes: RestRoute[] = [
  {
    method: "GET",
    path: "/spaces/{spaceId}",
    operation: "getSpaceById",
    status: 200,
    result: "space",
    document: `query getSpaceById($spaceId: ID!, $shareKey: String) {
      space(id: $spaceId, shareKey: $shareKey) { ...SpaceFields }
    } ${spaceFields}`,
  },
  {
    method: "PATCH",
    path: "/spaces/{spaceId}",
    operation: "updateSpaceById",
    status: 200,
    result: "updateSpace.space",
    document: `mutation updateSpaceById($input: UpdateSpaceInput!) {
      updateSpace(input: $input) { space { ...SpaceFields } }
    } ${spaceFields}`,
  },
  {
    method: "DELETE",
    path: "/spaces/{spaceId}",
    operation: "deleteSpaceById",
    status: 204,
    document: `mutation deleteSpaceById($spaceId: ID!) { deleteSpace(input: { spaceId: $spaceId }) { deletedId } }`,
  },
  {
    method: "POST",
    path: "/spaces/{spaceId}/duplicate",
    operation: "duplicateSpace",
    status: 201,
    result: "duplicateSpace.space",
    document: `mutation duplicateSpace($spaceId: ID!) { duplicateSpace(input: { spaceId: $spaceId }) { space { ...SpaceFields } } } ${spaceFields}`,
  },
  {
    method: "POST",
    path: "/spaces/{spaceId}/restore",
    operation: "restoreSpace",
    status: 200,
    result: "restoreSpace.space",
    document: `mutation restoreSpace($spaceId: ID!) { restoreSpace(input: { spaceId: $spaceId }) { space { ...SpaceFields } } } ${spaceFields}`,
  },
  {
    method: "POST",
    path: "/spaces/{spaceId}/move",
    operation: "moveSpace",
    status: 200,
    result: "moveSpace.space",
    document: `mutation moveSpace($input: MoveSpaceInput!) {
      moveSpace(input: $input) { space { ...SpaceFields } }
    } ${spaceFields}`,
  },
  {
    method: "POST",
    path: "/spaces/{spaceId}/transfer",
    operation: "transferSpace",
    status: 200,
    result: "transferSpace.space",
    document: `mutation transferSpace($input: TransferSpaceInput!) {
      transferSpace(input: $input) { space { ...SpaceFields } }
    } ${spaceFields}`,
  },
  {
    method: "POST",
    path: "/spaces/{spaceId}/permissions",
    operation: "inviteToSpace",
    status: 204,
    document: `mutation inviteToSpace($input: InviteToSpaceInput!) {
      inviteToSpace(input: $input) { space { id } }
    }`,
  },
  listRoute({
    path: "/orgs/{organizationId}/spaces",
    operation: "listSpacesInOrganizationById",
    variables: "$organizationId: ID!",
    fields: ["organization(id: $organizationId)", "spaces"],
    nodes: "...SpaceFields",
    fragments: spaceFields,
  }),
  {
    method: "POST",
    path: "/orgs/{organizationId}/spaces",
    operation: "createSpace",
    status: 201,
    result: "createSpace.space",
    document: `mutation createSpace($input: CreateSpaceInput!) {
      createSpace(input: $input) { space { ...SpaceFields } }
    } ${spaceFields}`,
  },
  listRoute({
    path: "/orgs/{organizationId}/members/{userId}/spaces",
    operation: "listSpacesForOrganizationMember",
    variables: "$organizationId: ID!, $userId: ID!, $orderBy: [MemberSpaceOrder!]",
    fields: ["organization(id: $organizationId)", "member(userId: $userId)", "spaces(orderBy: $orderBy)"],
    nodes: "permission space { ...SpaceFields }",
    fragments: spaceFields,
    ...orderParameter("CREATED_AT"),
  }),
  listRoute({
    path: "/orgs/{organizationId}/collections",
    operation: "listCollectionsInOrganizationById",
    variables: "$organizationId: ID!, $nested: Boolean",
    fields: ["organization(id: $organizationId)", "collections(nested: $nested)"],
    nodes: "...CollectionFields",
    fragments: collectionFields,
  }),
  {
    method: "POST",
    path: "/orgs/{organizationId}/collections",
    operation: "createCollection",
    status: 201,
    result: "createCollection.collection",
    document: `mutation createCollection($input: CreateCollectionInput!) {
      createCollection(input: $input) { collection { ...CollectionFields } }
    } ${collectionFields}`,
  },
];
