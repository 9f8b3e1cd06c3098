import DataLoader from "dataloader";
import { Prisma, type Revision } from "../../db/generated/client.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys } from "../../request/loaders.ts";
import { definePerRequest } from "../../request/request-state.ts";
import { fileStateOf, type PageView, pageViewOf, type RevisionPageView } from "./revision.service.ts";

/** Revisions by id. */
async function revisionsById(ctx: RequestContext, ids: readonly string[]) {
  const rows = await ctx.prisma.revision.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
}

/** A revision as one read asks for it: `computed` and `metadata` false leave out computed bodies and Git metadata. */
export type RevisionRead = Revision & { computed?: boolean | null; metadata?: boolean | null };

/** How a read shows its pages: the revision they are read in and the read's options. */
interface PageRead {
  revisionId: string;
  spaceId: string;
  /** Whether the read renders the body of a computed page (the `computed` query parameter). */
  renderComputed: boolean;
  /** Whether the read shows mutable Git metadata (the `metadata` query parameter). */
  showGitMetadata: boolean;
}

/** One page of a revision, with its path. */
export interface PageNode extends PageRead {
  page: PageView;
  path: string;
  parentId: string | null;
  /** Direct subpages in order, when the page was read in a tree; `subpages` reads them otherwise. */
  pages?: TreeNode[];
  /** The parent page (null at the root), when the page was read in a tree; `parentPage` reads it otherwise. */
  parentNode?: PageNode | null;
}

/** A page read in a tree: its subpages and parent are known. */
export interface TreeNode extends PageNode {
  pages: TreeNode[];
  parentNode: PageNode | null;
}

export interface RevisionTree {
  roots: TreeNode[];
  /** Every page, in tree order (depth first). */
  all: TreeNode[];
  byId: Map<string, TreeNode>;
}

function pageReadOf(revision: RevisionRead): PageRead {
  return {
    revisionId: revision.id,
    spaceId: revision.spaceId,
    renderComputed: revision.computed !== false,
    showGitMetadata: revision.metadata !== false,
  };
}

/**
 * The tree of `rows`; a row whose parent is not among them is a root, its path under `prefix`, its parent `above`
 * (the page the rows are under, or null for a whole revision's tree).
 */
function buildTree(read: PageRead, rows: RevisionPageView[], prefix: string, above: PageNode | null): RevisionTree {
  const nodes = rows.map(
    (row): TreeNode => ({
      ...read,
      page: pageViewOf(row),
      path: "",
      parentId: row.parentPageId,
      pages: [],
      parentNode: null,
    }),
  );
  const byId = new Map(nodes.map((node) => [node.page.id, node]));
  const roots: TreeNode[] = [];
  for (const node of nodes) {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    node.parentNode = parent ?? above;
    (parent ? parent.pages : roots).push(node);
  }
  const all: TreeNode[] = [];
  const order = (a: TreeNode, b: TreeNode) =>
    a.page.position - b.page.position || (a.page.id < b.page.id ? -1 : a.page.id > b.page.id ? 1 : 0);
  const visit = (siblings: TreeNode[], prefix: string) => {
    siblings.sort(order);
    for (const node of siblings) {
      node.path = prefix ? `${prefix}/${node.page.slug}` : node.page.slug;
      all.push(node);
      visit(node.pages, node.path);
    }
  };
  visit(roots, prefix);
  return { roots, all, byId };
}

/** A page row with its version (not its markdown) as `RevisionPageView`, over `rp` and `pv`, for `ctx.sql`. */
const treeColumns = [
  'rp."revisionId"',
  'rp."pageId"',
  'rp."versionId"',
  'rp."parentPageId"',
  'rp."position"',
  ...[
    "type",
    "title",
    "emoji",
    "slug",
    "description",
    "layout",
    "cover",
    "hidden",
    "noIndex",
    "noRobotsIndex",
    "variables",
    "href",
    "computed",
    "computedSeed",
    "git",
    "createdAt",
    "updatedAt",
  ].map((column) => `pv."${column}" AS "version.${column}"`),
].join(", ");

/**
 * The page trees of revisions: one statement for any number of revisions and pages, without their markdown bodies
 * (`pageMarkdown` reads those of the pages whose body is asked for). Hand-written: a tree is hundreds of rows, and
 * the ORM read them in two statements and stitched them (docs/performance.md).
 */
