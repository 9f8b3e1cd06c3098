import { posix } from "node:path";
import { z } from "zod";
import { type Readable, readableAsParent } from "../../auth/readable.ts";
import type { PageVersionLink, Revision, Space } from "../../db/generated/client.ts";
import { parseInput } from "../../lib/validation.ts";
import { pageFromRows } from "../../paging/memory-pagination.ts";
import { mapNodes, type Page, type PageArgs, type SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import {
  type PageNode,
  type RevisionFileView,
  type RevisionTree,
  revisionFiles,
  revisionOf,
  revisionTree,
  type TreeNode,
} from "../content/content.public.ts";
import { loadVisibleSpaces, spaceByIdLoader } from "../space/space.public.ts";
import { pageVersionLinksLoader } from "./link.loaders.ts";

/** Where a link points, or where one is found: the public API's content locations. */
export type ContentLocation =
  | { kind: "page"; spaceId: string; page: PageNode; anchor: string | null }
  | { kind: "file"; spaceId: string; file: RevisionFileView }
  | { kind: "space"; spaceId: string }
  | { kind: "url"; url: string };

type LinkStatus = "ok" | "broken" | "in-app";

/** One target of a list of links, with the pages linking to it (tree order). */
export interface ContentLink {
  /** Unique per target in a revision: the list's order and cursor. */
  key: string;
  status: LinkStatus;
  target: ContentLocation;
  sources: TreeNode[];
  /** Each link to the target as `<source page id> <link as written>`: what stays the same across revisions. */
  occurrences: Set<string>;
}

export interface LinkStats {
  total: number;
  broken: { total: number; changeRequest: number };
}

export type LinkPage = Page<ContentLink> & { stats: LinkStats };

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export const linkStatusSchema = z
  .enum(["ok", "broken", "in-app"], { error: "status must be ok, broken or in-app" })
  .nullish();
const linkOrder: SortKey<ContentLink>[] = [{ field: "key", direction: "asc" }];

/** A revision's pages by path, its files by id and by name. */
interface RevisionIndex {
  revision: Revision;
  tree: RevisionTree;
  pagesByPath: Map<string, TreeNode>;
  /** Pages imported from Git, by the file they came from. */
  pagesByFile: Map<string, TreeNode>;
  filesById: Map<string, RevisionFileView>;
  filesByName: Map<string, RevisionFileView>;
}

async function revisionIndex(ctx: RequestContext, revision: Revision): Promise<RevisionIndex> {
  const [tree, files] = await Promise.all([revisionTree(ctx, revision), revisionFiles(ctx, revision)]);
  const filesByName = new Map<string, RevisionFileView>();
  for (const file of files) if (!filesByName.has(file.name)) filesByName.set(file.name, file);
  return {
    revision,
    tree,
    pagesByPath: new Map(tree.all.map((node) => [node.path, node])),
    pagesByFile: new Map(tree.all.flatMap((node) => (node.page.git ? [[node.page.git.path, node] as const] : []))),
    filesById: new Map(files.map((file) => [file.id, file])),
    filesByName,
  };
}

/** A URL of this server that names content: a page, a file download, or a space. */
type AppTarget =
  | { type: "page"; spaceId: string; pageId: string; anchor: string | null }
  | { type: "file"; spaceId: string; fileId: string }
  | { type: "space"; spaceId: string }
  | { type: "other" };

function appTarget(url: string, publicUrl: string): AppTarget | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== new URL(publicUrl).origin) return null;
  const segments = parsed.pathname.split("/").filter((segment) => segment !== "");
  const [first, second, third, fourth, fifth, sixth] = segments;
  if (first === "v1" && second === "spaces" && third) {
    if (fourth === "content" && fifth === "page" && sixth) {
      return { type: "page", spaceId: third, pageId: sixth, anchor: parsed.hash.slice(1) || null };
    }
    return { type: "space", spaceId: third };
  }
  if (first === "files" && second && fourth) return { type: "file", spaceId: second, fileId: fourth };
  return { type: "other" };
}

/**
 * The file a page's markdown lives in, which its relative links start from: its Git path when it came from Git,
 * else where an export writes it (`<path>/README.md` for pages with subpages, `<path>.md` for others).
 */
function pageFile(node: TreeNode): string {
  return node.page.git?.path ?? (node.pages.length > 0 ? `${node.path}/README.md` : `${node.path}.md`);
}

