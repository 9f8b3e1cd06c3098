import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { idColumn, loadBranded } from "../../graphql/node-ids.ts";
import type { FieldCost } from "../../lib/query-cost.ts";
import { pairIdOf } from "../../platform/ids.ts";
import { parentSpace, SpaceRef } from "../space/space.public.ts";
import {
  fileDownloadUrl,
  listRevisionFiles,
  loadVisibleRevisionFiles,
  loadVisibleRevisionPages,
  loadVisibleRevisions,
  pageAppUrl,
  revisionFile,
  revisionFiles,
  revisionOf,
  revisionRead,
  revisionTree,
  spaceRevision,
} from "./content.service.ts";
import { contentReads, type PageNode, type RevisionFileView, type RevisionRead } from "./content-reads.ts";
import type { GitBlob } from "./content-state.ts";
import { pageBody } from "./page-read.service.ts";
import type { RevisionGit } from "./revision.service.ts";

export const RevisionRef = builder.objectRef<RevisionRead>("Revision");
export const RevisionPageRef = builder.objectRef<PageNode>("RevisionPage");
export const RevisionFileRef = builder.objectRef<RevisionFileView>("RevisionFile");

const GitBlobRef = builder.objectRef<GitBlob>("GitSyncBlob").implement({
  description: "A file of the synchronized Git repository.",
  fields: (t) => ({
    oid: t.exposeString("oid", { description: "The Git object id (SHA-1) of the file's content." }),
    path: t.exposeString("path", { description: "Its path in the repository." }),
  }),
});

const RevisionGitRef = builder.objectRef<RevisionGit>("GitSyncCommit").implement({
  description: "The Git commit a revision was imported from or exported to.",
  fields: (t) => ({
    oid: t.exposeString("oid", { description: "The commit id (SHA-1)." }),
    message: t.exposeString("message", { description: "The commit message." }),
    ref: t.exposeString("ref", { description: "The branch, as refs/heads/<branch>." }),
    url: t.exposeString("url", {
      nullable: true,
      description: "The commit on the Git host (repoCommitURL and the id); null when no repoCommitURL was given.",
    }),
    createdByService: t.exposeBoolean("createdByService", { description: "True for commits an export made." }),
  }),
});

export const PageTypeEnum = publicEnum<string>("PageType", "The kind of a page.", {
  document: "A page of content.",
  group: "A group of pages, without content of its own.",
  link: "A link to elsewhere, shown in the table of contents.",
});

const RevisionTypeEnum = publicEnum<string>("RevisionType", "How a revision was made.", {
  edits: "Direct edits, imports or templates.",
  merge: "A change request merged.",
  update: "A change request took in its space's content.",
});

export const PageFormatEnum = publicEnum("PageFormat", "The format of a body.", {
  document: "A rich-text document (JSON, `{ object: document, nodes }`).",
  markdown: "Markdown text.",
});

/** Every layout option the public API lists, so a page that never set one reads as the defaults. */
const defaultLayout = {
  width: "default",
  cover: true,
  coverSize: "hero",
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
};

export const computedDescription =
  "Default true; false leaves out the generated bodies of computed pages (their definition stays).";

export const metadataDescription =
  "Default true; false leaves out mutable Git metadata (`git` of the revision and pages).";

/** Parsing a page's markdown (into a document, or to evaluate its expressions), in estimateCost units. */
const conversionWeight = 20_000;
const documentCost: FieldCost = { weight: conversionWeight };
const markdownCost: FieldCost = {
  weight: (args) => (args.evaluated && args.evaluated !== "false" ? conversionWeight : 1),
};
/** Page lists are whole trees, of a size unknown before they are read. */
const pageListCost: FieldCost = { listSize: 100 };

const evaluatedDescription =
  "Replace variable expressions with their values: true, false (default), or deterministic-only (leaves the " +
  "expressions whose inputs are not deterministic as they are).";
const formatDescription = (format: string) =>
  `The format asked for (default ${format}); the field answers null for the other one.`;

