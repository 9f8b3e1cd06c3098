import { createHash } from "node:crypto";
import type { PrismaExecutor } from "../../db/database.ts";
import type { PageVersion, Prisma, RevisionFile, RevisionPage } from "../../db/generated/client.ts";
import type { MarkdownSection } from "../../lib/markdown/text.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestBudget } from "../../request/request-budget.ts";
import type { HeavyWork } from "../../workers/heavy-work.ts";
import { type ContentState, emptyContent, type FileState, type NewBlob, type PageState } from "./content-state.ts";
import { pageVersionLinkRows } from "./link-extraction.ts";
import { pageVersionSectionRows } from "./page-sections.ts";

/** How revisions are read from and written to the database; the content and change request services call it inside their transactions. */

export const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

type RevisionPageRow = RevisionPage & { version: PageVersion };

/** A version's columns as reads select them: the markdown only where a read fetched it. */
type VersionView = Omit<PageVersion, "id" | "spaceId" | "pageId" | "markdown" | "linksExtracted"> & {
  markdown?: string;
};

/** A page row of a revision as reads select it (trees leave out the markdown bodies). */
export type RevisionPageView = Pick<
  RevisionPage,
  "revisionId" | "pageId" | "versionId" | "parentPageId" | "position"
> & {
  version: VersionView;
};

/**
 * A stored page as reads show it: its markdown is there when the read fetched it (one page read by id), absent in
 * a tree (`pageMarkdown` loads it then, for the pages whose body is asked for).
 */
export type PageView = Omit<PageState, "versionId" | "markdown"> & { versionId: string; markdown?: string };

export function pageViewOf(row: RevisionPageView): PageView {
  const { version } = row;
  return {
    id: row.pageId,
    versionId: row.versionId,
    parentId: row.parentPageId,
    position: row.position,
    type: version.type as PageState["type"],
    title: version.title,
    emoji: version.emoji,
    slug: version.slug,
    description: version.description,
    ...(version.markdown === undefined ? {} : { markdown: version.markdown }),
    layout: version.layout as PageState["layout"],
    cover: version.cover as PageState["cover"],
    hidden: version.hidden,
    noIndex: version.noIndex,
    noRobotsIndex: version.noRobotsIndex,
    variables: version.variables as PageState["variables"],
    href: version.href,
    computed: version.computed as PageState["computed"],
    computedSeed: version.computedSeed,
    git: version.git as PageState["git"],
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
  };
}

function pageStateOf(row: RevisionPageRow): PageState {
  return { ...pageViewOf(row), markdown: row.version.markdown };
}

export function fileStateOf(row: RevisionFile): FileState {
  return {
    id: row.fileId,
    name: row.name,
    contentType: row.contentType,
    blobHash: row.blobHash,
    size: row.size,
    width: row.width,
    height: row.height,
  };
}

/** A revision's whole content in three statements, whatever its size. */
export async function readContentState(db: PrismaExecutor, revisionId: string): Promise<ContentState> {
  const [revision, pages, files] = await Promise.all([
    db.revision.findUnique({ where: { id: revisionId }, select: { variables: true } }),
    db.revisionPage.findMany({ where: { revisionId }, include: { version: true } }),
    db.revisionFile.findMany({ where: { revisionId } }),
  ]);
  if (!revision) throw new Error(`Revision ${revisionId} is missing`);
  return {
    pages: new Map(pages.map((row) => [row.pageId, pageStateOf(row)])),
    files: new Map(files.map((row) => [row.fileId, fileStateOf(row)])),
    variables: revision.variables as ContentState["variables"],
  };
}

/** A revision's page rows with their versions' columns but the markdown, as the outline of a write reads them. */
type OutlineRow = Omit<RevisionPageView, "version"> & Omit<RevisionPageView["version"], "markdown">;

/**
 * A revision's content without the markdown of its pages (each stored page's `markdown` is empty): what a write in
 * it or a merge of it decides on, in three statements whatever its size, without its bodies. The bodies a write
 * changes or a merge compares are loaded then (`readPageBodies`); a page without its body must not get a new version.
 */
