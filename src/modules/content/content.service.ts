import { requireViewer } from "../../auth/access.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type { Revision, Space } from "../../db/generated/client.ts";
import type { ModuleJobs } from "../../jobs/queue.ts";
import { ConflictError, InvalidInputError, NotFoundError, nullWhereRefused } from "../../lib/errors.ts";
import { mapNodes, type Page, type PageArgs, paginate } from "../../paging/pagination.ts";
import { newId, parsePairIds, randomBase62 } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { getSpace, requireSpaceEditable } from "../space/space.public.ts";
import { contentReads, type RevisionFileView, type RevisionRead } from "./content-reads.ts";
import { type AppliedChanges, applyContentChanges, type ContentState, pagesInTreeOrder } from "./content-state.ts";
import {
  fileStateOf,
  newPageLinks,
  newPageSections,
  type PageLinks,
  type PageSections,
  readContentOutline,
  readContentState,
  readPageBodies,
  sha256,
  withBodies,
  writeRevision,
} from "./revision.service.ts";

/** Thrown inside a transaction whose conditional write found the head moved: the transaction rolls back. */
class HeadMoved extends Error {}

/**
 * Each lost race means another write landed, so N writers racing on one head need up to N attempts: the bound is
 * far above any real burst and only stops a writer that never wins.
 */
const maxAttempts = 100;
/** Upper bound of the random pause after the n-th lost race: spreads the losers out so fewer collide again. */
const backoffMs = (tries: number) => Math.min(100, 2 ** tries);

/**
 * Optimistic writes: `attempt` reads a head (space or change request revision), computes, and in one transaction
 * writes only if the head is still the one it read (`headMoved()` otherwise). Another writer landing in between
 * makes it start over on the new head after a short random pause, so no write is ever lost; real conflicts are
 * the attempt's own 409, and one that keeps losing the race gets a 409 too.
 */
export async function onLatestHead<T>(attempt: (headMoved: () => never) => Promise<T>): Promise<T> {
  for (let tries = 0; tries < maxAttempts; tries++) {
    try {
      return await attempt(() => {
        throw new HeadMoved();
      });
    } catch (error) {
      if (!(error instanceof HeadMoved)) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * backoffMs(tries)));
  }
  throw new ConflictError("The content kept changing while this write was applied: retry it");
}

/** A revision a space or change request points at (the caller checked access to it). */
export async function revisionOf(ctx: RequestContext, revisionId: string): Promise<Revision> {
  const revision = await contentReads(ctx).revision.load(revisionId);
  if (!revision) throw new Error(`Revision ${revisionId} is missing`);
  return revision;
}

/** The active revision of a space the viewer may read. */
export function spaceRevision(ctx: RequestContext, space: Space): Promise<Revision> {
  return revisionOf(ctx, space.revisionId);
}

export function revisionTree(ctx: RequestContext, revision: RevisionRead) {
  return contentReads(ctx).tree.load(revision);
}

/** A revision as a read asks for it: `computed` false (default true) leaves out computed pages' generated bodies. */
export function revisionRead(
  revision: Revision,
  options: { computed?: boolean | null; metadata?: boolean | null },
): RevisionRead {
  return { ...revision, computed: options.computed, metadata: options.metadata };
}

export function revisionFiles(ctx: RequestContext, revision: Revision): Promise<RevisionFileView[]> {
  return contentReads(ctx).files.load(revision);
}

/** A file of a revision by id, not through the revision's list of files. */
export function revisionFile(ctx: RequestContext, revision: Revision, fileId: string) {
  return contentReads(ctx).file.load({ revisionId: revision.id, spaceId: revision.spaceId, fileId });
}

/** A revision's files, a page at a time (by name, then id). */
export async function listRevisionFiles(
  ctx: RequestContext,
  revision: Revision,
  page: PageArgs,
): Promise<Page<RevisionFileView>> {
  const result = await paginate(page, {
    model: ctx.prisma.revisionFile,
    where: { revisionId: revision.id },
    sort: [
      { field: "name", direction: "asc" },
      { field: "fileId", direction: "asc" },
    ],
  });
  return mapNodes(result, (file) => ({ ...fileStateOf(file), revisionId: revision.id, spaceId: revision.spaceId }));
}

/** Where a document page is read in this service (its `urls.app`). */
export function pageAppUrl(ctx: RequestContext, spaceId: string, pageId: string): string {
  return `${ctx.config.publicUrl}/v1/spaces/${spaceId}/content/page/${pageId}`;
}

export function fileDownloadUrl(ctx: RequestContext, file: RevisionFileView): string {
  return `${ctx.config.publicUrl}/files/${file.spaceId}/${file.revisionId}/${file.id}`;
}

export interface ContentEdit {
  revision: string;
  result: "edits";
  inserted: { type: "page" | "file"; id: string }[];
}

