import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, posix } from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { slugify } from "../../lib/slug.ts";
import { newId } from "../../platform/ids.ts";
import {
  type ContentState,
  childrenOf,
  type NewBlob,
  type PageState,
  sha256,
  uniqueSlug,
} from "../content/content.public.ts";
import { inside, type TreeEntry } from "./summary.ts";

/**
 * The layout Git Sync users expect: `.gitbook.yaml` (`root`, `structure.readme`, `structure.summary`) in the
 * project directory, the page tree in SUMMARY.md (nested lists of links; `## headings` are groups), one markdown
 * file per page, and files in `.gitbook/assets/` under the root.
 */
export interface Layout {
  /** The content root, relative to the repository. */
  root: string;
  readme: string;
  summary: string;
}

const assetsFolder = ".gitbook/assets";

export async function readLayout(dir: string, projectDirectory: string): Promise<Layout> {
  const project = inside(projectDirectory);
  const configFile = join(dir, project, ".gitbook.yaml");
  const config = existsSync(configFile)
    ? ((parseYaml(await readFile(configFile, "utf8")) ?? {}) as {
        root?: unknown;
        structure?: { readme?: unknown; summary?: unknown };
      })
    : {};
  const text = (value: unknown, fallback: string) => (typeof value === "string" && value ? value : fallback);
  return {
    root: inside(project, text(config.root, ".")),
    readme: inside(text(config.structure?.readme, "README.md")),
    summary: inside(text(config.structure?.summary, "SUMMARY.md")),
  };
}

const contentTypes: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
  pdf: "application/pdf",
  txt: "text/plain",
  json: "application/json",
  csv: "text/csv",
  zip: "application/zip",
};

function contentTypeOf(name: string): string {
  return contentTypes[posix.extname(name).slice(1).toLowerCase()] ?? "application/octet-stream";
}

/** A page file split into its front matter `description`, its leading `# title` and its body. */
function parsePageFile(text: string): { description: string | null; heading: string | null; body: string } {
  let rest = text.replace(/\r\n/g, "\n");
  let description: string | null = null;
  const front = /^---\n([\s\S]*?)\n---\n?/.exec(rest);
  if (front) {
    const data = parseYaml(front[1] ?? "") as { description?: unknown } | null;
    if (typeof data?.description === "string") description = data.description;
    rest = rest.slice(front[0].length);
  }
  const heading = /^\s*# (.+)\n*/.exec(rest);
  if (heading) rest = rest.slice(heading[0].length);
  return { description, heading: heading?.[1]?.trim() ?? null, body: rest };
}

function renderPageFile(page: PageState): string {
  const front = page.description ? `---\n${stringifyYaml({ description: page.description })}---\n\n` : "";
  const body = page.markdown.trim() ? `\n${page.markdown.replace(/^\n+/, "")}` : "";
  return `${front}# ${page.title}\n${body}${body.endsWith("\n") || !body ? "" : "\n"}`;
}