export async function readContentOutline(db: PrismaExecutor, revisionId: string): Promise<ContentState> {
  const [revision, pages, files] = await Promise.all([
    db.revision.findUnique({ where: { id: revisionId }, select: { variables: true } }),
    db.$queryRaw<OutlineRow[]>`
      SELECT rp."revisionId", rp."pageId", rp."versionId", rp."parentPageId", rp."position", pv."type", pv."title",
        pv."emoji", pv."slug", pv."description", pv."layout", pv."cover", pv."hidden", pv."noIndex",
        pv."noRobotsIndex", pv."variables", pv."href", pv."computed", pv."computedSeed", pv."git", pv."createdAt",
        pv."updatedAt"
      FROM "RevisionPage" AS rp
      JOIN "PageVersion" AS pv ON pv."id" = rp."versionId"
      WHERE rp."revisionId" = ${revisionId}`,
    db.revisionFile.findMany({ where: { revisionId } }),
  ]);
  if (!revision) throw new Error(`Revision ${revisionId} is missing`);
  return {
    pages: new Map(
      pages.map(({ revisionId: rowRevisionId, pageId, versionId, parentPageId, position, ...version }) => [
        pageId,
        {
          ...pageViewOf({ revisionId: rowRevisionId, pageId, versionId, parentPageId, position, version }),
          markdown: "",
        },
      ]),
    ),
    files: new Map(files.map((row) => [row.fileId, fileStateOf(row)])),
    variables: revision.variables as ContentState["variables"],
  };
}

/**
 * The stored markdown of the pages `pageIds` in `states` (read as outlines), by version id, in one statement: the
 * bodies a write or a merge needs and no other.
 */
export async function readPageBodies(
  db: PrismaExecutor,
  states: readonly ContentState[],
  pageIds: Iterable<string>,
): Promise<Map<string, string>> {
  const ids = [...pageIds];
  const versionIds = new Set(states.flatMap((state) => ids.flatMap((id) => state.pages.get(id)?.versionId ?? [])));
  if (versionIds.size === 0) return new Map();
  const rows = await db.pageVersion.findMany({
    where: { id: { in: [...versionIds] } },
    select: { id: true, markdown: true },
  });
  return new Map(rows.map((row) => [row.id, row.markdown]));
}

/** `state` with the markdown of its pages whose version `bodies` holds (`readPageBodies`). */
export function withBodies(state: ContentState, bodies: ReadonlyMap<string, string>): ContentState {
  if (bodies.size === 0) return state;
  const pages = new Map(state.pages);
  for (const page of state.pages.values()) {
    const markdown = page.versionId ? bodies.get(page.versionId) : undefined;
    if (markdown !== undefined) pages.set(page.id, { ...page, markdown });
  }
  return { ...state, pages };
}

export interface NewRevision {
  /** Given when the id must be known before the row exists (a new space points at its first revision). */
  id?: string;
  spaceId: string;
  parents: string[];
  type: "edits" | "merge" | "update";
  changeRequestId?: string | null;
  createdById: string | null;
  createdAt: Date;
  state: ContentState;
  /**
   * The revision `state` was made from, with its content as read (an outline is enough): its page and file rows are
   * copied in SQL and only those `state` changes are sent, so a write costs what it changed, not the space's size.
   */
  from?: { revisionId: string; state: ContentState };
  blobs?: NewBlob[];
  /** The commit an import made this revision from. */
  git?: RevisionGit;
  /** What the new pages' markdown links to (`newPageLinks`); pages missing here are parsed in the transaction. */
  links?: PageLinks;
  /**
   * The new pages' sections (`newPageSections`), stored for search. Pages missing here get none (search splits
   * their markdown when it reads them): no markdown is parsed in the transaction for them.
   */
  sections?: PageSections;
}

/** By page id, the URLs a new page version's markdown links to. */
export type PageLinks = ReadonlyMap<string, readonly string[]>;

/** By page id, a new document version's sections. */
export type PageSections = ReadonlyMap<string, readonly MarkdownSection[]>;

/**
 * The links of the pages of `state` that need a new version, converted before a write's transaction opens (large
 * pages on a worker thread, src/workers/heavy-work.ts): a transaction then never waits on markdown parsing, and the
 * event loop is not held by it. Not charged to the request's conversion bytes: a write's markdown is bounded by
 * the request body.
 */
export async function newPageLinks(budget: RequestBudget, state: ContentState): Promise<PageLinks> {
  const pages = [...state.pages.values()].filter((page) => page.versionId === null && page.type === "document");
  const urls = await Promise.all(pages.map((page) => budget.convertUncharged("links", page.markdown)));
  return new Map(pages.map((page, index) => [page.id, urls[index] ?? []]));
}

/**
 * The sections of the pages of `state` that need a new version, split before a write's transaction opens (as
 * `newPageLinks`, large pages on a worker thread), so search reads them stored instead of splitting hit pages on
 * every search. Not charged to the writer's points: the split is search's work done ahead (a search that splits a
 * page is charged), and a write of large pages costs what it did before sections were stored. A page whose split is
 * refused (sections larger than a conversion may answer, a busy worker pool) is left out: the write does not depend
 * on it, and search splits that page when it reads it, as it does for versions written before sections were stored.
 */