builder.node(RevisionPageRef, {
  description:
    "A page of a revision: a document, a group of pages or a link. Readable by whoever may read the space. Its `id` " +
    "is this revision's page; `pageId` is the same in every revision.",
  id: { resolve: (node) => pairIdOf("RevisionPage", node.revisionId, node.page.id) },
  ...loadBranded(RevisionPageRef, (ids, ctx) => loadVisibleRevisionPages(ctx, ids)),
  fields: (t) => ({
    pageId: t.id({ description: "The page's id, the same in every revision.", resolve: (node) => node.page.id }),
    revisionId: t.exposeID("revisionId", { description: "The id of the revision this page is read in." }),
    revision: t.field({
      type: RevisionRef,
      description: "The revision this page is read in.",
      resolve: (node, _args, ctx) => revisionOf(ctx, node.revisionId),
    }),
    title: t.string({ description: "The page's title.", resolve: (node) => node.page.title }),
    emoji: t.string({
      nullable: true,
      description: "An emoji shown as the page's icon; null when none.",
      resolve: (node) => node.page.emoji,
    }),
    type: t.field({
      type: PageTypeEnum,
      description: "The kind of page.",
      // REST answers it as the page's \`kind\`, documents under their former name.
      extensions: { restRenamedValues: { kind: { DOCUMENT: "sheet", GROUP: "group", LINK: "link" } } },
      resolve: (node) => node.page.type,
    }),
    createdAt: t.field({
      type: "DateTime",
      description: "When the page was created.",
      resolve: (node) => node.page.createdAt,
    }),
    updatedAt: t.field({
      type: "DateTime",
      description: "When the page last changed.",
      resolve: (node) => node.page.updatedAt,
    }),
    slug: t.string({
      description: "The page's path segment, unique among its siblings.",
      resolve: (node) => node.page.slug,
    }),
    path: t.string({
      description: "Complete path of the page in the revision (its ancestors' slugs and its own, joined by /).",
      resolve: (node) => node.path,
    }),
    description: t.string({
      nullable: true,
      description: "A short summary of the page; null when none.",
      resolve: (node) => node.page.description,
    }),
    git: t.field({
      type: GitBlobRef,
      nullable: true,
      description: "Where the page lives in the synchronized Git repository.",
      resolve: (node) => (node.showGitMetadata ? node.page.git : null),
    }),
    parentId: t.id({
      nullable: true,
      description: "The parent page's `pageId` (its page in this revision is `parent`); null at the root.",
      resolve: (node) => node.parentId,
    }),
    parent: t.field({
      type: RevisionPageRef,
      nullable: true,
      description: "The parent page, in the same revision; null at the root.",
      resolve: (node, _args, ctx) => contentReads(ctx).parentPage(node),
    }),
    pages: t.field({
      type: [RevisionPageRef],
      description: "Direct subpages, in order.",
      resolve: (node, _args, ctx) => contentReads(ctx).subpages(node),
    }),
    descendants: t.field({
      type: [RevisionPageRef],
      description: "Every page under this one, flat in tree order (each with its parent).",
      // REST answers the list as a tree: each page under its parent's `pages`.
      extensions: { cost: pageListCost, restNestsByParent: true },
      resolve: (node, _args, ctx) => contentReads(ctx).descendantPages(node),
    }),
    layout: t.field({
      type: "JSON",
      nullable: true,
      description:
        "Documents: the layout options, the defaults filled in (width, cover, coverSize, title, description, " +
        "tableOfContents, outline, pagination, metadata, tags); null for groups and links.",
      resolve: (node) => (node.page.type === "document" ? { ...defaultLayout, ...node.page.layout } : null),
    }),
    cover: t.field({
      type: "JSON",
      nullable: true,
      description: "The cover image `{ ref, refDark, yPos, height }` (height in pixels); null when none.",
      resolve: (node) => node.page.cover,
    }),
    variables: t.field({
      type: "JSON",
      nullable: true,
      description: "Documents: the page's variables (name to value); null for groups and links.",
      resolve: (node) => (node.page.type === "document" ? node.page.variables : null),
    }),
    hidden: t.boolean({
      description: "Flag for the published site: the page is left out of its navigation.",
      resolve: (node) => node.page.hidden,
    }),
    noIndex: t.boolean({
      nullable: true,
      description: "Flag for the published site: the page is left out of its search; null for links.",
      resolve: (node) => (node.page.type === "link" ? null : node.page.noIndex),
    }),
    noRobotsIndex: t.boolean({
      nullable: true,
      description: "Flag for the published site: search engines are asked not to index it; null for links.",
      resolve: (node) => (node.page.type === "link" ? null : node.page.noRobotsIndex),
    }),
    tags: t.field({
      type: "JSON",
      nullable: true,
      description: "Always empty: pages carry no tags here.",
      resolve: (node) => (node.page.type === "document" ? [] : null),
    }),
    href: t.string({
      nullable: true,
      description: "Links: the URL they point at; null for other pages.",
      resolve: (node) => node.page.href,
    }),
    computed: t.field({
      type: "JSON",
      nullable: true,
      description: "Computed pages: what generates the body ({ type: builtin:openapi, dependencies, props }).",
      resolve: (node) => node.page.computed,
    }),
    computedSeed: t.string({
      nullable: true,
      description: "Computed pages: a random seed fixed when they were made; null for other pages.",
      resolve: (node) => node.page.computedSeed,
    }),
    target: t.field({
      type: "JSON",
      nullable: true,
      description: "Link pages: the content reference they point at.",
      resolve: (node) => (node.page.type === "link" && node.page.href ? { kind: "url", url: node.page.href } : null),
    }),
    urls: t.field({
      type: builder.objectRef<{ app: string }>("RevisionPageURLs").implement({
        description: "Addresses of a page.",
        fields: (u) => ({
          app: u.expose("app", {
            type: "URL",
            description: "The page in the space's current content, on this server.",
          }),
        }),
      }),
      nullable: true,
      description: "Documents: where the page is; null for groups and links.",
      resolve: (node, _args, ctx) =>
        node.page.type === "document" ? { app: pageAppUrl(ctx, node.spaceId, node.page.id) } : null,
    }),
    markdown: t.string({
      nullable: true,
      description: "The page's body as markdown; null for groups and links, and when `format` is not markdown.",
      extensions: { cost: markdownCost },
      args: {
        format: t.arg({ type: PageFormatEnum, defaultValue: "markdown", description: formatDescription("markdown") }),
        evaluated: t.arg.string({ description: evaluatedDescription }),
      },
      resolve: async (node, args, ctx) =>
        args.format === "markdown" ? ((await pageBody(ctx, node, "markdown", args.evaluated)) as string | null) : null,
    }),
    document: t.field({
      type: "JSON",
      nullable: true,
      description:
        "The page's body as a rich-text document; null for groups and links, and when `format` is not document.",
      extensions: { cost: documentCost },
      args: {
        format: t.arg({ type: PageFormatEnum, defaultValue: "document", description: formatDescription("document") }),
        evaluated: t.arg.string({ description: evaluatedDescription }),
      },
      resolve: (node, args, ctx) =>
        args.format === "document" ? pageBody(ctx, node, "document", args.evaluated) : null,
    }),
  }),
});

