import type * as Mdast from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";

const parser = unified().use(remarkParse).use(remarkGfm);

/** GitBook's block tags (`{% hint style="info" %}`) sit in text: they are syntax, never prose. */
const blockTag = /(\{%[^%]*%\})/;

/** Characters that could turn translated prose into markdown syntax; a backslash keeps them literal. */
function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]<>|{}]/g, "\\$&");
}

export interface Segment {
  start: number;
  end: number;
  /** The prose to translate, without its surrounding whitespace (kept as is). */
  text: string;
  before: string;
  after: string;
}

function isTranslatable(text: string): boolean {
  return /\p{L}/u.test(text);
}

/** A segment for `text` spanning `start..end` of the source, keeping its surrounding whitespace. */
function pushProse(segments: Segment[], start: number, end: number, text: string) {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text) as RegExpExecArray;
  const [, before = "", prose = "", after = ""] = match;
  if (isTranslatable(prose)) segments.push({ start, end, text: prose, before, after });
}

/**
 * The prose of a page's markdown, as segments to translate: text of paragraphs, headings, list items, table cells,
 * link texts and emphasis. Code, inline code, HTML (variable expressions), URLs, image sources and alt texts, and
 * block tags are left alone, and everything else in the markdown keeps its exact bytes.
 */
export function proseSegments(markdown: string): Segment[] {
  const tree = parser.parse(markdown) as Mdast.Root;
  const segments: Segment[] = [];
  const visit = (node: Mdast.Nodes) => {
    if (node.type === "text") {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start === undefined || end === undefined) return;
      const source = markdown.slice(start, end);
      if (source !== node.value) {
        // Escapes or entities in the source: translate the text they mean and write it back escaped.
        pushProse(segments, start, end, node.value);
        return;
      }
      let offset = start;
      for (const part of source.split(blockTag)) {
        if (!blockTag.test(part)) pushProse(segments, offset, offset + part.length, part);
        offset += part.length;
      }
      return;
    }
    if ("children" in node) for (const child of node.children) visit(child as Mdast.Nodes);
  };
  visit(tree);
  return segments;
}

/** The markdown with each segment replaced by its translation (same order as `proseSegments`). */
export function applyTranslations(markdown: string, segments: Segment[], translations: string[]): string {
  let result = markdown;
  for (let index = segments.length - 1; index >= 0; index--) {
    const segment = segments[index] as Segment;
    const translated = `${segment.before}${escapeText(translations[index] ?? segment.text)}${segment.after}`;
    result = result.slice(0, segment.start) + translated + result.slice(segment.end);
  }
  return result;
}

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => /\p{L}|\p{N}/u.test(word)).length;
}