export async function newPageSections(work: HeavyWork, state: ContentState): Promise<PageSections> {
  const pages = [...state.pages.values()].filter((page) => page.versionId === null && page.type === "document");
  const sections = await Promise.all(pages.map((page) => work.convert("sections", page.markdown).catch(() => null)));
  return new Map(
    pages.flatMap((page, index) => {
      const split = sections[index];
      return split ? [[page.id, split] as const] : [];
    }),
  );
}

/** Revision `git`: the commit a revision was imported from. */
export interface RevisionGit {
  oid: string;
  message: string;
  ref: string;
  url?: string;
  createdByService: boolean;
}

/**
 * Writes a revision: only pages without a stored version get one (unchanged pages point at the versions they
 * share with earlier revisions), with the links of its markdown, and file bytes are stored once per hash.
 * Returns the new revision's id.
 */
export async function writeRevision(tx: PrismaExecutor, revision: NewRevision): Promise<string> {
  const id = revision.id ?? newId("Revision");
  const pages = [...revision.state.pages.values()].map((page) =>
    page.versionId
      ? { page, versionId: page.versionId, isNew: false }
      : { page, versionId: newId("PageVersion"), isNew: true },
  );
  const newVersions = pages.filter((entry) => entry.isNew);
  if (newVersions.length > 0) {
    await tx.pageVersion.createMany({
      data: newVersions.map(({ page, versionId }) => ({
        id: versionId,
        spaceId: revision.spaceId,
        pageId: page.id,
        type: page.type,
        title: page.title,
        emoji: page.emoji,
        slug: page.slug,
        description: page.description,
        markdown: page.markdown,
        layout: (page.layout ?? undefined) as Prisma.InputJsonValue | undefined,
        cover: (page.cover ?? undefined) as Prisma.InputJsonValue | undefined,
        hidden: page.hidden,
        noIndex: page.noIndex,
        noRobotsIndex: page.noRobotsIndex,
        variables: page.variables as Prisma.InputJsonValue,
        href: page.href,
        computed: (page.computed ?? undefined) as Prisma.InputJsonValue | undefined,
        computedSeed: page.computedSeed,
        git: (page.git ?? undefined) as Prisma.InputJsonValue | undefined,
        createdAt: page.createdAt,
        updatedAt: page.updatedAt,
        linksExtracted: true,
      })),
    });
    const links = newVersions.flatMap(({ page, versionId }) =>
      pageVersionLinkRows(versionId, page, revision.links?.get(page.id)),
    );
    if (links.length > 0) await tx.pageVersionLink.createMany({ data: links });
    const sections = newVersions.flatMap(({ page, versionId }) => {
      const split = revision.sections?.get(page.id);
      return split ? pageVersionSectionRows(versionId, page.title, split) : [];
    });
    if (sections.length > 0) await tx.pageVersionSection.createMany({ data: sections });
  }
  const blobs = revision.blobs ?? [];
  if (blobs.length > 0) {
    await tx.fileBlob.createMany({
      data: blobs.map((blob) => ({ hash: blob.hash, bytes: new Uint8Array(blob.bytes), size: blob.bytes.length })),
      skipDuplicates: true,
    });
  }
  await tx.revision.create({
    data: {
      id,
      spaceId: revision.spaceId,
      parents: revision.parents,
      type: revision.type,
      changeRequestId: revision.changeRequestId ?? null,
      variables: revision.state.variables as Prisma.InputJsonValue,
      git: revision.git ? (revision.git as unknown as Prisma.InputJsonValue) : undefined,
      createdById: revision.createdById,
      createdAt: revision.createdAt,
    },
  });
  const from = revision.from;
  const pageRows = pages.map(({ page, versionId }) => ({
    revisionId: id,
    pageId: page.id,
    versionId,
    parentPageId: page.parentId,
    position: page.position,
  }));
  const changedRows = from
    ? pageRows.filter((row) => {
        const before = from.state.pages.get(row.pageId);
        return (
          !before ||
          before.versionId !== row.versionId ||
          before.parentId !== row.parentPageId ||
          before.position !== row.position
        );
      })
    : pageRows;
  if (from) {
    // The parent's rows but those this revision changes or removes, copied where they are.
    const changed = new Set(changedRows.map((row) => row.pageId));
    const replaced = [...from.state.pages.keys()].filter(
      (pageId) => changed.has(pageId) || !revision.state.pages.has(pageId),
    );
    if (replaced.length < from.state.pages.size) {
      await tx.$executeRaw`
      INSERT INTO "RevisionPage" ("revisionId", "pageId", "versionId", "parentPageId", "position")
      SELECT ${id}, "pageId", "versionId", "parentPageId", "position" FROM "RevisionPage"
      WHERE "revisionId" = ${from.revisionId} AND NOT ("pageId" = ANY(${replaced}::text[]))`;
    }
  }
  if (changedRows.length > 0) await tx.revisionPage.createMany({ data: changedRows });
  const files = [...revision.state.files.values()];
  const changedFiles = from ? files.filter((file) => !sameFile(from.state.files.get(file.id), file)) : files;
  if (from) {
    const replaced = [...from.state.files.values()].flatMap((file) =>
      sameFile(file, revision.state.files.get(file.id)) ? [] : [file.id],
    );
    if (replaced.length < from.state.files.size) {
      await tx.$executeRaw`
      INSERT INTO "RevisionFile" ("revisionId", "fileId", "name", "contentType", "blobHash", "size", "width", "height")
      SELECT ${id}, "fileId", "name", "contentType", "blobHash", "size", "width", "height" FROM "RevisionFile"
      WHERE "revisionId" = ${from.revisionId} AND NOT ("fileId" = ANY(${replaced}::text[]))`;
    }
  }
  if (changedFiles.length > 0) {
    await tx.revisionFile.createMany({
      data: changedFiles.map((file) => ({
        revisionId: id,
        fileId: file.id,
        name: file.name,
        contentType: file.contentType,
        blobHash: file.blobHash,
        size: file.size,
        width: file.width,
        height: file.height,
      })),
    });
  }
  return id;
}