async function revisionTrees(ctx: RequestContext, revisions: readonly RevisionRead[]): Promise<RevisionTree[]> {
  const rows = await ctx.sql.rows<RevisionPageView>(
    `SELECT ${treeColumns} FROM "RevisionPage" AS rp JOIN "PageVersion" AS pv ON pv."id" = rp."versionId"
      WHERE rp."revisionId" = ANY($1::text[])`,
    [[...new Set(revisions.map((revision) => revision.id))]],
  );
  return revisions.map((revision) =>
    buildTree(
      pageReadOf(revision),
      rows.filter((row) => row.revisionId === revision.id),
      "",
      null,
    ),
  );
}

/** The columns of a page's row and version that reads show (not its markdown), over `rp` and `pv`. */
const pageColumns = Prisma.sql`rp."revisionId", rp."pageId", rp."versionId", rp."parentPageId", rp."position",
  pv."type", pv."title", pv."emoji", pv."slug", pv."description", pv."layout", pv."cover", pv."hidden", pv."noIndex",
  pv."noRobotsIndex", pv."variables", pv."href", pv."computed", pv."computedSeed", pv."git", pv."createdAt",
  pv."updatedAt"`;

type PageColumns = Omit<RevisionPageView, "version"> & Omit<RevisionPageView["version"], "markdown">;

/** A row of `pageColumns` (and its markdown, when selected) as the view `pageViewOf` reads. */
function viewOfRow({
  revisionId,
  pageId,
  versionId,
  parentPageId,
  position,
  ...version
}: PageColumns): RevisionPageView {
  return { revisionId, pageId, versionId, parentPageId, position, version };
}

/** One page of a revision, read by its id. */
export interface PageKey {
  revisionId: string;
  spaceId: string;
  pageId: string;
}

/** A page read alone: its node (path set, subpages not read) and its ancestors from the root to its parent. */
export interface LocatedPage {
  node: PageNode;
  ancestors: { id: string; title: string }[];
}

/** Ancestors deeper than this are a broken tree, not a document: the walk up stops there. */
const maxPageDepth = 1000;

/**
 * Pages by id without their revision's tree: each page with its version and markdown, and its chain of parents walked
 * up in SQL (their slugs make its path). One statement for any number of pages, whatever the size of their revisions.
 */
async function locatePages(ctx: RequestContext, keys: readonly PageKey[]): Promise<(LocatedPage | null)[]> {
  const chain = await ctx.prisma.$queryRaw<(PageColumns & { key: number; depth: number; markdown: string | null })[]>`
      WITH RECURSIVE chain AS (
        SELECT (k."ordinality" - 1)::int AS "key", rp."revisionId", rp."pageId", rp."parentPageId", 0 AS "depth"
        FROM unnest(${keys.map((key) => key.revisionId)}::text[], ${keys.map((key) => key.pageId)}::text[])
          WITH ORDINALITY AS k("revisionId", "pageId", "ordinality")
        JOIN "RevisionPage" AS rp ON rp."revisionId" = k."revisionId" AND rp."pageId" = k."pageId"
        UNION ALL
        SELECT c."key", rp."revisionId", rp."pageId", rp."parentPageId", c."depth" + 1
        FROM chain AS c
        JOIN "RevisionPage" AS rp ON rp."revisionId" = c."revisionId" AND rp."pageId" = c."parentPageId"
        WHERE c."depth" < ${maxPageDepth}
      )
      SELECT c."key", c."depth", ${pageColumns}, CASE WHEN c."depth" = 0 THEN pv."markdown" END AS "markdown"
      FROM chain AS c
      JOIN "RevisionPage" AS rp ON rp."revisionId" = c."revisionId" AND rp."pageId" = c."pageId"
      JOIN "PageVersion" AS pv ON pv."id" = rp."versionId"
      ORDER BY c."key", c."depth" DESC`;
  return keys.map((key, index) => {
    const path = chain.filter((link) => link.key === index);
    const own = path.at(-1);
    if (own?.depth !== 0) return null;
    const { key: _key, depth: _depth, markdown, ...columns } = own;
    const row = viewOfRow(columns);
    return {
      node: {
        revisionId: key.revisionId,
        spaceId: key.spaceId,
        renderComputed: true,
        showGitMetadata: true,
        page: pageViewOf({ ...row, version: { ...row.version, markdown: markdown ?? "" } }),
        path: path.map((link) => link.slug).join("/"),
        parentId: row.parentPageId,
      },
      ancestors: path.filter((link) => link.depth > 0).map((link) => ({ id: link.pageId, title: link.title })),
    };
  });
}

