import { listRoute } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";
import { fileFields, listedPageFields, pageFields } from "../content/content.public.ts";
import { organizationFields } from "../organization/organization.public.ts";
import { spaceFields } from "../space/space.public.ts";

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

const linkNodes = `
  status relation
  targetReference { ...ContentLocationFields }
  locationReferences { ...ContentLocationFields }
`;
const linkStats = "stats { total broken { total changeRequest } }";
const backlinkNodes = "...ContentLocationFields";

const space = "/spaces/{spaceId}";
const changeRequest = `${space}/change-requests/{changeRequestId}`;
const spaceContent = ["space(id: $spaceId)", "content"] as const;
const changeRequestContent = ["space(id: $spaceId)", "changeRequest(id: $changeRequestId)", "content"] as const;

export const linkRoutes: RestRoute[] = [
  listRoute({
    path: `${space}/links`,
    operation: "listSpaceLinks",
    variables: "$spaceId: ID!, $status: ContentLinkStatus",
    fields: [...spaceContent, "links(status: $status)"],
    listFields: linkStats,
    nodes: linkNodes,
    fragments: locationFields,
  }),
  listRoute({
    path: `${space}/content/page/{pageId}/links`,
    operation: "listPageLinksInSpace",
    variables: "$spaceId: ID!, $pageId: ID!, $status: ContentLinkStatus",
    fields: [...spaceContent, "page(id: $pageId)", "links(status: $status)"],
    listFields: linkStats,
    nodes: linkNodes,
    fragments: locationFields,
  }),
  listRoute({
    path: `${changeRequest}/content/page/{pageId}/links`,
    operation: "listPageLinksInChangeRequest",
    variables: "$spaceId: ID!, $changeRequestId: ID!, $pageId: ID!, $status: ContentLinkStatus",
    fields: [...changeRequestContent, "page(id: $pageId)", "links(status: $status)"],
    listFields: linkStats,
    nodes: linkNodes,
    fragments: locationFields,
  }),
  listRoute({
    path: `${space}/content/page/{pageId}/backlinks`,
    operation: "listSpacePageBacklinks",
    variables: "$spaceId: ID!, $pageId: ID!",
    fields: [...spaceContent, "page(id: $pageId)", "backlinks"],
    nodes: backlinkNodes,
    fragments: locationFields,
  }),
  listRoute({
    path: `${space}/content/files/{fileId}/backlinks`,
    operation: "listSpaceFileBacklinks",
    variables: "$spaceId: ID!, $fileId: ID!",
    fields: [...spaceContent, "file(id: $fileId)", "backlinks"],
    nodes: backlinkNodes,
    fragments: locationFields,
  }),
  listRoute({
    path: `${changeRequest}/content/files/{fileId}/backlinks`,
    operation: "listChangeRequestFileBacklinks",
    variables: "$spaceId: ID!, $changeRequestId: ID!, $fileId: ID!",
    fields: [...changeRequestContent, "file(id: $fileId)", "backlinks"],
    nodes: backlinkNodes,
    fragments: locationFields,
  }),
];
