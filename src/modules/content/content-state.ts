import { z } from "zod";
import { InvalidInputError } from "../../lib/errors.ts";
import { checkNesting } from "../../lib/markdown/syntax.ts";
import { placeAmong } from "../../lib/placement.ts";
import { slugify } from "../../lib/slug.ts";
import { parseInput } from "../../lib/validation.ts";
import { newId } from "../../platform/ids.ts";

/**
 * A revision's content as plain values: what edits apply to and what merges compare. Pages keep the id of the
 * stored version they came from while unchanged (`versionId`), so writing a revision stores only changed pages.
 */
export interface PageState {
  id: string;
  versionId: string | null;
  parentId: string | null;
  position: number;
  type: "document" | "group" | "link";
  title: string;
  emoji: string | null;
  slug: string;
  description: string | null;
  markdown: string;
  layout: Record<string, unknown> | null;
  cover: Record<string, unknown> | null;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  variables: Record<string, unknown>;
  href: string | null;
  /** A computed page's definition (its body is generated on read from what it depends on), else null. */
  computed: ComputedPage | null;
  computedSeed: string | null;
  /** Where the page lives in a Git repository, kept across edits so that an export writes it back there. */
  git: GitBlob | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The public API's computed content source of a page: `builtin:openapi` renders an OpenAPI spec's operations. */
export interface ComputedPage {
  type: "builtin:openapi";
  dependencies: { spec: { ref: { kind: "openapi"; spec: string } } };
  /** `doc: "operations"` and `page`: a tag of the spec, or `*` for every tag. */
  props: { doc: "operations"; page: string };
}

/** A blob of a Git tree: its object id and path. */
export interface GitBlob {
  oid: string;
  path: string;
}

export interface FileState {
  id: string;
  name: string;
  contentType: string;
  blobHash: string;
  size: number;
  width: number | null;
  height: number | null;
}

export interface ContentState {
  pages: Map<string, PageState>;
  files: Map<string, FileState>;
  variables: Record<string, unknown>;
}

/** New file bytes an edit brings, stored by hash with the revision. */
export interface NewBlob {
  hash: string;
  bytes: Buffer;
}

export function emptyContent(): ContentState {
  return { pages: new Map(), files: new Map(), variables: {} };
}

function cloneContent(state: ContentState): ContentState {
  return { pages: new Map(state.pages), files: new Map(state.files), variables: { ...state.variables } };
}

const byPosition = (a: PageState, b: PageState) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Children of a page (or the root for null), in order. */
export function childrenOf(state: ContentState, parentId: string | null): PageState[] {
  return [...state.pages.values()].filter((page) => page.parentId === parentId).sort(byPosition);
}

/** The children of every page that has some (the root's under null), in order: one pass over the whole tree. */
export function childrenByParent(state: ContentState): Map<string | null, PageState[]> {
  const byParent = new Map<string | null, PageState[]>();
  for (const page of state.pages.values()) {
    const siblings = byParent.get(page.parentId) ?? [];
    siblings.push(page);
    byParent.set(page.parentId, siblings);
  }
  for (const siblings of byParent.values()) siblings.sort(byPosition);
  return byParent;
}

/** Every page in tree order (depth first), with its path and depth. */
export function pagesInTreeOrder(state: ContentState): { page: PageState; path: string; depth: number }[] {
  const byParent = childrenByParent(state);
  const out: { page: PageState; path: string; depth: number }[] = [];
  const visit = (parentId: string | null, prefix: string, depth: number) => {
    for (const page of byParent.get(parentId) ?? []) {
      const path = prefix ? `${prefix}/${page.slug}` : page.slug;
      out.push({ page, path, depth });
      visit(page.id, path, depth + 1);
    }
  };
  visit(null, "", 0);
  return out;
}

/** Renumbers the children of `parentId` in the given order. */
export function writeOrder(state: ContentState, ids: readonly string[]) {
  for (const [position, id] of ids.entries()) {
    const page = state.pages.get(id);
    if (page && page.position !== position) state.pages.set(id, { ...page, position });
  }
}

const slugSchema = z
  .string()
  .max(100)
  .regex(/^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/, "lowercase letters and digits separated by - _ or .");
const variablesSchema = z.record(z.string().min(1).max(100), z.union([z.string(), z.number(), z.boolean()]));
export const positionSchema = z.strictObject({
  before: z.string().min(1).optional().describe("Id of a sibling page to place it just before"),
  after: z.string().min(1).optional().describe("Id of a sibling page to place it just after"),
});
const layoutSchema = z.strictObject({
  width: z.enum(["default", "wide"]).optional(),
  cover: z.boolean().optional(),
  coverSize: z.enum(["hero", "full"]).optional(),
  title: z.boolean().optional(),
  description: z.boolean().optional(),
  tableOfContents: z.boolean().optional(),
  outline: z.boolean().optional(),
  pagination: z.boolean().optional(),
  metadata: z.boolean().optional(),
  tags: z.boolean().optional(),
});
const coverSchema = z.strictObject({
  ref: z.record(z.string(), z.unknown()).optional(),
  refDark: z.record(z.string(), z.unknown()).optional(),
  yPos: z.number().finite().default(0),
  height: z.number().min(10).max(700).optional(),
});

/** The page fields an insert or update may set (an update sets only what it names). */
export const pageFieldsSchema = z.strictObject({
  title: z.string().trim().min(1).max(200).optional().describe("The page's title (required to insert a page)"),
  type: z.enum(["document", "group", "link"]).optional().describe("The kind of page; default document"),
  emoji: z.string().max(50).nullable().optional().describe("An emoji shown as the page's icon; null removes it"),
  slug: slugSchema
    .optional()
    .describe(
      "The page's path segment: lowercase letters and digits separated by - _ or .; default from the title, made " +
        "unique among its siblings",
    ),
  description: z.string().max(1000).nullable().optional().describe("A short summary of the page; null removes it"),
  markdown: z.string().max(1_000_000).optional().describe("The body of a document page, as markdown"),
  layout: layoutSchema
    .nullable()
    .optional()
    .describe(
      "Document pages' layout options, any of: width (default, wide), cover, coverSize (hero, full), title, " +
        "description, tableOfContents, outline, pagination, metadata, tags (booleans)",
    ),
  cover: coverSchema
    .nullable()
    .optional()
    .describe("The cover image: `{ ref, refDark, yPos, height }` (height 10..700 pixels); null removes it"),
  hidden: z.boolean().optional().describe("Flag for the published site: leave the page out of its navigation"),
  noIndex: z.boolean().optional().describe("Flag for the published site: leave the page out of its search"),
  noRobotsIndex: z
    .boolean()
    .optional()
    .describe("Flag for the published site: ask search engines not to index the page"),
  variables: variablesSchema
    .optional()
    .describe("The page's variables for expressions: names (1..100 characters) to strings, numbers or booleans"),
  href: z.url().max(2048).nullable().optional().describe("Link pages: the URL they point at"),
  parent: z.string().min(1).nullable().optional().describe("Id of the parent page; null moves it to the root"),
  position: positionSchema.optional().describe("Where among its siblings; default after the last one"),
});

export const fileUploadSchema = z.strictObject({
  name: z.string().trim().min(1).max(255).describe("The file name"),
  contentType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, "a MIME type")
    .max(255)
    .describe("Its MIME type, such as image/png"),
  content: z
    .string()
    .max(14_000_000)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, "base64")
    .describe("The bytes as standard base64 (at most 10 MB once decoded)"),
  width: z.number().int().min(0).optional().describe("Images: width in pixels"),
  height: z.number().int().min(0).optional().describe("Images: height in pixels"),
});

