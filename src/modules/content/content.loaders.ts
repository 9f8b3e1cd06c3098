import type { Revision } from "../../db/generated/client.ts";
import { byKeys, defineLoader } from "../../loaders.ts";
import type { PageState } from "./content-state.ts";
import { fileStateOf, pageStateOf, type RevisionPageRow } from "./revision.service.ts";

/** Revisions by id, without access checks: services decide what the viewer may see. */
export const revisionByIdLoader = defineLoader<string, Revision | null>("revisionById", async (ctx, ids) => {
  const rows = await ctx.prisma.revision.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});

/** A revision as a read asks for it: `computed: false` leaves out the generated bodies of computed pages. */
/** A revision as one read asks for it: `computed` and `metadata` false leave out computed bodies and Git metadata. */
export type RevisionRead = Revision & { computed?: boolean | null; metadata?: boolean | null };

/** One page of a revision's tree, with its path and subpages. */
export interface PageNode {
  revisionId: string;
  spaceId: string;
  /** Whether the read renders the body of a computed page (the `computed` query parameter). */
  renderComputed: boolean;
  /** Whether the read shows mutable Git metadata (the `metadata` query parameter). */
  showGitMetadata: boolean;
  page: PageState;
  path: string;
  parentId: string | null;
  pages: PageNode[];
}

export interface RevisionTree {
  roots: PageNode[];
  /** Every page, in tree order (depth first). */
  all: PageNode[];
  byId: Map<string, PageNode>;
}

