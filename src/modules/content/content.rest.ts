import { listRoute, resultAlong, selectAlong } from "../../rest/list-route.ts";
import type { RestRoute } from "../../rest/route.ts";
import { changeRequestFields } from "./change-request.fragments.ts";

export const pageFields = `id: pageId title emoji type kind: type createdAt updatedAt slug path description layout cover variables hidden
  noIndex noRobotsIndex tags href target computed computedSeed urls { app } git { oid path }`;

export const fileFields =
  "fragment FileFields on RevisionFile { id: fileId name contentType downloadURL size dimensions { width height } }";
// The public spec requires a body on document pages, in listings too: they carry their markdown.
export const listedPageFields = `fragment ListedPageFields on RevisionPage { ${pageFields} parent: parentId markdown }`;
const revisionFields = /* GraphQL */ `
  fragment RevisionFields on Revision {
    object: __typename id parents type createdAt reusableContents variables tags urls { app }
    git { oid message ref url createdByService }
    pages: pageList { ...ListedPageFields }
    files { ...FileFields }
    mergedFrom { ...ChangeRequestFields }
  }
  ${listedPageFields} ${fileFields} ${changeRequestFields}
`;
const pageWithBody = /* GraphQL */ `
  fragment PageWithBody on RevisionPage {
    ${pageFields}
    markdown(format: $format, evaluated: $evaluated)
    document(format: $format, evaluated: $evaluated)
    pages: descendants { ...ListedPageFields }
  }
  ${listedPageFields}
`;

export const contentEditFields = "revision: revisionId result inserted { type id: contentId }";

/** The `/content` reads of a base (a space or a change request): `select` picks the revision. */
/**
 * Documents here hold no references to other content (no reusable-content blocks, no content refs), so a
 * dereferenced document is the document as stored: the value is checked, the page answered as is. How markdown
 * writes such references has no meaning either, and its values are not public: refused rather than guessed.
 */
const pageQueryRules = {
  dereferenced: { oneOf: ["true", "false", "reusable-contents"] },
  "format.markdown.refs": { unsupported: "documents hold no references to other content" },
} as const;

export function contentReadRoutes(base: {
  path: string;
  variables: string;
  /** Fields from the root to the object whose content is read (a space, a change request), outermost first. */
  owner: readonly string[];
  operations: { revision: string; pages: string; files: string; file: string; page: string };
}): RestRoute[] {
  const readArgs = "$metadata: Boolean, $computed: Boolean";
  const content = [...base.owner, "content(metadata: $metadata, computed: $computed)"];
  const select = (inner: string) => selectAlong(content, inner);
  const result = resultAlong(content);
  return [
    {
      method: "GET",
      path: `${base.path}/content`,
      operation: base.operations.revision,
      status: 200,
      result,
      document: `query ${base.operations.revision}(${base.variables}, ${readArgs}) {
        ${select("...RevisionFields")}
      } ${revisionFields}`,
    },
    {
      method: "GET",
      path: `${base.path}/content/pages`,
      operation: base.operations.pages,
      status: 200,
      result,
      document: `query ${base.operations.pages}(${base.variables}, ${readArgs}) {
        ${select("pages: pageList { ...ListedPageFields }")}
      } ${listedPageFields}`,
    },
    listRoute({
      path: `${base.path}/content/files`,
      operation: base.operations.files,
      variables: `${base.variables}, ${readArgs}`,
      fields: [...content, "fileConnection"],
      nodes: "...FileFields",
      fragments: fileFields,
    }),
    {
      method: "GET",
      path: `${base.path}/content/files/{fileId}`,
      operation: base.operations.file,
      status: 200,
      result: `${result}.file`,
      document: `query ${base.operations.file}(${base.variables}, ${readArgs}, $fileId: ID!) {
        ${select("file(id: $fileId) { ...FileFields }")}
      } ${fileFields}`,
    },
    {
      method: "GET",
      path: `${base.path}/content/page/{pageId}`,
      operation: base.operations.page,
      status: 200,
      result: `${result}.page`,
      queryRules: pageQueryRules,
      document: `query ${base.operations.page}(${base.variables}, ${readArgs}, $pageId: ID!,
          $format: PageFormat = DOCUMENT, $evaluated: String) {
        ${select("page(id: $pageId) { ...PageWithBody }")}
      } ${pageWithBody}`,
    },
  ];
}

export const contentRoutes: RestRoute[] = [
  ...contentReadRoutes({
    path: "/spaces/{spaceId}",
    variables: "$spaceId: ID!",
    owner: ["space(id: $spaceId)"],
    operations: {
      revision: "getCurrentRevision",
      pages: "listPages",
      files: "listFiles",
      file: "getFileById",
      page: "getPageById",
    },
  }),
  {
    method: "POST",
    path: "/spaces/{spaceId}/content",
    operation: "updateSpaceContent",
    status: 200,
    result: "updateSpaceContent.contentEdit",
    document: `mutation updateSpaceContent($input: UpdateSpaceContentInput!) {
      updateSpaceContent(input: $input) { contentEdit { ${contentEditFields} } }
    }`,
  },
];