function sameFile(a: FileState | undefined, b: FileState | undefined): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    a.id === b.id &&
    a.name === b.name &&
    a.contentType === b.contentType &&
    a.blobHash === b.blobHash &&
    a.size === b.size &&
    a.width === b.width &&
    a.height === b.height
  );
}

/**
 * The first revision of a new space: empty, a copy of another space's revision (a duplicate), or given content.
 * Page versions belong to their space, so copied pages get their own; file bytes are shared by hash.
 */
export async function writeFirstRevision(
  tx: PrismaExecutor,
  first: {
    id: string;
    spaceId: string;
    createdById: string;
    createdAt: Date;
    copyOf?: string;
    content?: ContentState;
    /** What the pages of `content` link to, converted before the transaction (`NewRevision.links`). */
    links?: PageLinks;
  },
): Promise<void> {
  const state = first.content ?? (first.copyOf ? await readContentState(tx, first.copyOf) : emptyContent());
  const links = first.links ?? (first.copyOf ? await storedLinks(tx, state) : undefined);
  const sections = first.copyOf ? await storedSections(tx, state) : undefined;
  const pages = new Map([...state.pages].map(([id, page]) => [id, { ...page, versionId: null }]));
  await writeRevision(tx, { ...first, links, sections, parents: [], type: "edits", state: { ...state, pages } });
}

/** The stored sections of the copied pages' versions, for their copies (versions without any are left out). */
async function storedSections(tx: PrismaExecutor, state: ContentState): Promise<PageSections> {
  const pageOfVersion = new Map(
    [...state.pages.values()].flatMap((page) => (page.versionId ? [[page.versionId, page.id] as const] : [])),
  );
  const rows = await tx.pageVersionSection.findMany({
    where: { versionId: { in: [...pageOfVersion.keys()] } },
    select: { versionId: true, anchor: true, title: true, body: true },
    orderBy: [{ versionId: "asc" }, { ordinal: "asc" }],
  });
  const sections = new Map<string, MarkdownSection[]>();
  for (const row of rows) {
    const pageId = pageOfVersion.get(row.versionId) as string;
    const split = sections.get(pageId) ?? [];
    // The text before the first heading is stored under the page's title: its heading is none.
    split.push({ heading: row.anchor === null ? null : row.title, text: row.body });
    sections.set(pageId, split);
  }
  return sections;
}

/**
 * What the copied pages link to, read from their versions' stored links: a copy's transaction then does not parse
 * their markdown again. Versions whose links were never extracted are left out (parsed as before).
 */
async function storedLinks(tx: PrismaExecutor, state: ContentState): Promise<PageLinks> {
  const pageOfVersion = new Map(
    [...state.pages.values()].flatMap((page) => (page.versionId ? [[page.versionId, page.id] as const] : [])),
  );
  const extracted = await tx.pageVersion.findMany({
    where: { id: { in: [...pageOfVersion.keys()] }, linksExtracted: true },
    select: { id: true, links: { select: { url: true }, orderBy: { ordinal: "asc" } } },
  });
  return new Map(
    extracted.map((version) => [pageOfVersion.get(version.id) as string, version.links.map((link) => link.url)]),
  );
}
