/** The content module's door: all that other modules and the app may use of it (docs/architecture.md). */

export type { Document } from "../../lib/markdown/document.ts";
export { documentToMarkdown } from "../../lib/markdown/from-document.ts";
export { type MarkdownSection, markdownLinkUrls } from "../../lib/markdown/text.ts";
export { changeRequestFields, userFields } from "./change-request.fragments.ts";
export {
  computedDescription,
  metadataDescription,
  PageFormatEnum,
  RevisionFileRef,
  RevisionPageRef,
  RevisionRef,
} from "./content.graphql.ts";
export {
  contentEditFields,
  contentReadRoutes,
  fileFields,
  listedPageFields,
  pageFields,
} from "./content.rest.ts";
export {
  type ContentEdit,
  type ContentEditor,
  changesEditor,
  createPdfExport,
  editSpaceContent,
  onLatestHead,
  pageAppUrl,
  prepareEdit,
  revisionFiles,
  revisionOf,
  revisionRead,
  revisionTree,
  writeEdits,
} from "./content.service.ts";
export { type MergeConflict, mergeContent, pagesToCompare } from "./content-merge.ts";
export type { PageNode, RevisionFileView, RevisionTree, TreeNode } from "./content-reads.ts";
export { type ContentState, childrenOf, type NewBlob, type PageState, uniqueSlug } from "./content-state.ts";
export { ContentChangesInput, ContentEditRef } from "./content-write.graphql.ts";
export { pageVersionLinkRows } from "./link-extraction.ts";
export { locatedPages, pageMarkdown, revisionPage } from "./page-read.service.ts";
export { anchoredSections } from "./page-sections.ts";
export {
  newPageLinks,
  newPageSections,
  readContentOutline,
  readContentState,
  readPageBodies,
  sha256,
  withBodies,
  writeFirstRevision,
  writeRevision,
} from "./revision.service.ts";
export { templateEditor, templateParamsSchema, templateSchema } from "./templates.ts";
