import type * as Mdast from "mdast";
import type {
  Document,
  DocumentBlock,
  DocumentFragment,
  DocumentLeaf,
  DocumentMark,
  DocumentNode,
  DocumentText,
} from "./document.ts";
import { ConvertedTooLargeError, maxNodesWithin } from "./output-bound.ts";
import {
  type CodeOptions,
  documentSchemaVersion,
  type Figure,
  type MarkType,
  markOrder,
  mdastText,
  parseFigure,
  parseMarkdown,
  withinDepth,
} from "./syntax.ts";

// ---------------------------------------------------------------------------------------------------------------
// mdast -> document

class DocumentBuilder {
  private count = 0;
  private readonly definitions = new Map<string, string>();
  private readonly maxNodes: number;

  constructor(
    root: Mdast.Root,
    private readonly maxBytes: number,
  ) {
    collectDefinitions(root, this.definitions);
    this.maxNodes = maxNodesWithin(maxBytes);
  }

  /** Every node has a key: counting them bounds the document's size while it is built. */
  private key(): string {
    if (this.count >= this.maxNodes) throw new ConvertedTooLargeError(this.maxBytes);
    return `k${(this.count++).toString(36)}`;
  }

  blocks(nodes: readonly Mdast.RootContent[]): DocumentBlock[] {
    return nodes.flatMap((node) => this.block(node));
  }

  private block(node: Mdast.RootContent): DocumentBlock[] {
    switch (node.type) {
      case "heading":
        return [this.textBlock(`heading-${Math.min(node.depth, 3)}`, node.children)];
      case "paragraph":
        return [this.isImageParagraph(node) ? this.images(node) : this.textBlock("paragraph", node.children)];
      case "blockquote":
        return [
          {
            object: "block",
            type: "blockquote",
            key: this.key(),
            nodes: this.blocks(node.children),
            data: {},
            isVoid: false,
          },
        ];
      case "list":
        return [this.list(node)];
      case "code":
        return [this.code(node, {})];
      case "taggedCode":
        return [this.code(node.code, node.options)];
      case "thematicBreak":
        return [{ object: "block", type: "divider", key: this.key(), data: {}, isVoid: true }];
      case "table":
        return [this.table(node)];
      case "hint": {
        const key = this.key();
        return [
          {
            object: "block",
            type: "hint",
            key,
            nodes: this.blocks(node.children),
            data: { style: node.style },
            isVoid: false,
          },
        ];
      }
      case "html": {
        const figure = parseFigure(node.value);
        if (figure) return [this.figure(figure)];
        return [this.textBlock("paragraph", [{ type: "text", value: node.value }])];
      }
      case "definition":
        return [];
      default:
        if ("children" in node && node.children.some((child) => isMdastBlock(child as Mdast.RootContent))) {
          return this.blocks(node.children as Mdast.RootContent[]);
        }
        return [this.textBlock("paragraph", [{ type: "text", value: mdastText(node) }])];
    }
  }

  private textBlock(type: string, children: readonly Mdast.PhrasingContent[]): DocumentBlock {
    const key = this.key();
    return { object: "block", type, key, nodes: this.inlines(children), data: {}, isVoid: false };
  }

  private list(node: Mdast.List): DocumentBlock {
    const key = this.key();
    const tasks =
      !node.ordered && node.children.length > 0 && node.children.every((item) => typeof item.checked === "boolean");
    const type = node.ordered ? "list-ordered" : tasks ? "list-tasks" : "list-unordered";
    const data = node.ordered && typeof node.start === "number" && node.start !== 1 ? { start: node.start } : {};
    const items = node.children.map((item): DocumentBlock => {
      const itemKey = this.key();
      return {
        object: "block",
        type: "list-item",
        key: itemKey,
        nodes: this.blocks(item.children),
        data: typeof item.checked === "boolean" ? { checked: item.checked } : {},
        isVoid: false,
      };
    });
    return { object: "block", type, key, nodes: items, data, isVoid: false };
  }