/** The tree of `rows`; a row whose parent is not among them is a root, its path under `prefix`. */
function buildTree(revision: RevisionRead, rows: RevisionPageRow[], prefix = ""): RevisionTree {
  const nodes = rows.map(
    (row): PageNode => ({
      revisionId: revision.id,
      spaceId: revision.spaceId,
      renderComputed: revision.computed !== false,
      showGitMetadata: revision.metadata !== false,
      page: pageStateOf(row),
      path: "",
      parentId: row.parentPageId,
      pages: [],
    }),
  );
  const byId = new Map(nodes.map((node) => [node.page.id, node]));
  const roots: PageNode[] = [];
  for (const node of nodes) {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    (parent ? parent.pages : roots).push(node);
  }
  const all: PageNode[] = [];
  const order = (a: PageNode, b: PageNode) =>
    a.page.position - b.page.position || (a.page.id < b.page.id ? -1 : a.page.id > b.page.id ? 1 : 0);
  const visit = (siblings: PageNode[], prefix: string) => {
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

/** The page trees of revisions: one statement for any number of revisions and pages. */
export const revisionTreeLoader = defineLoader<RevisionRead, RevisionTree, string>(
  "revisionTree",
  async (ctx, revisions) => {
    const rows = await ctx.prisma.revisionPage.findMany({
      where: { revisionId: { in: [...new Set(revisions.map((revision) => revision.id))] } },
      include: { version: true },
    });
    return revisions.map((revision) =>
      buildTree(
        revision,
        rows.filter((row) => row.revisionId === revision.id),
      ),
    );
  },
  { cacheKeyFn: (revision) => `${revision.id}/${revision.computed !== false}/${revision.metadata !== false}` },
);

/** One page of a revision read by id, as a read asks for it. */
export interface RevisionPageKey {
  revision: RevisionRead;
  pageId: string;
}

/**
 * Pages by id with the pages under them (what `pages` and `descendants` answer), without the rest of their revision:
 * the revision's structure (ids, parents and positions, no content) is read to find the page's subtree and
 * ancestors, then the versions of those pages alone. A page of a space of thousands reads its own branch.
 */
export const pageSubtreeLoader = defineLoader<RevisionPageKey, PageNode | null, string>(
  "pageSubtree",
  async (ctx, keys) => {
    const revisionIds = [...new Set(keys.map((key) => key.revision.id))];
    const structure = await ctx.prisma.revisionPage.findMany({
      where: { revisionId: { in: revisionIds } },
      select: { revisionId: true, pageId: true, parentPageId: true },
    });
    const parents = new Map(structure.map((row) => [`${row.revisionId}/${row.pageId}`, row.parentPageId]));
    const children = new Map<string, string[]>();
    for (const row of structure) {
      if (!row.parentPageId) continue;
      const key = `${row.revisionId}/${row.parentPageId}`;
      children.set(key, [...(children.get(key) ?? []), row.pageId]);
    }
    const wanted = keys.map(({ revision, pageId }) => {
      const subtree: string[] = [];
      const ancestors: string[] = [];
      if (!parents.has(`${revision.id}/${pageId}`)) return { subtree, ancestors };
      const seen = new Set<string>();
      const stack = [pageId];
      while (stack.length > 0) {
        const id = stack.pop() as string;
        if (seen.has(id)) continue;
        seen.add(id);
        subtree.push(id);
        stack.push(...(children.get(`${revision.id}/${id}`) ?? []));
      }
      for (let parent = parents.get(`${revision.id}/${pageId}`); parent && !seen.has(parent); ) {
        seen.add(parent);
        ancestors.unshift(parent);
        parent = parents.get(`${revision.id}/${parent}`);
      }
      return { subtree, ancestors };
    });
    const pageIds = new Map<string, Set<string>>();
    for (const [index, key] of keys.entries()) {
      const { subtree, ancestors } = wanted[index] as { subtree: string[]; ancestors: string[] };
      const ids = pageIds.get(key.revision.id) ?? new Set();
      for (const id of [...subtree, ...ancestors]) ids.add(id);
      pageIds.set(key.revision.id, ids);
    }
    const wantedPages = [...pageIds].filter(([, ids]) => ids.size > 0);
    const rows =
      wantedPages.length === 0
        ? []
        : await ctx.prisma.revisionPage.findMany({
            where: { OR: wantedPages.map(([revisionId, ids]) => ({ revisionId, pageId: { in: [...ids] } })) },
            include: { version: true },
          });
    const byPage = new Map(rows.map((row) => [`${row.revisionId}/${row.pageId}`, row]));
    return keys.map((key, index) => {
      const { subtree, ancestors } = wanted[index] as { subtree: string[]; ancestors: string[] };
      const rowsOf = (ids: string[]) => ids.flatMap((pageId) => byPage.get(`${key.revision.id}/${pageId}`) ?? []);
      const prefix = rowsOf(ancestors)
        .map((row) => row.version.slug)
        .join("/");
      return buildTree(key.revision, rowsOf(subtree), prefix).byId.get(key.pageId) ?? null;
    });
  },
  {
    cacheKeyFn: (key) =>
      `${key.revision.id}/${key.pageId}/${key.revision.computed !== false}/${key.revision.metadata !== false}`,
  },
);

export type RevisionFileView = ReturnType<typeof fileStateOf> & { revisionId: string; spaceId: string };

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
 * Pages by id without their revision's tree: the pages with their versions, and their chains of parents (title and
 * slug only) walked up in SQL. Two statements for any number of pages, whatever the size of their revisions.
 */
export const locatedPageLoader = defineLoader<PageKey, LocatedPage | null, string>(
  "locatedPage",
  async (ctx, keys) => {
    const rows = await ctx.prisma.revisionPage.findMany({
      where: { OR: keys.map((key) => ({ revisionId: key.revisionId, pageId: key.pageId })) },
      include: { version: true },
    });
    const chain = await ctx.prisma.$queryRaw<{ key: number; depth: number; id: string; title: string; slug: string }[]>`
      WITH RECURSIVE chain AS (
        SELECT (k."ordinality" - 1)::int AS "key", rp."revisionId", rp."pageId", rp."versionId", rp."parentPageId",
          0 AS "depth"
        FROM unnest(${keys.map((key) => key.revisionId)}::text[], ${keys.map((key) => key.pageId)}::text[])
          WITH ORDINALITY AS k("revisionId", "pageId", "ordinality")
        JOIN "RevisionPage" AS rp ON rp."revisionId" = k."revisionId" AND rp."pageId" = k."pageId"
        UNION ALL
        SELECT c."key", rp."revisionId", rp."pageId", rp."versionId", rp."parentPageId", c."depth" + 1
        FROM chain AS c
        JOIN "RevisionPage" AS rp ON rp."revisionId" = c."revisionId" AND rp."pageId" = c."parentPageId"
        WHERE c."depth" < ${maxPageDepth}
      )
      SELECT c."key", c."depth", c."pageId" AS "id", pv."title", pv."slug"
      FROM chain AS c JOIN "PageVersion" AS pv ON pv."id" = c."versionId"
      ORDER BY c."key", c."depth" DESC`;
    const byPage = new Map(rows.map((row) => [`${row.revisionId}/${row.pageId}`, row]));
    return keys.map((key, index) => {
      const row = byPage.get(`${key.revisionId}/${key.pageId}`);
      if (!row) return null;
      const path = chain.filter((link) => link.key === index);
      return {
        node: {
          revisionId: key.revisionId,
          spaceId: key.spaceId,
          renderComputed: true,
          showGitMetadata: true,
          page: pageStateOf(row),
          path: path.map((link) => link.slug).join("/"),
          parentId: row.parentPageId,
          pages: [],
        },
        ancestors: path.filter((link) => link.depth > 0).map((link) => ({ id: link.id, title: link.title })),
      };
    });
  },
  { cacheKeyFn: (key) => `${key.revisionId}/${key.pageId}` },
);