const changeSchema = z.union([
  z.strictObject({
    type: z.literal("insert"),
    page: pageFieldsSchema.extend({ title: z.string().trim().min(1).max(200) }),
  }),
  z.strictObject({ type: z.literal("insert"), file: fileUploadSchema }),
  z.strictObject({ type: z.literal("update"), pageId: z.string().min(1), page: pageFieldsSchema }),
  z.strictObject({ type: z.literal("delete"), pageId: z.string().min(1) }),
  z.strictObject({ type: z.literal("delete"), fileId: z.string().min(1) }),
]);

export const contentChangesSchema = z.strictObject({
  changes: z.array(changeSchema).min(1).max(50).describe("The changes, applied in order as one new revision"),
});

export interface AppliedChanges {
  state: ContentState;
  blobs: NewBlob[];
  /** Ids of inserted pages and files, in the order of the changes. */
  inserted: { type: "page" | "file"; id: string }[];
}

export function isDescendant(state: ContentState, pageId: string, ancestorId: string): boolean {
  for (let current = state.pages.get(pageId); current?.parentId; current = state.pages.get(current.parentId)) {
    if (current.parentId === ancestorId) return true;
  }
  return false;
}

/** `wanted`, or `wanted-2`, `wanted-3`... when a sibling of `self` under `parentId` has it. */
export function uniqueSlug(state: ContentState, parentId: string | null, wanted: string, self: string): string {
  const taken = new Set(childrenOf(state, parentId).flatMap((page) => (page.id === self ? [] : [page.slug])));
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

/**
 * Applies 1..50 changes in order to a copy of `base`. Any invalid change rejects the whole batch (400) so nothing
 * is written; `input` is the public API's body (`{ changes: [...] }`).
 */
export function applyContentChanges(
  base: ContentState,
  input: unknown,
  now: Date,
  sha256: (bytes: Buffer) => string,
): AppliedChanges {
  const { changes } = parseInput(contentChangesSchema, input);
  const state = cloneContent(base);
  const blobs: NewBlob[] = [];
  const inserted: AppliedChanges["inserted"] = [];
  for (const [index, change] of changes.entries()) {
    const fail = (message: string): never => {
      throw new InvalidInputError(`changes.${index}: ${message}`);
    };
    if ("file" in change) {
      const bytes = Buffer.from(change.file.content, "base64");
      if (bytes.length > 10 * 1024 * 1024) fail("files are limited to 10 MB");
      const hash = sha256(bytes);
      blobs.push({ hash, bytes });
      const id = newId("File");
      state.files.set(id, {
        id,
        name: change.file.name,
        contentType: change.file.contentType,
        blobHash: hash,
        size: bytes.length,
        width: change.file.width ?? null,
        height: change.file.height ?? null,
      });
      inserted.push({ type: "file", id });
      continue;
    }
    if ("fileId" in change) {
      if (!state.files.delete(change.fileId)) fail(`file ${change.fileId} does not exist`);
      continue;
    }
    if (change.type === "delete") {
      if (!state.pages.has(change.pageId)) fail(`page ${change.pageId} does not exist`);
      // A page goes with its subpages.
      for (const page of [...state.pages.values()]) {
        if (page.id === change.pageId || isDescendant(state, page.id, change.pageId)) state.pages.delete(page.id);
      }
      continue;
    }
    const fields = change.page;
    if (fields.markdown !== undefined) {
      try {
        checkNesting(fields.markdown);
      } catch {
        fail("the markdown is nested too deeply");
      }
    }
    const existing = change.type === "update" ? state.pages.get(change.pageId) : undefined;
    if (change.type === "update" && !existing) fail(`page ${change.pageId} does not exist`);
    if (existing?.computed && (fields.markdown !== undefined || (fields.type ?? "document") !== "document")) {
      fail(`page ${existing.id} is computed: its body is generated and it stays a document`);
    }
    const id = existing?.id ?? newId("Page");
    const parentId = fields.parent === undefined ? (existing?.parentId ?? null) : fields.parent;
    if (parentId !== null) {
      const parent = state.pages.get(parentId);
      if (!parent) fail(`parent page ${parentId} does not exist`);
      if (parent?.type === "link") fail("a link page cannot have subpages");
      if (parentId === id || isDescendant(state, parentId, id)) fail("a page cannot move under itself");
    }
    const title = fields.title ?? existing?.title ?? "";
    const wantedSlug = fields.slug ?? existing?.slug ?? slugify(title, "page");
    if (fields.slug !== undefined) {
      const clash = childrenOf(state, parentId).find((page) => page.slug === fields.slug && page.id !== id);
      if (clash) fail(`slug ${fields.slug} is taken by page ${clash.id} under the same parent`);
    }
    const type = fields.type ?? existing?.type ?? "document";
    if (type === "link" && !(fields.href ?? existing?.href)) fail("a link page needs href");
    const page: PageState = {
      id,
      versionId: null,
      parentId,
      position: existing?.position ?? Number.MAX_SAFE_INTEGER,
      type,
      title,
      emoji: fields.emoji === undefined ? (existing?.emoji ?? null) : fields.emoji,
      slug: uniqueSlug(state, parentId, wantedSlug, id),
      description: fields.description === undefined ? (existing?.description ?? null) : fields.description,
      markdown: type === "document" ? (fields.markdown ?? existing?.markdown ?? "") : "",
      layout: fields.layout === undefined ? (existing?.layout ?? null) : fields.layout,
      cover: fields.cover === undefined ? (existing?.cover ?? null) : fields.cover,
      hidden: fields.hidden ?? existing?.hidden ?? false,
      noIndex: fields.noIndex ?? existing?.noIndex ?? false,
      noRobotsIndex: fields.noRobotsIndex ?? existing?.noRobotsIndex ?? false,
      variables: fields.variables ?? existing?.variables ?? {},
      href: type === "link" ? (fields.href ?? existing?.href ?? null) : null,
      computed: existing?.computed ?? null,
      computedSeed: existing?.computedSeed ?? null,
      git: existing?.git ?? null,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    state.pages.set(id, page);
    if (!existing || fields.parent !== undefined || fields.position) {
      const siblings = childrenOf(state, parentId).map((sibling) => sibling.id);
      writeOrder(state, placeAmong(siblings, id, fields.position));
    }
    if (existing && existing.parentId !== parentId) {
      writeOrder(
        state,
        childrenOf(state, existing.parentId).map((sibling) => sibling.id),
      );
    }
    if (!existing) inserted.push({ type: "page", id });
  }
  return { state, blobs, inserted };
}
