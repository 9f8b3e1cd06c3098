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

function buildTree(revision: RevisionRead, rows: RevisionPageRow[]): RevisionTree {
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
  visit(roots, "");
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
