import type * as Mdast from "mdast";
import { childNodes, type DocumentNode, imageCaption, isObject, nodeData, plainText, refUrl } from "./document.ts";
import { tableRowsText } from "./from-document.ts";
import { parseMarkdown, withinDepth } from "./syntax.ts";
import { markdownToDocument } from "./to-document.ts";

export interface ExpressionOccurrence {
  expression: string;
  /** Offsets of the whole `<code class="expression">...</code>` in the markdown. */
  start: number;
  end: number;
}

/** The inline expressions of a markdown text (not those inside code), in order. */
export function markdownExpressions(markdown: string): ExpressionOccurrence[] {
  const found: ExpressionOccurrence[] = [];
  const visit = (node: Mdast.Nodes) => {
    if (node.type === "expression") {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start !== undefined && end !== undefined) found.push({ expression: node.value, start, end });
    }
    if ("children" in node) for (const child of node.children) visit(child);
  };
  withinDepth(() => visit(parseMarkdown(markdown)));
  return found;
}

/** The text of a page, one line per block (search, PDFs). */
export function markdownToPlainText(markdown: string): string {
  return documentLines(markdownToDocument(markdown).nodes).join("\n");
}

export interface MarkdownSection {
  /** The heading's text; null for the text before the first heading. */
  heading: string | null;
  /** The section's text, one line per block. */
  text: string;
}

/** A page's text split at its top-level headings (search hits point at sections); empty sections are left out. */
export function markdownSections(markdown: string, maxBytes?: number): MarkdownSection[] {
  const sections: { heading: string | null; blocks: DocumentNode[] }[] = [{ heading: null, blocks: [] }];
  for (const block of markdownToDocument(markdown, maxBytes).nodes) {
    if (block.type.startsWith("heading-")) sections.push({ heading: plainText(block), blocks: [] });
    else sections.at(-1)?.blocks.push(block);
  }
  return sections
    .map((section) => ({ heading: section.heading, text: documentLines(section.blocks).join("\n").trim() }))
    .filter((section) => section.heading !== null || section.text !== "");
}

function documentLines(blocks: readonly DocumentNode[]): string[] {
  return blocks.flatMap((block): string[] => {
    if (block.object !== "block") return [plainText(block)];
    if (block.type === "table") return tableRowsText(block).map((row) => row.join(" | "));
    if (block.type === "images") {
      return (block.nodes ?? []).flatMap((image) =>
        [plainText(image), imageCaption(image)].filter((line) => line !== ""),
      );
    }
    const children = block.nodes ?? [];
    if (children.some((child) => child.object === "block")) return documentLines(children);
    return [plainText(block)];
  });
}

/**
 * The URLs a markdown text links to (links, images and figures; reference-style ones resolved; not those inside
 * code), in document order: the targets of the document's `url` references.
 */
export function markdownLinkUrls(markdown: string, maxBytes?: number): string[] {
  const urls: string[] = [];
  const visit = (node: unknown) => {
    if (!isObject(node)) return;
    const url = refUrl(nodeData(node).ref);
    if (url !== undefined) urls.push(url);
    for (const child of childNodes(node)) visit(child);
    if (Array.isArray(node.fragments)) for (const fragment of node.fragments) visit(fragment);
  };
  for (const node of markdownToDocument(markdown, maxBytes).nodes) visit(node);
  return urls;
}