/** The file a relative `.md` link of a page names, as a path from the content root. */
function linkedFile(from: TreeNode, target: string): string {
  const joined = target.startsWith("/") ? target : posix.join(posix.dirname(pageFile(from)), target);
  return posix
    .normalize(joined)
    .replace(/^(\.\.?\/)+/, "")
    .replace(/^\/+/, "");
}

/** The page a file path names: the page imported from that file, else the page at that path (`a/b.md`, `a/b/README.md`). */
function pageAtFile(index: RevisionIndex, file: string): TreeNode | undefined {
  const imported = index.pagesByFile.get(file);
  if (imported) return imported;
  const path = file.replace(/\.md$/i, "").replace(/(^|\/)readme$/i, "");
  // The space's README is its first page.
  return path === "" ? index.tree.all[0] : index.pagesByPath.get(path);
}

interface ResolvedLink {
  key: string;
  status: LinkStatus;
  target: ContentLocation;
}

/** A link whose target is missing; links to the same missing target (`what`) are one item. */
function broken(link: PageVersionLink, what: string = link.url): ResolvedLink {
  return { key: `broken:${what}`, status: "broken", target: { kind: "url", url: link.url } };
}

function pageLink(node: TreeNode, anchor: string | null): ResolvedLink {
  return {
    key: `page:${node.page.id}#${anchor ?? ""}`,
    status: "ok",
    target: { kind: "page", spaceId: node.spaceId, page: node, anchor },
  };
}

function fileLink(file: RevisionFileView): ResolvedLink {
  return { key: `file:${file.id}`, status: "ok", target: { kind: "file", spaceId: file.spaceId, file } };
}

/**
 * What a link of a page means in a revision. Pages and files must be in the revision (else `broken`); URLs of
 * this server naming another space's content point at that space (`broken` when the caller cannot see it);
 * other URLs of this server are `in-app`.
 */
function resolveLink(
  ctx: RequestContext,
  index: RevisionIndex,
  source: TreeNode,
  link: PageVersionLink,
  visibleSpaces: ReadonlySet<string>,
): ResolvedLink {
  const spaceId = index.revision.spaceId;
  switch (link.kind) {
    case "anchor":
      return pageLink(source, link.anchor);
    case "page": {
      const file = linkedFile(source, link.target ?? "");
      const node = pageAtFile(index, file);
      return node ? pageLink(node, link.anchor) : broken(link, `page:${file}`);
    }
    case "file": {
      const file = index.filesByName.get(link.target ?? "");
      return file ? fileLink(file) : broken(link, `file:${link.target}`);
    }
  }
  const app = appTarget(link.url, ctx.config.publicUrl);
  if (!app) return { key: `url:${link.url}`, status: "ok", target: { kind: "url", url: link.url } };
  if (app.type === "other") return { key: `url:${link.url}`, status: "in-app", target: { kind: "url", url: link.url } };
  if (app.spaceId !== spaceId) {
    if (!visibleSpaces.has(app.spaceId)) return broken(link);
    return { key: `space:${app.spaceId}`, status: "ok", target: { kind: "space", spaceId: app.spaceId } };
  }
  if (app.type === "page") {
    const node = index.tree.byId.get(app.pageId);
    return node ? pageLink(node, app.anchor) : broken(link);
  }
  if (app.type === "file") {
    const file = index.filesById.get(app.fileId);
    return file ? fileLink(file) : broken(link);
  }
  return { key: `space:${spaceId}`, status: "ok", target: { kind: "space", spaceId } };
}

/**
 * The links found in some pages of a revision (all of them without `pageId`), one per target, ordered by target.
 * A bounded number of statements, whatever the number of pages: the tree, the files, the links of every page
 * version at once, and the other spaces they name.
 */
async function collectLinks(ctx: RequestContext, revision: Revision, pageId?: string): Promise<ContentLink[]> {
  const index = await revisionIndex(ctx, revision);
  const sources = pageId ? [index.tree.byId.get(pageId)].filter((node) => node !== undefined) : index.tree.all;
  const linksOfSources = await pageVersionLinksLoader(ctx).loadMany(
    sources.map((node) => node.page.versionId as string),
  );
  const otherSpaceIds = new Set<string>();
  for (const links of linksOfSources) {
    if (links instanceof Error) throw links;
    for (const link of links) {
      const app = link.kind === "url" ? appTarget(link.url, ctx.config.publicUrl) : null;
      if (app && app.type !== "other" && app.spaceId !== revision.spaceId) otherSpaceIds.add(app.spaceId);
    }
  }
  const visible = await loadVisibleSpaces(ctx, [...otherSpaceIds]);
  const visibleSpaces = new Set(visible.flatMap((space) => (space ? [space.id] : [])));
  const byKey = new Map<string, ContentLink>();
  sources.forEach((source, position) => {
    for (const link of linksOfSources[position] as PageVersionLink[]) {
      const resolved = resolveLink(ctx, index, source, link, visibleSpaces);
      const entry = byKey.get(resolved.key) ?? { ...resolved, sources: [], occurrences: new Set<string>() };
      if (!entry.sources.includes(source)) entry.sources.push(source);
      entry.occurrences.add(`${source.page.id} ${link.url}`);
      byKey.set(resolved.key, entry);
    }
  });
  return [...byKey.values()].sort((a, b) => byText(a.key, b.key));
}

