import { builder } from "../../graphql/builder.ts";
import type { FieldCost } from "../../graphql/cost.ts";
import { SpaceRef } from "../space/space.graphql.ts";
import type { PageNode, RevisionFileView, RevisionRead } from "./content.loaders.ts";
import {
  type ContentEdit,
  fileDownloadUrl,
  listRevisionFiles,
  loadVisibleRevisions,
  pageAppUrl,
  pageBody,
  revisionFile,
  revisionFiles,
  revisionPage,
  revisionRead,
  revisionTree,
  spaceRevision,
  updateSpaceContent,
} from "./content.service.ts";
import type { GitBlob } from "./content-state.ts";
import type { RevisionGit } from "./revision.service.ts";

export const RevisionRef = builder.objectRef<RevisionRead>("Revision");
export const RevisionPageRef = builder.objectRef<PageNode>("RevisionPage");
export const RevisionFileRef = builder.objectRef<RevisionFileView>("RevisionFile");

const GitBlobRef = builder.objectRef<GitBlob>("GitSyncBlob").implement({
  fields: (t) => ({ oid: t.exposeString("oid"), path: t.exposeString("path") }),
});

const RevisionGitRef = builder.objectRef<RevisionGit>("GitSyncCommit").implement({
  fields: (t) => ({
    oid: t.exposeString("oid"),
    message: t.exposeString("message"),
    ref: t.exposeString("ref"),
    url: t.exposeString("url", { nullable: true }),
    createdByService: t.exposeBoolean("createdByService", { description: "True for commits an export made." }),
  }),
});

export const PageFormatEnum = builder.enumType("PageFormat", { values: ["document", "markdown"] as const });

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

const evaluatedDescription = "true, false (default) or deterministic-only: evaluate variable expressions.";

RevisionPageRef.implement({
  description: "A page of a revision: a document, a group of pages or a link.",
  fields: (t) => ({
    id: t.string({ resolve: (node) => node.page.id }),
    title: t.string({ resolve: (node) => node.page.title }),
    emoji: t.string({ nullable: true, resolve: (node) => node.page.emoji }),
    type: t.string({ description: "document, group or link.", resolve: (node) => node.page.type }),
    kind: t.string({
      deprecationReason: "Use type.",
      resolve: (node) => (node.page.type === "document" ? "sheet" : node.page.type),
    }),
    createdAt: t.field({ type: "DateTime", resolve: (node) => node.page.createdAt }),
    updatedAt: t.field({ type: "DateTime", resolve: (node) => node.page.updatedAt }),
    slug: t.string({ resolve: (node) => node.page.slug }),
    path: t.string({ description: "Complete path of the page in the revision.", resolve: (node) => node.path }),
    description: t.string({ nullable: true, resolve: (node) => node.page.description }),
    git: t.field({
      type: GitBlobRef,
      nullable: true,
      description: "Where the page lives in the synchronized Git repository.",
      resolve: (node) => (node.showGitMetadata ? node.page.git : null),
    }),
    parent: t.string({
      nullable: true,
      description: "Id of the parent page; null at the root.",
      resolve: (node) => node.parentId,
    }),
    pages: t.field({
      type: [RevisionPageRef],
      description: "Direct subpages, in order.",
      resolve: (node) => node.pages,
    }),
    descendants: t.field({
      type: [RevisionPageRef],
      description: "Every page under this one, flat in tree order (each with its parent).",
      extensions: { cost: pageListCost },
      resolve: (node) => {
        const out: PageNode[] = [];
        const visit = (pages: PageNode[]) => {
          for (const page of pages) {
            out.push(page);
            visit(page.pages);
          }
        };
        visit(node.pages);
        return out;
      },
    }),
    layout: t.field({
      type: "JSON",
      nullable: true,
      resolve: (node) => (node.page.type === "document" ? { ...defaultLayout, ...node.page.layout } : null),
    }),
    cover: t.field({ type: "JSON", nullable: true, resolve: (node) => node.page.cover }),
    variables: t.field({
      type: "JSON",
      nullable: true,
      resolve: (node) => (node.page.type === "document" ? node.page.variables : null),
    }),
    hidden: t.boolean({ resolve: (node) => node.page.hidden }),
    noIndex: t.boolean({ nullable: true, resolve: (node) => (node.page.type === "link" ? null : node.page.noIndex) }),
    noRobotsIndex: t.boolean({
      nullable: true,
      resolve: (node) => (node.page.type === "link" ? null : node.page.noRobotsIndex),
    }),
    tags: t.field({
      type: "JSON",
      nullable: true,
      description: "Always empty: pages carry no tags here.",
      resolve: (node) => (node.page.type === "document" ? [] : null),
    }),
    href: t.string({ nullable: true, resolve: (node) => node.page.href }),
    computed: t.field({
      type: "JSON",
      nullable: true,
      description: "Computed pages: what generates the body ({ type: builtin:openapi, dependencies, props }).",
      resolve: (node) => node.page.computed,
    }),
    computedSeed: t.string({ nullable: true, resolve: (node) => node.page.computedSeed }),
    target: t.field({
      type: "JSON",
      nullable: true,
      description: "Link pages: the content reference they point at.",
      resolve: (node) => (node.page.type === "link" && node.page.href ? { kind: "url", url: node.page.href } : null),
    }),
    urls: t.field({
      type: builder.objectRef<{ app: string }>("RevisionPageUrls").implement({
        fields: (u) => ({ app: u.exposeString("app") }),
      }),
      nullable: true,
      resolve: (node, _args, ctx) =>
        node.page.type === "document" ? { app: pageAppUrl(ctx, node.spaceId, node.page.id) } : null,
    }),
    markdown: t.string({
      nullable: true,
      description: "The page's body as markdown; null for groups and links, and when `format` is not markdown.",
      extensions: { cost: markdownCost },
      args: {
        format: t.arg({ type: PageFormatEnum, defaultValue: "markdown" }),
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
        format: t.arg({ type: PageFormatEnum, defaultValue: "document" }),
        evaluated: t.arg.string({ description: evaluatedDescription }),
      },
      resolve: (node, args, ctx) =>
        args.format === "document" ? pageBody(ctx, node, "document", args.evaluated) : null,
    }),
  }),
});

