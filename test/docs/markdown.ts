import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import GithubSlugger from "github-slugger";
import type { Code, Heading, Root, RootContent } from "mdast";
import { toString as textOf } from "mdast-util-to-string";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

// The repository's Markdown documentation, parsed the way GitHub renders it (CommonMark and GFM), for the tests that
// run its code blocks and check its links and tables.

export const root = join(import.meta.dirname, "..", "..");

/** Every documentation file, relative to the repository's root. */
export const documentationFiles: string[] = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

const parser = unified().use(remarkParse).use(remarkGfm);
const parsed = new Map<string, Root>();

/** Markdown's syntax tree. */
export const parseMarkdown = (text: string): Root => parser.parse(text);

/** The file's syntax tree (parsed once per test file). */
export function parseDocument(file: string): Root {
  let tree = parsed.get(file);
  if (!tree) {
    tree = parseMarkdown(readFileSync(join(root, file), "utf8"));
    parsed.set(file, tree);
  }
  return tree;
}

/** Every node of the tree, depth first, in document order. */
export function* walk(node: Root | RootContent): Generator<Root | RootContent> {
  yield node;
  if ("children" in node) for (const child of node.children) yield* walk(child);
}

export interface CodeBlock {
  file: string;
  line: number;
  /** The info string's first word: `sh`, `ts`, `graphql`, `text`, ... */
  language: string | undefined;
  /** The info string's other words, e.g. `file=client.mts` or `skip-test`. */
  tags: string[];
  /** The `## ` section it is in. */
  section: string | undefined;
  code: string;
}

/** The fenced code blocks of a file, in order. */
export function codeBlocks(file: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let section: string | undefined;
  for (const node of walk(parseDocument(file))) {
    if (node.type === "heading" && (node as Heading).depth === 2) section = textOf(node);
    if (node.type !== "code") continue;
    const code = node as Code;
    blocks.push({
      file,
      line: code.position?.start.line ?? 0,
      language: code.lang ?? undefined,
      tags: code.meta?.split(/\s+/).filter(Boolean) ?? [],
      section,
      code: code.value,
    });
  }
  return blocks;
}

/** The value of a block's `name=value` tag. */
export const tagValue = (block: CodeBlock, name: string) =>
  block.tags.find((tag) => tag.startsWith(`${name}=`))?.slice(name.length + 1);

/** The anchors GitHub gives the file's headings (github-slugger: the same slugs, `-1` for repeats). */
export function anchors(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  for (const node of walk(parseDocument(file))) {
    if (node.type === "heading") found.add(slugger.slug(textOf(node)));
  }
  return found;
}
