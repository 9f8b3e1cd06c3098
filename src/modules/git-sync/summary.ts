import { posix } from "node:path";
import type { List, ListItem, Root, RootContent } from "mdast";
import { toString as plainText } from "mdast-util-to-string";
import remarkParse from "remark-parse";
import { unified } from "unified";

/*
 * SUMMARY.md, the page tree of a Git Sync layout, read into entries. Pure (no database, no files): an import
 * parses it on a worker thread under the job's deadline (src/app/heavy-work.worker.ts).
 */

/** A path inside the repository, or an error for one that would leave it. */
export function inside(...parts: string[]): string {
  const path = posix.normalize(posix.join(...parts)).replace(/^\.\//, "");
  if (path.startsWith("./../") || path === ".." || posix.isAbsolute(path)) {
    throw new Error(`The path ${parts.join("/")} leaves the repository`);
  }
  return path === "." ? "" : path;
}

/** An entry of the page tree as SUMMARY.md gives it. */
export interface TreeEntry {
  title: string;
  type: "document" | "link" | "group";
  /** Page file path relative to the root (documents) or the link's URL (links). */
  target: string | null;
  children: TreeEntry[];
}

const isExternal = (url: string) => /^[a-z][a-z0-9+.-]*:/i.test(url);

function listEntries(list: List, summaryDir: string): TreeEntry[] {
  return list.children.flatMap((item: ListItem): TreeEntry[] => {
    const paragraph = item.children.find((child) => child.type === "paragraph");
    const nested = item.children.filter((child): child is List => child.type === "list");
    const children = nested.flatMap((child) => listEntries(child, summaryDir));
    const link = paragraph?.children.find((child) => child.type === "link");
    if (!link) {
      const title = paragraph ? plainText(paragraph).trim() : "";
      return title ? [{ title, type: "group", target: null, children }] : children;
    }
    const title = plainText(link).trim() || link.url;
    if (isExternal(link.url)) return [{ title, type: "link", target: link.url, children: [] }];
    const file = decodeURI(link.url.split("#")[0] ?? "");
    return [{ title, type: "document", target: inside(summaryDir, file), children }];
  });
}

export function summaryEntries(markdown: string, summaryDir: string): TreeEntry[] {
  const tree = unified().use(remarkParse).parse(markdown) as Root;
  const entries: TreeEntry[] = [];
  let group: TreeEntry | null = null;
  for (const node of tree.children as RootContent[]) {
    if (node.type === "heading" && node.depth >= 2) {
      group = { title: plainText(node).trim() || "Group", type: "group", target: null, children: [] };
      entries.push(group);
    } else if (node.type === "list") {
      (group?.children ?? entries).push(...listEntries(node, summaryDir));
    }
  }
  return entries;
}