/**
 * The subpages of pages read alone, each with its own subpages, paths under the page's: the pages under it found
 * through the revision's parent index and read with their versions (not their markdown) in one statement, whatever
 * the size of the revision.
 */
async function subpagesOf(ctx: RequestContext, nodes: readonly PageNode[]): Promise<TreeNode[][]> {
  // UNION drops rows already found, so a cycle in a broken tree ends the walk.
  const rows = await ctx.prisma.$queryRaw<(PageColumns & { key: number })[]>`
      WITH RECURSIVE under AS (
        SELECT (k."ordinality" - 1)::int AS "key", k."pageId" AS "rootId", rp."revisionId", rp."pageId"
        FROM unnest(${nodes.map((node) => node.revisionId)}::text[], ${nodes.map((node) => node.page.id)}::text[])
          WITH ORDINALITY AS k("revisionId", "pageId", "ordinality")
        JOIN "RevisionPage" AS rp ON rp."revisionId" = k."revisionId" AND rp."parentPageId" = k."pageId"
        UNION
        SELECT u."key", u."rootId", rp."revisionId", rp."pageId"
        FROM under AS u
        JOIN "RevisionPage" AS rp ON rp."revisionId" = u."revisionId" AND rp."parentPageId" = u."pageId"
      )
      SELECT u."key", ${pageColumns}
      FROM under AS u
      JOIN "RevisionPage" AS rp ON rp."revisionId" = u."revisionId" AND rp."pageId" = u."pageId"
      JOIN "PageVersion" AS pv ON pv."id" = rp."versionId"
      WHERE u."pageId" <> u."rootId"`;
  return nodes.map((node, index) => {
    const { revisionId, spaceId, renderComputed, showGitMetadata } = node;
    const under = rows.filter((row) => row.key === index).map(({ key: _key, ...columns }) => viewOfRow(columns));
    return buildTree({ revisionId, spaceId, renderComputed, showGitMetadata }, under, node.path, node).roots;
  });
}

/** The markdown bodies of page versions, by version id: for the pages of a tree whose body a read asks for. */
async function markdownBodies(ctx: RequestContext, versionIds: readonly string[]): Promise<string[]> {
  const rows = await ctx.sql.rows<{ id: string; markdown: string }>(
    `SELECT "id", "markdown" FROM "PageVersion" WHERE "id" = ANY($1::text[])`,
    [versionIds],
  );
  return byKeys(versionIds, rows, (row) => row.id).map((row) => row?.markdown ?? "");
}

export type RevisionFileView = ReturnType<typeof fileStateOf> & { revisionId: string; spaceId: string };

/** One file of a revision, read by its id. */
interface FileKey {
  revisionId: string;
  spaceId: string;
  fileId: string;
}

/** Files by id, without the rest of their revisions' files: one statement for any number of them. */
async function filesById(ctx: RequestContext, keys: readonly FileKey[]): Promise<(RevisionFileView | null)[]> {
  const rows = await ctx.prisma.revisionFile.findMany({
    where: { OR: keys.map(({ revisionId, fileId }) => ({ revisionId, fileId })) },
  });
  const byFile = new Map(rows.map((row) => [`${row.revisionId}/${row.fileId}`, row]));
  return keys.map((key) => {
    const row = byFile.get(`${key.revisionId}/${key.fileId}`);
    return row ? { ...fileStateOf(row), revisionId: key.revisionId, spaceId: key.spaceId } : null;
  });
}

/** The files of revisions, by name then id. */
async function filesOfRevisions(ctx: RequestContext, revisions: readonly Revision[]): Promise<RevisionFileView[][]> {
  const rows = await ctx.prisma.revisionFile.findMany({
    where: { revisionId: { in: revisions.map((revision) => revision.id) } },
    orderBy: [{ name: "asc" }, { fileId: "asc" }],
  });
  return revisions.map((revision) =>
    rows
      .filter((row) => row.revisionId === revision.id)
      .map((row) => ({ ...fileStateOf(row), revisionId: revision.id, spaceId: revision.spaceId })),
  );
}

