import type { RestRoute } from "../../rest/route.ts";
import { fileFields, listedPageFields, pageFields } from "../content/content.rest.ts";
import { organizationFields } from "../organization/organization.rest.ts";
import { spaceFields } from "../space/space.rest.ts";

// The public spec requires a body and subpages on document pages, in locations too: they carry their markdown
// and their subpages (nested as in the content reads).
const locationFields = /* GraphQL */ `
  fragment ContentLocationFields on ContentLocation {
    kind url internalLocation
    organization { ...OrganizationFields }
    space { ...SpaceFields }
    page { ${pageFields} markdown pages: descendants { ...ListedPageFields } }
    file { ...FileFields }
  }
  ${organizationFields} ${spaceFields} ${fileFields} ${listedPageFields}
`;

const linkList = "totalCount pageInfo { hasNextPage endCursor } stats { total broken { total changeRequest } }";
const links = `links(status: $status, first: $limit, after: $page) {
  ${linkList}
  nodes {
    status relation
    targetReference { ...ContentLocationFields }
    locationReferences { ...ContentLocationFields }
  }
}`;
const backlinks = `backlinks(first: $limit, after: $page) {
  totalCount pageInfo { hasNextPage endCursor } nodes { ...ContentLocationFields }
}`;

const listVariables = "$limit: Int, $page: String";
const space = "/spaces/{spaceId}";
const changeRequest = `${space}/change-requests/{changeRequestId}`;
const spaceContent = (inner: string) => `space(id: $spaceId) { content { ${inner} } }`;
const changeRequestContent = (inner: string) =>
  `space(id: $spaceId) { changeRequest(id: $changeRequestId) { content { ${inner} } } }`;

export const linkRoutes: RestRoute[] = [
  {
    method: "GET",
    path: `${space}/links`,
    operation: "listSpaceLinks",
    status: 200,
    result: "space.content.links",
    document: `query listSpaceLinks($spaceId: ID!, $status: String, ${listVariables}) {
      ${spaceContent(links)}
    } ${locationFields}`,
  },
  {
    method: "GET",
    path: `${space}/content/page/{pageId}/links`,
    operation: "listPageLinksInSpace",
    status: 200,
    result: "space.content.page.links",
    document: `query listPageLinksInSpace($spaceId: ID!, $pageId: String!, $status: String, ${listVariables}) {
      ${spaceContent(`page(id: $pageId) { ${links} }`)}
    } ${locationFields}`,
  },
  {
    method: "GET",
    path: `${changeRequest}/content/page/{pageId}/links`,
    operation: "listPageLinksInChangeRequest",
    status: 200,
    result: "space.changeRequest.content.page.links",
    document: `query listPageLinksInChangeRequest($spaceId: ID!, $changeRequestId: String!, $pageId: String!,
        $status: String, ${listVariables}) {
      ${changeRequestContent(`page(id: $pageId) { ${links} }`)}
    } ${locationFields}`,
  },
  {
    method: "GET",
    path: `${space}/content/page/{pageId}/backlinks`,
    operation: "listSpacePageBacklinks",
    status: 200,
    result: "space.content.page.backlinks",
    document: `query listSpacePageBacklinks($spaceId: ID!, $pageId: String!, ${listVariables}) {
      ${spaceContent(`page(id: $pageId) { ${backlinks} }`)}
    } ${locationFields}`,
  },
  {
    method: "GET",
    path: `${space}/content/files/{fileId}/backlinks`,
    operation: "listSpaceFileBacklinks",
    status: 200,
    result: "space.content.file.backlinks",
    document: `query listSpaceFileBacklinks($spaceId: ID!, $fileId: String!, ${listVariables}) {
      ${spaceContent(`file(id: $fileId) { ${backlinks} }`)}
    } ${locationFields}`,
  },
  {
    method: "GET",
    path: `${changeRequest}/content/files/{fileId}/backlinks`,
    operation: "listChangeRequestFileBacklinks",
    status: 200,
    result: "space.changeRequest.content.file.backlinks",
    document: `query listChangeRequestFileBacklinks($spaceId: ID!, $changeRequestId: String!, $fileId: String!,
        ${listVariables}) {
      ${changeRequestContent(`file(id: $fileId) { ${backlinks} }`)}
    } ${locationFields}`,
  },
];