/**
 * listSpaceLinks, listPageLinksInSpace, listPageLinksInChangeRequest: a revision's links (or one page's), one
 * item per target, filtered by status. `stats` counts targets over the whole list (unfiltered);
 * `broken.changeRequest` counts the broken targets with a link that is not broken in the space's current content
 * (links a change request broke), so it is 0 for the space's own content.
 */
export async function listLinks(
  ctx: RequestContext,
  revision: Revision,
  filters: { pageId?: string; status?: string | null },
  page: PageArgs,
): Promise<LinkPage> {
  const status = parseInput(linkStatusSchema, filters.status);
  const space = await spaceByIdLoader(ctx).load(revision.spaceId);
  const mainRevision = space && space.revisionId !== revision.id ? await revisionOf(ctx, space.revisionId) : null;
  const [links, mainLinks] = await Promise.all([
    collectLinks(ctx, revision, filters.pageId),
    mainRevision ? collectLinks(ctx, mainRevision, filters.pageId) : [],
  ]);
  // Compared link by link (page and link as written), since a broken target's path can move with its page.
  const brokenInMain = new Set(
    mainLinks.filter((link) => link.status === "broken").flatMap((link) => [...link.occurrences]),
  );
  const brokenLinks = links.filter((link) => link.status === "broken");
  const stats: LinkStats = {
    total: links.length,
    broken: {
      total: brokenLinks.length,
      changeRequest: mainRevision
        ? brokenLinks.filter((link) => [...link.occurrences].some((each) => !brokenInMain.has(each))).length
        : 0,
    },
  };
  const listed = status ? links.filter((link) => link.status === status) : links;
  return { ...pageFromRows(page, linkOrder, listed), stats };
}

interface Backlink {
  pageId: string;
  location: ContentLocation;
}

const backlinkOrder: SortKey<Backlink>[] = [{ field: "pageId", direction: "asc" }];

/**
 * listSpacePageBacklinks, listSpaceFileBacklinks, listChangeRequestFileBacklinks: the pages of the revision that
 * link to a page (any anchor of it; not the page itself) or a file, by page id.
 */
export async function listBacklinks(
  ctx: RequestContext,
  revision: Revision,
  target: { pageId: string } | { fileId: string },
  page: PageArgs,
): Promise<Page<ContentLocation>> {
  const links = await collectLinks(ctx, revision);
  const linking = new Map<string, TreeNode>();
  for (const link of links) {
    const { target: to } = link;
    const matches =
      "pageId" in target
        ? to.kind === "page" && to.page.page.id === target.pageId
        : to.kind === "file" && to.file.id === target.fileId;
    if (!matches) continue;
    // A page's own anchors are not backlinks.
    for (const source of link.sources) {
      if (!("pageId" in target && source.page.id === target.pageId)) linking.set(source.page.id, source);
    }
  }
  const rows = [...linking.values()]
    .map((node): Backlink => ({ pageId: node.page.id, location: pageLocation(node) }))
    .sort((a, b) => byText(a.pageId, b.pageId));
  const result = pageFromRows(page, backlinkOrder, rows);
  return mapNodes(result, (backlink) => backlink.location);
}

export function pageLocation(node: PageNode): ContentLocation {
  return { kind: "page", spaceId: node.spaceId, page: node, anchor: null };
}

/**
 * The space a location names: the read revision's own space, or one `listLinks` found visible (else the link is
 * broken and names none); null for URLs.
 */
export async function locationSpace(ctx: RequestContext, location: ContentLocation): Promise<Readable<Space> | null> {
  if (location.kind === "url") return null;
  const space = await spaceByIdLoader(ctx).load(location.spaceId);
  return space && readableAsParent(space);
}