/** The revision a write starts from: the space's, or a change request's. */
export interface ContentHead {
  spaceId: string;
  revisionId: string;
  changeRequestId?: string;
}

/**
 * Computes a head's next content from its current one (`base`); an InvalidInputError refuses the whole write. The
 * public API's change batches and content templates are both editors, so both go through one write path. `base` is
 * an outline: stored pages' markdown is there only for the pages the editor gives a new version (`prepareEdit`).
 */
export type ContentEditor = (base: ContentState, head: ContentHead, now: Date) => AppliedChanges;

/** The public API's body `{ changes: [...] }` as an editor. */
export const changesEditor =
  (input: unknown): ContentEditor =>
  (base, _head, now) =>
    applyContentChanges(base, input, now, sha256);

/** An editor's result with what its new pages link to: all that a write's transaction still has to do is write. */
export interface PreparedEdit {
  head: ContentHead;
  /** The head's content as the edit read it (an outline), which the new revision copies but what changed. */
  base: ContentState;
  now: Date;
  applied: AppliedChanges;
  links: PageLinks;
  sections: PageSections;
}

/**
 * Applies an editor to the head's content and converts its new pages' markdown, before the write's transaction
 * opens: large pages parse on a worker thread (seconds for big ones), which a transaction must not wait on. The
 * content is read without its markdown; the stored pages the edit gives a new version (an update keeps the body it
 * does not set) have their bodies loaded and the edit is applied again, so only those bodies are ever read.
 */
export async function prepareEdit(
  ctx: RequestContext,
  db: PrismaExecutor,
  head: ContentHead,
  edit: ContentEditor,
): Promise<PreparedEdit> {
  const now = ctx.clock.now();
  let base = await readContentOutline(db, head.revisionId);
  const loaded = new Set<string>();
  let applied = edit(base, head, now);
  for (;;) {
    const missing = [...applied.state.pages.values()].flatMap((page) =>
      page.versionId === null && base.pages.get(page.id)?.versionId && !loaded.has(page.id) ? [page.id] : [],
    );
    if (missing.length === 0) break;
    for (const id of missing) loaded.add(id);
    base = withBodies(base, await readPageBodies(db, [base], missing));
    applied = edit(base, head, now);
  }
  const [links, sections] = await Promise.all([
    newPageLinks(ctx.budget, applied.state),
    newPageSections(ctx.work, applied.state),
  ]);
  return { head, base, now, applied, links, sections };
}

/** Writes a prepared edit as a new revision; the caller moves its head. */
export async function writeEdits(
  tx: PrismaExecutor,
  ctx: RequestContext,
  { head, base, now, applied, links, sections }: PreparedEdit,
): Promise<ContentEdit> {
  const revision = await writeRevision(tx, {
    spaceId: head.spaceId,
    parents: [head.revisionId],
    from: { revisionId: head.revisionId, state: base },
    type: "edits",
    changeRequestId: head.changeRequestId,
    createdById: requireViewer(ctx).userId,
    createdAt: now,
    state: applied.state,
    blobs: applied.blobs,
    links,
    sections,
  });
  return { revision, result: "edits", inserted: applied.inserted };
}

/** Direct edits of a space's content (spaces that are not locked); each call makes one revision. */
export function updateSpaceContent(ctx: RequestContext, spaceId: string, input: unknown): Promise<ContentEdit> {
  return editSpaceContent(ctx, spaceId, changesEditor(input));
}

/** Writes an editor's result as the space's next revision (spaces that are not locked), all or nothing. */
export async function editSpaceContent(
  ctx: RequestContext,
  spaceId: string,
  edit: ContentEditor,
): Promise<ContentEdit> {
  await requireSpaceEditable(ctx, spaceId);
  return onLatestHead(async (headMoved) => {
    const space = await ctx.prisma.space.findUniqueOrThrow({ where: { id: spaceId } });
    const prepared = await prepareEdit(ctx, ctx.prisma, { spaceId, revisionId: space.revisionId }, edit);
    return ctx.prisma.$transaction(async (tx) => {
      const written = await writeEdits(tx, ctx, prepared);
      const { count } = await tx.space.updateMany({
        where: { id: spaceId, revisionId: space.revisionId, deletedAt: null },
        data: { revisionId: written.revision, updatedAt: ctx.clock.now() },
      });
      if (count === 0) headMoved();
      return written;
    });
  });
}

/** A file's bytes, for callers who may read the space; the revision must be one of that space. */
export async function readFileDownload(ctx: RequestContext, spaceId: string, revisionId: string, fileId: string) {
  await getSpace(ctx, spaceId);
  const file = await ctx.prisma.revisionFile.findFirst({
    where: { revisionId, fileId, revision: { spaceId } },
    include: { blob: { select: { bytes: true } } },
  });
  if (!file) throw new NotFoundError(`File ${fileId} not found`);
  return { name: file.name, contentType: file.contentType, bytes: file.blob.bytes };
}