builder.node(RevisionFileRef, {
  description:
    "A file of a revision. Its bytes are served at downloadURL to callers who may read the space. Its `id` is this " +
    "revision's file; `fileId` is the same in every revision.",
  id: { resolve: (file) => pairIdOf("RevisionFile", file.revisionId, file.id) },
  ...loadBranded(RevisionFileRef, (ids, ctx) => loadVisibleRevisionFiles(ctx, ids)),
  fields: (t) => ({
    fileId: t.exposeID("id", { description: "The file's id, the same in every revision." }),
    revisionId: t.exposeID("revisionId", {
      description: "The id of the revision this file is read in (the id of `revision`).",
    }),
    revision: t.field({
      type: RevisionRef,
      description: "The revision this file is read in.",
      resolve: (file, _args, ctx) => revisionOf(ctx, file.revisionId),
    }),
    name: t.exposeString("name", { description: "The file name." }),
    contentType: t.exposeString("contentType", { description: "Its MIME type." }),
    size: t.exposeInt("size", { description: "Its size in bytes." }),
    downloadURL: t.field({
      type: "URL",
      description: "Where its bytes are served, to callers who may read the space.",
      resolve: (file, _args, ctx) => fileDownloadUrl(ctx, file),
    }),
    dimensions: t.field({
      type: builder.objectRef<{ width: number; height: number }>("FileDimensions").implement({
        description: "The size of an image, in pixels.",
        fields: (d) => ({
          width: d.exposeInt("width", { description: "Width in pixels." }),
          height: d.exposeInt("height", { description: "Height in pixels." }),
        }),
      }),
      nullable: true,
      description: "Images whose size was given at upload: their size; null otherwise.",
      resolve: (file) =>
        file.width !== null && file.height !== null ? { width: file.width, height: file.height } : null,
    }),
  }),
});