RevisionFileRef.implement({
  description: "A file of a revision. Its bytes are served at downloadURL to callers who may read the space.",
  fields: (t) => ({
    id: t.exposeString("id"),
    name: t.exposeString("name"),
    contentType: t.exposeString("contentType"),
    size: t.exposeInt("size"),
    downloadURL: t.string({ resolve: (file, _args, ctx) => fileDownloadUrl(ctx, file) }),
    dimensions: t.field({
      type: builder.objectRef<{ width: number; height: number }>("FileDimensions").implement({
        fields: (d) => ({ width: d.exposeInt("width"), height: d.exposeInt("height") }),
      }),
      nullable: true,
      resolve: (file) =>
        file.width !== null && file.height !== null ? { width: file.width, height: file.height } : null,
    }),
  }),
});

builder.node(RevisionRef, {
  description: "An immutable snapshot of a space's content.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleRevisions(ctx, ids),
  fields: (t) => ({
    parents: t.exposeStringList("parents", { description: "Ids of the parent revisions." }),
    type: t.exposeString("type", { description: "edits, merge or update." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    pages: t.field({
      type: [RevisionPageRef],
      description: "The pages at the root, each with its subpages.",
      extensions: { cost: pageListCost },
      resolve: async (revision, _args, ctx) => (await revisionTree(ctx, revision)).roots,
    }),
    pageList: t.field({
      type: [RevisionPageRef],
      description: "Every page, flat in tree order (each with its parent).",
      extensions: { cost: pageListCost },
      resolve: async (revision, _args, ctx) => (await revisionTree(ctx, revision)).all,
    }),
    page: t.field({
      type: RevisionPageRef,
      nullable: true,
      description: "getPageById",
      args: { id: t.arg.string({ required: true }) },
      resolve: (revision, args, ctx) => revisionPage(ctx, revision, args.id),
    }),
    files: t.field({ type: [RevisionFileRef], resolve: (revision, _args, ctx) => revisionFiles(ctx, revision) }),
    fileConnection: t.connection({
      type: RevisionFileRef,
      description: "listFiles: the files a page at a time.",
      resolve: (revision, args, ctx) => listRevisionFiles(ctx, revision, args),
    }),
    file: t.field({
      type: RevisionFileRef,
      nullable: true,
      description: "getFileById",
      args: { id: t.arg.string({ required: true }) },
      resolve: (revision, args, ctx) => revisionFile(ctx, revision, args.id),
    }),
    git: t.field({
      type: RevisionGitRef,
      nullable: true,
      description: "The Git commit the revision was imported from.",
      resolve: (revision) => (revision.metadata === false ? null : (revision.git as RevisionGit | null)),
    }),
    reusableContents: t.field({ type: "JSON", resolve: (revision) => revision.reusableContents }),
    tags: t.field({ type: "JSON", description: "Always empty: there are no content tags here.", resolve: () => [] }),
    variables: t.field({ type: "JSON", resolve: (revision) => revision.variables }),
    urls: t.field({
      type: builder.objectRef<{ app: string }>("RevisionUrls").implement({
        fields: (u) => ({ app: u.exposeString("app") }),
      }),
      resolve: (revision, _args, ctx) => ({
        app: `${ctx.config.publicUrl}/v1/spaces/${revision.spaceId}/revisions/${revision.id}`,
      }),
    }),
  }),
});

builder.objectFields(SpaceRef, (t) => ({
  content: t.field({
    type: RevisionRef,
    description: "getCurrentRevision: the space's active revision.",
    args: {
      metadata: t.arg.boolean({ description: metadataDescription }),
      computed: t.arg.boolean({ description: computedDescription }),
    },
    resolve: async (space, args, ctx) => revisionRead(await spaceRevision(ctx, space), args),
  }),
}));

export const ContentEditRef = builder.objectRef<ContentEdit>("ContentEdit").implement({
  description: "The revision a batch of content changes made, and the ids of what it inserted.",
  fields: (t) => ({
    revision: t.exposeString("revision"),
    result: t.exposeString("result"),
    inserted: t.field({
      type: [
        builder.objectRef<ContentEdit["inserted"][number]>("InsertedContent").implement({
          fields: (i) => ({ type: i.exposeString("type", { description: "page or file" }), id: i.exposeString("id") }),
        }),
      ],
      resolve: (edit) => edit.inserted,
    }),
  }),
});

const PagePositionInput = builder.inputType("PagePositionInput", {
  fields: (t) => ({ before: t.string({ description: "A sibling page id." }), after: t.string() }),
});

const PageChangeInput = builder.inputType("PageChangeInput", {
  description: "Page fields; an update sets only the fields it names.",
  fields: (t) => ({
    title: t.string(),
    type: t.string({ description: "document (default), group or link." }),
    emoji: t.string(),
    slug: t.string({ description: "Default: from the title; unique among its siblings." }),
    description: t.string(),
    markdown: t.string({ description: "The body (documents)." }),
    layout: t.field({ type: "JSON" }),
    cover: t.field({ type: "JSON" }),
    hidden: t.boolean(),
    noIndex: t.boolean(),
    noRobotsIndex: t.boolean(),
    variables: t.field({ type: "JSON" }),
    href: t.string({ description: "Link pages: the URL." }),
    parent: t.string({ description: "Parent page id; null: the root." }),
    position: t.field({ type: PagePositionInput, description: "Default: after the last sibling." }),
  }),
});

const FileUploadInput = builder.inputType("FileUploadInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    contentType: t.string({ required: true }),
    content: t.string({ required: true, description: "The bytes, base64." }),
    width: t.int(),
    height: t.int(),
  }),
});

const ContentChangeInput = builder.inputType("ContentChangeInput", {
  description:
    "One change: insert a page (`page`) or a file (`file`), update a page (`pageId` and `page`), delete a page " +
    "(`pageId`, with its subpages) or a file (`fileId`).",
  fields: (t) => ({
    type: t.string({ required: true, description: "insert, update or delete." }),
    pageId: t.string(),
    fileId: t.string(),
    page: t.field({ type: PageChangeInput }),
    file: t.field({ type: FileUploadInput }),
  }),
});

export const ContentChangesInput = builder.inputType("ContentChangesInput", {
  fields: (t) => ({ changes: t.field({ type: [ContentChangeInput], required: true, description: "1..50 changes." }) }),
});

builder.mutationFields((t) => ({
  updateSpaceContent: t.field({
    type: ContentEditRef,
    description: "Edits the space's content directly (spaces that are not locked): one new revision per call.",
    args: { spaceId: t.arg.id({ required: true }), input: t.arg({ type: ContentChangesInput, required: true }) },
    resolve: (_root, args, ctx) => updateSpaceContent(ctx, String(args.spaceId), args.input),
  }),
}));