async function markdownFiles(dir: string, base: string): Promise<string[]> {
  if (!existsSync(join(dir, base))) return [];
  const entries = await readdir(join(dir, base), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
    .map((entry) => inside(posix.relative(join(dir, base), join(entry.parentPath, entry.name))))
    .filter((path) => !path.startsWith(".gitbook/") && !path.startsWith(".git/"))
    .sort();
}

/** Reads SUMMARY.md's entries (`summaryEntries`; the import runs it on a worker thread). */
export type SummaryParser = (markdown: string, summaryDir: string) => Promise<TreeEntry[]>;

export interface ImportedContent {
  state: ContentState;
  blobs: NewBlob[];
}

/**
 * Builds a revision's content from a checked-out tree. Pages and files already in `base` with the same Git path
 * (or file name) keep their ids, and unchanged pages keep their stored versions, so a re-import of the same
 * commit changes nothing and diffs show only what moved.
 */
export async function importTree(
  dir: string,
  layout: Layout,
  blobIds: Map<string, string>,
  base: ContentState,
  now: Date,
  parseSummary: SummaryParser,
): Promise<ImportedContent> {
  const rootDir = join(dir, layout.root);
  const summaryFile = join(rootDir, layout.summary);
  let entries: TreeEntry[] = existsSync(summaryFile)
    ? await parseSummary(await readFile(summaryFile, "utf8"), posix.dirname(layout.summary))
    : (await markdownFiles(dir, layout.root))
        .filter((path) => path !== layout.summary)
        .map((path) => ({ title: "", type: "document" as const, target: path, children: [] }));
  const listed = new Set<string>();
  const collect = (list: TreeEntry[]) => {
    for (const entry of list) {
      if (entry.type === "document" && entry.target) listed.add(entry.target);
      collect(entry.children);
    }
  };
  collect(entries);
  if (!listed.has(layout.readme) && existsSync(join(rootDir, layout.readme))) {
    entries = [{ title: "", type: "document", target: layout.readme, children: [] }, ...entries];
  }

  const byPath = new Map<string, PageState>();
  for (const page of base.pages.values()) if (page.git) byPath.set(page.git.path, page);
  const state: ContentState = { pages: new Map(), files: new Map(), variables: { ...base.variables } };
  const claimed = new Set<string>();

  const addEntries = async (list: TreeEntry[], parentId: string | null) => {
    for (const [position, entry] of list.entries()) {
      const gitPath = entry.type === "document" && entry.target ? inside(layout.root, entry.target) : null;
      const existing = gitPath && !claimed.has(gitPath) ? byPath.get(gitPath) : undefined;
      if (gitPath) claimed.add(gitPath);
      const fileText =
        entry.type === "document" && entry.target && existsSync(join(rootDir, entry.target))
          ? await readFile(join(rootDir, entry.target), "utf8")
          : "";
      const file = parsePageFile(fileText);
      const title = entry.title || file.heading || titleFromPath(entry.target ?? "Page");
      const wanted = slugify(entry.type === "document" && entry.target ? slugOfPath(entry.target) : title, "page");
      const id = existing?.id ?? newId("Page");
      const git = gitPath ? { oid: blobIds.get(gitPath) ?? "", path: gitPath } : null;
      const fields = {
        type: entry.type,
        title,
        description: file.description,
        markdown: entry.type === "document" ? file.body : "",
        href: entry.type === "link" ? entry.target : null,
      };
      const unchanged =
        existing &&
        existing.git?.oid === git?.oid &&
        existing.type === fields.type &&
        existing.title === fields.title &&
        existing.description === fields.description &&
        existing.markdown === fields.markdown;
      const page: PageState = unchanged
        ? { ...existing, parentId, position }
        : {
            id,
            versionId: null,
            parentId,
            position,
            ...fields,
            emoji: existing?.emoji ?? null,
            slug: existing?.slug ?? wanted,
            layout: existing?.layout ?? null,
            cover: existing?.cover ?? null,
            hidden: existing?.hidden ?? false,
            noIndex: existing?.noIndex ?? false,
            noRobotsIndex: existing?.noRobotsIndex ?? false,
            variables: existing?.variables ?? {},
            // A page read from Git is the document its file holds, even where it was a computed page before.
            computed: null,
            computedSeed: null,
            git,
            createdAt: existing?.createdAt ?? now,
            updatedAt: now,
          };
      const slug = uniqueSlug(state, parentId, page.slug, id);
      state.pages.set(id, slug === page.slug ? page : { ...page, slug, versionId: null });
      await addEntries(entry.children, id);
    }
  };
  await addEntries(entries, null);

  const blobs: NewBlob[] = [];
  const fileIdByName = new Map([...base.files.values()].map((file) => [file.name, file.id]));
  const assetsDir = join(rootDir, assetsFolder);
  if (existsSync(assetsDir)) {
    for (const entry of await readdir(assetsDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const name = posix.relative(assetsDir, join(entry.parentPath, entry.name));
      const bytes = await readFile(join(entry.parentPath, entry.name));
      const hash = sha256(bytes);
      blobs.push({ hash, bytes });
      const id = fileIdByName.get(name) ?? newId("File");
      state.files.set(id, {
        id,
        name,
        contentType: contentTypeOf(name),
        blobHash: hash,
        size: bytes.length,
        width: null,
        height: null,
      });
    }
  }
  return { state, blobs };
}

function slugOfPath(path: string): string {
  const withoutExtension = path.replace(/\.md$/i, "");
  return posix.basename(withoutExtension) === "README"
    ? posix.basename(posix.dirname(withoutExtension)) || "readme"
    : posix.basename(withoutExtension);
}

function titleFromPath(path: string): string {
  const words = slugOfPath(path).replace(/[-_]+/g, " ").trim();
  return words ? words[0]?.toUpperCase() + words.slice(1) : "Page";
}

/**
 * Lays a revision out as files: pages keep the path they were imported from; new pages get one from their
 * slugs (a page with subpages becomes `<slug>/README.md`, its subpages files in `<slug>/`).
 */
export function exportTree(
  state: ContentState,
  layout: Layout,
  assets: Map<string, Buffer>,
): { files: Map<string, Buffer> } {
  const files = new Map<string, Buffer>();
  const used = new Set<string>();
  const claim = (wanted: string): string => {
    let path = wanted;
    for (let n = 2; used.has(path); n++) path = wanted.replace(/(\.md)?$/i, `-${n}$1`);
    used.add(path);
    return path;
  };
  const ownPath = (page: PageState) => {
    const path = page.git?.path;
    return path?.startsWith(layout.root ? `${layout.root}/` : "") ? posix.relative(layout.root || ".", path) : null;
  };
  for (const page of state.pages.values()) {
    const path = ownPath(page);
    if (path && !used.has(path)) used.add(path);
  }
  const summaryDir = posix.dirname(layout.summary);
  const lines: string[] = ["# Table of contents", ""];
  const visit = (parentId: string | null, folder: string, depth: number) => {
    for (const [index, page] of childrenOf(state, parentId).entries()) {
      const indent = "  ".repeat(depth);
      const hasChildren = childrenOf(state, page.id).length > 0;
      if (page.type === "link") {
        lines.push(`${indent}* [${page.title}](${page.href ?? ""})`);
        continue;
      }
      if (page.type === "group") {
        if (depth === 0) lines.push("", `## ${page.title}`, "");
        else lines.push(`${indent}* ${page.title}`);
        visit(page.id, posix.join(folder, page.slug), depth === 0 ? 0 : depth + 1);
        continue;
      }
      const own = ownPath(page);
      const first = parentId === null && index === 0 && !used.has(layout.readme);
      const path =
        own ??
        claim(
          first
            ? layout.readme
            : posix.join(folder, hasChildren ? `${page.slug}/README.md` : `${page.slug}.md`).replace(/^\.\//, ""),
        );
      files.set(path, Buffer.from(renderPageFile(page)));
      lines.push(`${indent}* [${page.title}](${encodeURI(posix.relative(summaryDir, path))})`);
      const childFolder = /(^|\/)README\.md$/i.test(path) ? posix.dirname(path) : path.replace(/\.md$/i, "");
      visit(page.id, first ? folder : childFolder, depth + 1);
    }
  };
  visit(null, "", 0);
  files.set(layout.summary, Buffer.from(`${lines.join("\n").replace(/\n{3,}/g, "\n\n")}\n`));
  for (const [name, bytes] of assets) files.set(posix.join(assetsFolder, name), bytes);
  return { files };
}

/**
 * Replaces what an export owns under the content root (markdown files and the assets folder) with `files`;
 * other files of the repository (code, CI settings, `.gitbook.yaml`) stay as they are.
 */
export async function writeTree(dir: string, layout: Layout, files: Map<string, Buffer>): Promise<void> {
  const rootDir = join(dir, layout.root);
  for (const path of await markdownFiles(dir, layout.root)) await rm(join(rootDir, path));
  await rm(join(rootDir, assetsFolder), { recursive: true, force: true });
  for (const [path, bytes] of files) {
    const target = join(rootDir, inside(path));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
}