/** PDF links work for an hour, like the public API's. */
const exportLifetimeMs = 60 * 60 * 1000;

/**
 * A link that renders a revision (or one page, with or without its subpages) as a PDF for an hour. The key is
 * random and stored, so any instance can serve it, and the link opens without a token like the public API's.
 */
export async function createPdfExport(
  ctx: RequestContext,
  space: Space,
  revision: Revision,
  title: string,
  options: { pageId?: string | null; only?: boolean | null },
): Promise<{ url: string }> {
  if (options.only && !options.pageId) throw new InvalidInputError("only needs page (the id of the page to print)");
  if (options.pageId && !(await contentReads(ctx).page(revision, options.pageId))) {
    throw new InvalidInputError(`Unknown page ${options.pageId}`);
  }
  const key = randomBase62(40);
  const now = ctx.clock.now();
  await ctx.prisma.contentExport.create({
    data: {
      id: newId("ContentExport"),
      key,
      spaceId: space.id,
      revisionId: revision.id,
      pageId: options.pageId ?? null,
      onlyPage: Boolean(options.only),
      title,
      expiresAt: new Date(now.getTime() + exportLifetimeMs),
      createdAt: now,
    },
  });
  return { url: `${ctx.config.publicUrl}/exports/${key}.pdf` };
}

/** Removes PDF links past their hour. */
async function purgeExpiredExports(prisma: PrismaExecutor, now: Date): Promise<number> {
  const { count } = await prisma.contentExport.deleteMany({ where: { expiresAt: { lte: now } } });
  return count;
}

/**
 * Renders an export link's PDF; unknown and expired keys are 404. Rendering runs on a worker thread within its time
 * budget (422 past it, 503 when the workers are busy). A link shows one revision, which never changes (an edit of
 * the change request or the space makes a new revision, and a new link), so its PDF is cached by what it shows.
 */
export async function renderPdfExport(ctx: RequestContext, key: string): Promise<Uint8Array> {
  const exported = await ctx.prisma.contentExport.findUnique({ where: { key } });
  if (!exported || exported.expiresAt <= ctx.clock.now()) {
    throw new NotFoundError("This PDF link does not exist or has expired");
  }
  const shows = JSON.stringify([exported.revisionId, exported.pageId, exported.onlyPage, exported.title]);
  return ctx.work.pdf(shows, async () => {
    let entries = pagesInTreeOrder(await readContentState(ctx.prisma, exported.revisionId));
    const start = entries.findIndex((entry) => entry.page.id === exported.pageId);
    if (start >= 0) {
      const root = entries[start] as (typeof entries)[number];
      // Subpages follow their page in tree order, deeper than it.
      const end = entries.findIndex((entry, index) => index > start && entry.depth <= root.depth);
      entries = exported.onlyPage ? [root] : entries.slice(start, end < 0 ? undefined : end);
    }
    const depthOffset = entries[0]?.depth ?? 0;
    return {
      title: exported.title,
      pages: entries.map(({ page, depth }) => ({
        title: page.title,
        markdown: page.markdown,
        depth: depth - depthOffset,
      })),
    };
  });
}

/** Revisions for `node`/`nodes`: where their space's content is readable (`GET /spaces/{spaceId}/content`). */
export async function loadVisibleRevisions(ctx: RequestContext, ids: readonly string[]) {
  return nullWhereRefused(ids, await contentReads(ctx).revision.loadMany(ids), async (revision) => {
    await getSpace(ctx, revision.spaceId);
    return revision;
  });
}

export const contentJobs: ModuleJobs = {
  scheduled: {
    "purge-expired-exports": {
      cron: "0 * * * *",
      run: async (prisma, now) => void (await purgeExpiredExports(prisma, now)),
    },
  },
};

/** Pages for `node`/`nodes`, by their pair ids: visible where their revision is. */
export function loadVisibleRevisionPages(ctx: RequestContext, ids: readonly string[]) {
  return nullWhereRefused(ids, parsePairIds("RevisionPage", ids), async (key) => {
    const [revision] = await loadVisibleRevisions(ctx, [key.parentId]);
    return revision ? contentReads(ctx).page(revision, key.childId) : null;
  });
}

/** Files for `node`/`nodes`, by their pair ids: visible where their revision is. */
export function loadVisibleRevisionFiles(ctx: RequestContext, ids: readonly string[]) {
  return nullWhereRefused(ids, parsePairIds("RevisionFile", ids), async (key) => {
    const [revision] = await loadVisibleRevisions(ctx, [key.parentId]);
    return revision ? revisionFile(ctx, revision, key.childId) : null;
  });
}