  private code(node: Mdast.Code, options: CodeOptions): DocumentBlock {
    const key = this.key();
    const lines = node.value.split(/\r?\n/).map(
      (line): DocumentBlock => ({
        object: "block",
        type: "code-line",
        key: this.key(),
        nodes: [this.text([leaf(line, [])])],
        data: {},
        isVoid: false,
      }),
    );
    return {
      object: "block",
      type: "code",
      key,
      nodes: lines,
      data: node.lang ? { syntax: node.lang, ...options } : { ...options },
      isVoid: false,
    };
  }

  private table(node: Mdast.Table): DocumentBlock {
    const key = this.key();
    const [header, ...rows] = node.children;
    const headerCells = header?.children ?? [];
    const columns = headerCells.map((_, index) => `${key}c${index}`);
    const definition: Record<string, unknown> = {};
    headerCells.forEach((cell, index) => {
      const id = columns[index] as string;
      definition[id] = { id, title: mdastText(cell), type: "text", textAlignment: node.align?.[index] ?? "left" };
    });
    const records: Record<string, unknown> = {};
    const fragments: DocumentFragment[] = [];
    const width = String(rows.length).length;
    rows.forEach((row, rowIndex) => {
      const values: Record<string, string> = {};
      columns.forEach((column, columnIndex) => {
        const fragment = `${key}r${rowIndex}c${columnIndex}`;
        values[column] = fragment;
        const cell = this.textBlock("paragraph", row.children[columnIndex]?.children ?? []);
        fragments.push({ object: "fragment", key: this.key(), fragment, nodes: [cell] });
      });
      records[`${key}r${rowIndex}`] = { orderIndex: String(rowIndex).padStart(width, "0"), values };
    });
    return {
      object: "block",
      type: "table",
      key,
      data: { view: { type: "grid", columns, hideHeader: false }, records, definition },
      fragments,
      isVoid: true,
    };
  }

  private isImageParagraph(node: Mdast.Paragraph): boolean {
    const images = node.children.filter(isImage);
    return (
      images.length > 0 &&
      images.every((image) => this.imageUrl(image) !== undefined) &&
      node.children.every((child) => isImage(child) || (child.type === "text" && child.value.trim() === ""))
    );
  }

  private imageUrl(node: Mdast.Image | Mdast.ImageReference): string | undefined {
    return node.type === "image" ? node.url : this.definitions.get(normalizeLabel(node.identifier));
  }

  private images(node: Mdast.Paragraph): DocumentBlock {
    const key = this.key();
    const images = node.children.filter(isImage).map((image): DocumentBlock => {
      const data: Record<string, unknown> = { ref: { kind: "url", url: this.imageUrl(image) } };
      if (image.alt) data.alt = image.alt;
      return { object: "block", type: "image", key: this.key(), data, fragments: [], isVoid: true };
    });
    return { object: "block", type: "images", key, nodes: images, data: {}, isVoid: false };
  }

  private figure(figure: Figure): DocumentBlock {
    const key = this.key();
    const data: Record<string, unknown> = { ref: { kind: "url", url: figure.src } };
    if (figure.alt) data.alt = figure.alt;
    const image: DocumentBlock = { object: "block", type: "image", key: this.key(), data, fragments: [], isVoid: true };
    if (figure.caption) {
      const caption = this.textBlock("paragraph", [{ type: "text", value: figure.caption }]);
      image.fragments = [{ object: "fragment", key: this.key(), fragment: "caption", nodes: [caption] }];
    }
    return { object: "block", type: "images", key, nodes: [image], data: {}, isVoid: false };
  }

  private text(leaves: DocumentLeaf[]): DocumentText {
    return { object: "text", key: this.key(), leaves };
  }