/**
 * The read boundary of content (docs/architecture.md "Read boundaries"): per request, the loaders of revisions, their
 * trees, pages read one at a time, bodies and files, with their statements above, so a page of a space of thousands
 * costs what it answers. Nothing here checks access: services decide what the viewer may see first.
 */
class ContentReads {
  /** Revisions by id. */
  readonly revision: DataLoader<string, Revision | null>;
  /** Page trees of revisions, without bodies, per read options. */
  readonly tree: DataLoader<RevisionRead, RevisionTree, string>;
  /** Files of revisions, by name then id. */
  readonly files: DataLoader<Revision, RevisionFileView[], string>;
  /** Files by id, without the rest of their revisions' files. */
  readonly file: DataLoader<FileKey, RevisionFileView | null, string>;
  private readonly located: DataLoader<PageKey, LocatedPage | null, string>;
  private readonly subpagesUnder: DataLoader<PageNode, TreeNode[], string>;
  private readonly markdown: DataLoader<string, string>;

  constructor(ctx: RequestContext) {
    this.revision = new DataLoader((ids) => revisionsById(ctx, ids));
    this.tree = new DataLoader((revisions) => revisionTrees(ctx, revisions), {
      cacheKeyFn: (revision) => `${revision.id}/${revision.computed !== false}/${revision.metadata !== false}`,
    });
    this.files = new DataLoader((revisions) => filesOfRevisions(ctx, revisions), {
      cacheKeyFn: (revision) => revision.id,
    });
    this.file = new DataLoader((keys) => filesById(ctx, keys), {
      cacheKeyFn: (key) => `${key.revisionId}/${key.fileId}`,
    });
    this.located = new DataLoader((keys) => locatePages(ctx, keys), {
      cacheKeyFn: (key) => `${key.revisionId}/${key.pageId}`,
    });
    this.subpagesUnder = new DataLoader((nodes) => subpagesOf(ctx, nodes), {
      cacheKeyFn: (node) => `${node.revisionId}/${node.page.id}/${node.renderComputed}/${node.showGitMetadata}`,
    });
    this.markdown = new DataLoader((versionIds) => markdownBodies(ctx, versionIds));
  }

  /**
   * A page of a revision read by id with its path, not through the revision's tree: its subpages and parent are
   * read when asked for (`subpages`, `parentPage`).
   */
  page(revision: RevisionRead, pageId: string): Promise<PageNode | null> {
    return this.pageIn(pageReadOf(revision), pageId);
  }

  /** Pages by id with their path and ancestors, without reading their revisions' trees; null for a missing page. */
  async locatedPages(keys: readonly PageKey[]): Promise<(LocatedPage | null)[]> {
    const loaded = await this.located.loadMany(keys);
    return loaded.map((page) => {
      if (page instanceof Error) throw page;
      return page;
    });
  }

  /** A page's parent page, read with the same options as the page; null at the root. */
  parentPage(node: PageNode): Promise<PageNode | null> | PageNode | null {
    if (node.parentNode !== undefined) return node.parentNode;
    if (!node.parentId) return null;
    const { revisionId, spaceId, renderComputed, showGitMetadata } = node;
    return this.pageIn({ revisionId, spaceId, renderComputed, showGitMetadata }, node.parentId);
  }

  /** A page's direct subpages in order, each with its own: from its tree, or read under the page alone. */
  subpages(node: PageNode): Promise<TreeNode[]> | TreeNode[] {
    return node.pages ?? this.subpagesUnder.load(node);
  }

  /** Every page under a page, flat in tree order. */
  async descendantPages(node: PageNode): Promise<PageNode[]> {
    const out: PageNode[] = [];
    const visit = (pages: readonly TreeNode[]) => {
      for (const page of pages) {
        out.push(page);
        visit(page.pages);
      }
    };
    visit(await this.subpages(node));
    return out;
  }

  /** A stored page's markdown: read with the page when it was read alone, else for the pages whose body is asked. */
  markdownOf(node: PageNode): Promise<string> | string {
    return node.page.markdown ?? this.markdown.load(node.page.versionId);
  }

  private async pageIn(read: PageRead, pageId: string): Promise<PageNode | null> {
    const located = await this.located.load({ revisionId: read.revisionId, spaceId: read.spaceId, pageId });
    return located && { ...located.node, ...read };
  }
}

/** The request's content reads, created on first use. */
export const contentReads = definePerRequest("content reads", (ctx) => new ContentReads(ctx));
