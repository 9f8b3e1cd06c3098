import { Prisma, type Revision } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";
import { fileStateOf, type PageView, pageViewOf, type RevisionPageView } from "./revision.service.ts";

/** Revisions by id, without access checks: services decide what the viewer may see. */
export const revisionByIdLoader = defineLoader<string, Revision | null>("revisionById", async (ctx, ids) => {
  const rows = await ctx.prisma.revision.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});

/** A revision as one read asks for it: `computed` and `metadata` false leave out computed bodies and Git metadata. */
export type RevisionRead = Revision & { computed?: boolean | null; metadata?: boolean | null };

/** How a read shows its pages: the revision they are read in and the read's options. */
export interface PageRead {
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

export function pageReadOf(revision: RevisionRead): PageRead {
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
export const revisionTreeLoader = defineLoader<RevisionRead, RevisionTree, string>(
  "revisionTree",
  async (ctx, revisions) => {
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
  },
  { cacheKeyFn: (revision) => `${revision.id}/${revision.computed !== false}/${revision.metadata !== false}` },
);

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
export const locatedPageLoader = defineLoader<PageKey, LocatedPage | null, string>(
  "locatedPage",
  async (ctx, keys) => {
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
  },
  { cacheKeyFn: (key) => `${key.revisionId}/${key.pageId}` },
);

/**
 * The subpages of pages read alone, each with its own subpages, paths under the page's: the pages under it found
 * through the revision's parent index and read with their versions (not their markdown) in one statement, whatever
 * the size of the revision.
 */
export const subpagesLoader = defineLoader<PageNode, TreeNode[], string>(
  "subpages",
  async (ctx, nodes) => {
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
  },
  {
    cacheKeyFn: (node) => `${node.revisionId}/${node.page.id}/${node.renderComputed}/${node.showGitMetadata}`,
  },
);

/** The markdown bodies of page versions, by version id: for the pages of a tree whose body a read asks for. */
export const pageMarkdownLoader = defineLoader<string, string>("pageMarkdown", async (ctx, versionIds) => {
  const rows = await ctx.sql.rows<{ id: string; markdown: string }>(
    `SELECT "id", "markdown" FROM "PageVersion" WHERE "id" = ANY($1::text[])`,
    [versionIds],
  );
  return byKeys(versionIds, rows, (row) => row.id).map((row) => row?.markdown ?? "");
});

export type RevisionFileView = ReturnType<typeof fileStateOf> & { revisionId: string; spaceId: string };

/** One file of a revision, read by its id. */
export interface FileKey {
  revisionId: string;
  spaceId: string;
  fileId: string;
}

/** Files by id, without the rest of their revisions' files: one statement for any number of them. */
export const revisionFileLoader = defineLoader<FileKey, RevisionFileView | null, string>(
  "revisionFile",
  async (ctx, keys) => {
    const rows = await ctx.prisma.revisionFile.findMany({
      where: { OR: keys.map(({ revisionId, fileId }) => ({ revisionId, fileId })) },
    });
    const byFile = new Map(rows.map((row) => [`${row.revisionId}/${row.fileId}`, row]));
    return keys.map((key) => {
      const row = byFile.get(`${key.revisionId}/${key.fileId}`);
      return row ? { ...fileStateOf(row), revisionId: key.revisionId, spaceId: key.spaceId } : null;
    });
  },
  { cacheKeyFn: (key) => `${key.revisionId}/${key.fileId}` },
);

/** The files of revisions, by name then id. */
export const revisionFilesLoader = defineLoader<Revision, RevisionFileView[], string>(
  "revisionFiles",
  async (ctx, revisions) => {
    const rows = await ctx.prisma.revisionFile.findMany({
      where: { revisionId: { in: revisions.map((revision) => revision.id) } },
      orderBy: [{ name: "asc" }, { fileId: "asc" }],
    });
    return revisions.map((revision) =>
      rows
        .filter((row) => row.revisionId === revision.id)
        .map((row) => ({ ...fileStateOf(row), revisionId: revision.id, spaceId: revision.spaceId })),
    );
  },
  { cacheKeyFn: (revision) => revision.id },
);