  private inlines(children: readonly Mdast.PhrasingContent[]): DocumentNode[] {
    const result: DocumentNode[] = [];
    let leaves: DocumentLeaf[] = [];
    const flush = () => {
      if (leaves.length > 0) result.push(this.text(leaves));
      leaves = [];
    };
    const add = (raw: string, marks: ReadonlySet<MarkType>) => {
      const text = raw.replace(/\r\n?/g, "\n");
      if (text === "") return;
      const last = leaves[leaves.length - 1];
      const markList = markOrder
        .filter((mark) => marks.has(mark))
        .map((type): DocumentMark => ({ object: "mark", type }));
      if (last && sameMarks(last.marks, markList)) last.text += text;
      else leaves.push(leaf(text, markList));
    };
    const visit = (node: Mdast.PhrasingContent, marks: ReadonlySet<MarkType>): void => {
      switch (node.type) {
        case "text":
        case "html":
          add(node.value, marks);
          return;
        case "break":
          add("\n", marks);
          return;
        case "inlineCode":
          add(node.value, new Set([...marks, "code"]));
          return;
        case "strong":
        case "emphasis":
        case "delete": {
          const mark = node.type === "strong" ? "bold" : node.type === "emphasis" ? "italic" : "strikethrough";
          for (const child of node.children) visit(child, new Set([...marks, mark]));
          return;
        }
        case "link":
        case "linkReference": {
          const url = node.type === "link" ? node.url : this.definitions.get(normalizeLabel(node.identifier));
          if (url === undefined) {
            for (const child of node.children) visit(child, marks);
            return;
          }
          flush();
          const key = this.key();
          result.push({
            object: "inline",
            type: "link",
            key,
            nodes: this.inlines(node.children),
            data: { ref: { kind: "url", url } },
            isVoid: false,
          });
          return;
        }
        case "image":
        case "imageReference": {
          const url = this.imageUrl(node);
          if (url === undefined) {
            add(node.alt ?? "", marks);
            return;
          }
          flush();
          const data: Record<string, unknown> = { ref: { kind: "url", url } };
          if (node.alt) data.alt = node.alt;
          result.push({ object: "inline", type: "inline-image", key: this.key(), data, isVoid: true });
          return;
        }
        case "expression":
          flush();
          result.push({
            object: "inline",
            type: "expression",
            key: this.key(),
            data: { expression: node.value },
            isVoid: true,
          });
          return;
        case "footnoteReference":
          add(`[^${node.label ?? node.identifier}]`, marks);
          return;
        default:
          add(mdastText(node), marks);
          return;
      }
    };
    for (const child of children) visit(child, new Set());
    flush();
    return result;
  }
}

function isImage(node: Mdast.PhrasingContent): node is Mdast.Image | Mdast.ImageReference {
  return node.type === "image" || node.type === "imageReference";
}

function leaf(text: string, marks: DocumentMark[]): DocumentLeaf {
  return { object: "leaf", text, marks };
}

function sameMarks(a: readonly DocumentMark[], b: readonly DocumentMark[]): boolean {
  return a.length === b.length && a.every((mark, index) => mark.type === b[index]?.type);
}

function normalizeLabel(label: string): string {
  return label.toLowerCase().replace(/\s+/g, " ").trim();
}

function collectDefinitions(node: Mdast.Nodes, into: Map<string, string>): void {
  if (node.type === "definition") {
    const label = normalizeLabel(node.identifier);
    if (!into.has(label)) into.set(label, node.url);
  }
  if ("children" in node) for (const child of node.children) collectDefinitions(child, into);
}

const mdastBlockTypes = new Set([
  "paragraph",
  "heading",
  "blockquote",
  "list",
  "code",
  "thematicBreak",
  "table",
  "hint",
  "html",
  "definition",
]);

function isMdastBlock(node: Mdast.RootContent): boolean {
  return mdastBlockTypes.has(node.type);
}

/** Parses markdown (CommonMark + GFM + GitBook hints and expressions) into the rich-text document. */
/** The document of a markdown text; past `maxBytes` of document nodes, `ConvertedTooLargeError`. */
export function markdownToDocument(markdown: string, maxBytes = Number.POSITIVE_INFINITY): Document {
  return withinDepth(() => {
    const root = parseMarkdown(markdown);
    const nodes = new DocumentBuilder(root, maxBytes).blocks(root.children);
    return { object: "document", data: { schemaVersion: documentSchemaVersion }, nodes };
  });
}