builder.node(RevisionRef, {
  extensions: { restObjectName: "revision" },
  description: "An immutable snapshot of a space's content. Readable by whoever may read the space.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleRevisions(ctx, ids),
  fields: (t) => ({
    parents: t.exposeStringList("parents", { description: "Ids of the parent revisions." }),
    spaceId: t.exposeID("spaceId", { description: "Id of its space (the id of `space`)." }),
    space: t.field({
      type: SpaceRef,
      description: "The space it is a snapshot of (of a change request's content too).",
      resolve: (revision, _args, ctx) => parentSpace(ctx, revision.spaceId),
    }),
    type: t.expose("type", { type: RevisionTypeEnum, description: "How the revision was made." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When the revision was made." }),
    pages: t.field({
      type: [RevisionPageRef],
      description: "The pages at the root, each with its subpages.",
      extensions: { cost: pageListCost },
      resolve: async (revision, _args, ctx) => (await revisionTree(ctx, revision)).roots,
    }),
    pageList: t.field({
      type: [RevisionPageRef],
      description: "Every page, flat in tree order, each with its parent (listPages, listPagesInChangeRequest).",
      extensions: { cost: pageListCost, restNestsByParent: true },
      resolve: async (revision, _args, ctx) => (await revisionTree(ctx, revision)).all,
    }),
    page: t.field({
      type: RevisionPageRef,
      nullable: true,
      description: "A page by id (getPageById, getPageInChangeRequestById); null when the revision has no such page.",
      args: { id: t.arg.id({ required: true, description: "The page's id." }) },
      resolve: (revision, args, ctx) => contentReads(ctx).page(revision, args.id),
    }),
    files: t.field({
      type: [RevisionFileRef],
      description: "Every file of the revision (fileConnection pages through them).",
      resolve: (revision, _args, ctx) => revisionFiles(ctx, revision),
    }),
    fileConnection: t.connection({
      type: RevisionFileRef,
      description: "The files a page at a time (listFiles, listFilesInChangeRequestById).",
      resolve: (revision, args, ctx) => listRevisionFiles(ctx, revision, args),
    }),
    file: t.field({
      type: RevisionFileRef,
      nullable: true,
      description: "A file by id (getFileById, getFileInChangeRequestById); null when the revision has no such file.",
      args: { id: t.arg.id({ required: true, description: "The file's id." }) },
      resolve: (revision, args, ctx) => revisionFile(ctx, revision, args.id),
    }),
    git: t.field({
      type: RevisionGitRef,
      nullable: true,
      description:
        "The Git commit the revision was imported from or exported to; null when none, or when metadata is false.",
      resolve: (revision) => (revision.metadata === false ? null : (revision.git as RevisionGit | null)),
    }),
    reusableContents: t.field({
      type: "JSON",
      description: "The revision's reusable content blocks (a list; empty here).",
      resolve: (revision) => revision.reusableContents,
    }),
    tags: t.field({ type: "JSON", description: "Always empty: there are no content tags here.", resolve: () => [] }),
    variables: t.field({
      type: "JSON",
      description: "The space-level variables of expressions, name to value.",
      resolve: (revision) => revision.variables,
    }),
    urls: t.field({
      type: builder.objectRef<{ app: string }>("RevisionURLs").implement({
        description: "Addresses of a revision.",
        fields: (u) => ({ app: u.expose("app", { type: "URL", description: "The revision on this server's API." }) }),
      }),
      description: "Where the revision is.",
      resolve: (revision, _args, ctx) => ({
        app: `${ctx.config.publicUrl}/v1/spaces/${revision.spaceId}/revisions/${revision.id}`,
      }),
    }),
  }),
});

builder.objectFields(SpaceRef, (t) => ({
  revision: t.field({
    type: RevisionRef,
    description: "The active revision: the live content (`content` reads it with read options).",
    resolve: (space, _args, ctx) => spaceRevision(ctx, space),
  }),
  content: t.field({
    type: RevisionRef,
    description: "The space's current content (getCurrentRevision).",
    args: {
      metadata: t.arg.boolean({ description: metadataDescription }),
      computed: t.arg.boolean({ description: computedDescription }),
    },
    resolve: async (space, args, ctx) => revisionRead(await spaceRevision(ctx, space), args),
  }),
}));
