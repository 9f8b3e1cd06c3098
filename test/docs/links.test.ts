import { existsSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import type { Definition, Link, Paragraph, Root } from "mdast";
import { toString as textOf } from "mdast-util-to-string";
import { describe, expect, it } from "vitest";
import { anchors, documentationFiles, parseDocument, parseMarkdown, root, walk } from "./markdown.ts";

/** Relative links and anchors of a file: `[text](path#anchor)` and `[label]: path` definitions. */
function relativeLinks(file: string): { url: string; line: number }[] {
  const links = [];
  for (const node of walk(parseDocument(file))) {
    if (node.type !== "link" && node.type !== "definition") continue;
    const { url, position } = node as Link | Definition;
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) continue; // https:, mailto:: outside the repository
    links.push({ url, line: position?.start.line ?? 0 });
  }
  return links;
}

/** Why the link does not resolve, or undefined when it does. */
function brokenReason(file: string, url: string): string | undefined {
  const [path = "", anchor] = url.split("#");
  const target = path ? normalize(join(dirname(file), decodeURIComponent(path))) : file;
  if (target.startsWith("..")) return "points outside the repository";
  if (!existsSync(join(root, target))) return `${target} does not exist`;
  if (anchor === undefined) return undefined;
  if (!target.endsWith(".md")) return `#${anchor} on a file that is not Markdown`;
  if (!documentationFiles.includes(target)) return `#${anchor} in ${target}, which is not checked`;
  return anchors(target).has(anchor) ? undefined : `${target} has no heading #${anchor}`;
}

describe("the documentation's links", () => {
  it("are checked in every documentation file", () => {
    expect(documentationFiles).toEqual(
      expect.arrayContaining([
        "README.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
        "docs/configuration.md",
        "docs/performance.md",
      ]),
    );
  });

  it.each(documentationFiles)("%s: every relative link and #anchor resolves", (file) => {
    const broken = relativeLinks(file)
      .map(({ url, line }) => ({ url, line, reason: brokenReason(file, url) }))
      .filter((link) => link.reason !== undefined)
      .map(({ url, line, reason }) => `${file}:${line} ${url}: ${reason}`);
    expect(broken).toEqual([]);
  });

  it("a broken link or anchor is reported", () => {
    expect(brokenReason("README.md", "docs/missing.md")).toBe("docs/missing.md does not exist");
    expect(brokenReason("docs/operations.md", "configuration.md#no-such-heading")).toBe(
      "docs/configuration.md has no heading #no-such-heading",
    );
    expect(brokenReason("docs/operations.md", "#shutdown")).toBeUndefined();
  });
});

/** Lines of paragraphs that look like table rows: a table split by a blank line renders its rest that way. */
const paragraphsOfPipes = (tree: Root) =>
  [...walk(tree)]
    .filter((node): node is Paragraph => node.type === "paragraph")
    .filter((node) => /^\|.*\|$/m.test(textOf(node)))
    .map((node) => node.position?.start.line);

describe("the documentation's tables", () => {
  it.each(documentationFiles)("%s: every table renders as a table (no row cut off by a blank line)", (file) => {
    expect(paragraphsOfPipes(parseDocument(file))).toEqual([]);
  });

  it("a table cut by a blank line is reported", () => {
    const cut = "| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n";
    expect(paragraphsOfPipes(parseMarkdown(cut))).toEqual([5]);
  });
});
