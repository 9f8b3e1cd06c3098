/*
 * The public API's rich-text document (JSONDocument in the public spec): its types, safe access to nodes that
 * come from API callers, and the plain text of a node.
 */

export type HintStyle = "info" | "success" | "warning" | "danger";

export interface DocumentMark {
  object: "mark";
  type: string;
}

export interface DocumentLeaf {
  object: "leaf";
  text: string;
  marks: DocumentMark[];
}

export interface DocumentText {
  object: "text";
  key?: string;
  leaves: DocumentLeaf[];
}

interface DocumentInline {
  object: "inline";
  type: string;
  key?: string;
  nodes?: DocumentNode[];
  data?: Record<string, unknown>;
  isVoid?: boolean;
}

export interface DocumentFragment {
  object: "fragment";
  key?: string;
  fragment?: string;
  type?: string;
  nodes: DocumentNode[];
}

export interface DocumentBlock {
  object: "block";
  type: string;
  key?: string;
  nodes?: DocumentNode[];
  data?: Record<string, unknown>;
  isVoid?: boolean;
  fragments?: DocumentFragment[];
}

export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;

/** The public API's rich-text document. */
export interface Document {
  object: "document";
  data: { schemaVersion?: number; [name: string]: unknown };
  nodes: DocumentBlock[];
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function childNodes(node: Json): unknown[] {
  return Array.isArray(node.nodes) ? node.nodes : [];
}

export function nodeData(node: Json): Json {
  return isObject(node.data) ? node.data : {};
}

export function refUrl(ref: unknown): string | undefined {
  if (!isObject(ref)) return undefined;
  if (ref.kind === "url" && typeof ref.url === "string") return ref.url;
  if (ref.kind === "anchor" && typeof ref.anchor === "string" && ref.page === undefined) return `#${ref.anchor}`;
  return undefined;
}

function emojiText(code: unknown): string {
  if (typeof code !== "string") return "";
  try {
    return String.fromCodePoint(...code.split("-").map((part) => Number.parseInt(part, 16)));
  } catch {
    return "";
  }
}

/** The text of any document node, whatever its type (leaves, inline data like formulas and labels, children). */
export function plainText(node: unknown): string {
  if (!isObject(node)) return "";
  if (node.object === "text") {
    return (Array.isArray(node.leaves) ? node.leaves : [])
      .map((item) => (isObject(item) && typeof item.text === "string" ? item.text : ""))
      .join("");
  }
  const data = nodeData(node);
  if (node.object === "inline") {
    if (node.type === "expression") return typeof data.expression === "string" ? data.expression : "";
    if (node.type === "emoji") return emojiText(data.code);
    if (typeof data.formula === "string") return data.formula;
    if (typeof data.label === "string") return data.label;
  }
  if (node.type === "inline-image" || node.type === "image") return typeof data.alt === "string" ? data.alt : "";
  return childNodes(node).map(plainText).join("");
}

/** The caption of an image block (its `caption` fragment), or "". */
export function imageCaption(image: DocumentNode): string {
  if (image.object !== "block") return "";
  return (image.fragments ?? [])
    .filter((fragment) => fragment.fragment === "caption")
    .map(plainText)
    .join(" ")
    .trim();
}

/** The rows of a table block as text, header first. */
