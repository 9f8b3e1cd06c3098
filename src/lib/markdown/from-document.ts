import type * as Mdast from "mdast";
import {
  childNodes,
  type Document,
  type DocumentBlock,
  type HintStyle,
  imageCaption,
  isObject,
  type Json,
  nodeData,
  plainText,
  refUrl,
} from "./document.ts";
import {
  codeOptionsOf,
  codeOptionsText,
  type Figure,
  figureHtml,
  hintStyles,
  markOrder,
  mdastText,
  parseCodeOptions,
  parseMarkdown,
  stringifier,
  withinDepth,
} from "./syntax.ts";

// ---------------------------------------------------------------------------------------------------------------
// document -> mdast. Input comes from API callers: every field is checked, unknown nodes keep their text.

function isBlock(node: unknown): node is Json {
  return isObject(node) && node.object === "block";
}

function toMdastBlocks(nodes: readonly unknown[]): Mdast.RootContent[] {
  const result: Mdast.RootContent[] = [];
  let inlines: unknown[] = [];
  const flushInlines = () => {
    const children = toPhrasing(inlines);
    if (children.length > 0) result.push({ type: "paragraph", children });
    inlines = [];
  };
  for (const node of nodes) {
    if (!isObject(node)) continue;
    if (!isBlock(node)) {
      inlines.push(node);
      continue;
    }
    flushInlines();
    result.push(...toMdastBlock(node));
  }
  flushInlines();
  return result;
}

function toMdastBlock(node: Json): Mdast.RootContent[] {
  const type = typeof node.type === "string" ? node.type : "";
  const data = nodeData(node);
  const heading = /^heading-([1-3])$/.exec(type);
  if (heading)
    return [{ type: "heading", depth: Number(heading[1]) as 1 | 2 | 3, children: toPhrasing(childNodes(node)) }];
  switch (type) {
    case "paragraph":
      return [{ type: "paragraph", children: toPhrasing(childNodes(node)) }];
    case "blockquote":
      return [{ type: "blockquote", children: asBlockContent(toMdastBlocks(childNodes(node))) }];
    case "list-ordered":
    case "list-unordered":
    case "list-tasks":
      return [toMdastList(node, type)];
    case "code": {
      const code: Mdast.Code = {
        type: "code",
        lang: typeof data.syntax === "string" && data.syntax !== "" ? data.syntax : null,
        meta: null,
        value: childNodes(node).map(plainText).join("\n"),
      };
      const options = parseCodeOptions(codeOptionsText(codeOptionsOf(data)));
      return [Object.keys(options).length > 0 ? { type: "taggedCode", options, code } : code];
    }
    case "hint":
      return [
        {
          type: "hint",
          style: typeof data.style === "string" && hintStyles.has(data.style) ? (data.style as HintStyle) : "info",
          children: asBlockContent(toMdastBlocks(childNodes(node))),
        },
      ];
    case "divider":
      return [{ type: "thematicBreak" }];
    case "images":
    case "image": {
      const images = type === "image" ? [node] : childNodes(node).filter(isObject);
      const figures = images.map(captionedFigure);
      if (figures.some((figure) => figure !== undefined)) {
        // Markdown images have no caption: each image of the block becomes a figure.
        return images.map((image, index): Mdast.RootContent => {
          const figure = figures[index];
          return figure
            ? { type: "html", value: figureHtml(figure) }
            : { type: "paragraph", children: [toMdastImage(nodeData(image))] };
        });
      }
      const children: Mdast.PhrasingContent[] = [];
      for (const image of images) {
        if (children.length > 0) children.push({ type: "text", value: " " });
        children.push(toMdastImage(nodeData(image)));
      }
      return children.length > 0 ? [{ type: "paragraph", children }] : [];
    }
    case "table":
      return toMdastTable(node);
    default: {
      // A block this format does not know: keep the text of its fragments and children.
      const fragments = Array.isArray(node.fragments) ? node.fragments.filter(isObject).flatMap(childNodes) : [];
      return toMdastBlocks([...fragments, ...childNodes(node)]);
    }
  }
}

/** Markdown nests any block anywhere; the document's narrower nesting rules are the writer's business. */
function asBlockContent(nodes: Mdast.RootContent[]): Mdast.BlockContent[] {
  return nodes as Mdast.BlockContent[];
}

function toMdastList(node: Json, type: string): Mdast.List {
  const data = nodeData(node);
  const ordered = type === "list-ordered";
  const items = childNodes(node)
    .filter(isObject)
    .map((item): Mdast.ListItem => {
      const isItem = item.object === "block" && item.type === "list-item";
      const checked = nodeData(item).checked;
      return {
        type: "listItem",
        spread: false,
        checked: typeof checked === "boolean" ? checked : type === "list-tasks" ? false : null,
        children: asBlockContent(toMdastBlocks(isItem ? childNodes(item) : [item])),
      };
    });
  const start = typeof data.start === "number" && Number.isInteger(data.start) && data.start >= 0 ? data.start : 1;
  return { type: "list", ordered, start: ordered ? start : null, spread: false, children: items };
}

function captionedFigure(image: Json): Figure | undefined {
  const data = nodeData(image);
  const src = refUrl(data.ref);
  const caption = Array.isArray(image.fragments) ? imageCaption(image as unknown as DocumentBlock) : "";
  if (src === undefined || caption === "") return undefined;
  return { src, alt: typeof data.alt === "string" ? data.alt : "", caption };
}

function toMdastImage(data: Json): Mdast.PhrasingContent {
  const url = refUrl(data.ref);
  const alt = typeof data.alt === "string" ? data.alt : "";
  return url === undefined ? { type: "text", value: alt } : { type: "image", url, alt, title: null };
}

function toMdastTable(node: Json): Mdast.RootContent[] {
  const data = nodeData(node);
  const definition = isObject(data.definition) ? data.definition : {};
  const view = isObject(data.view) ? data.view : {};
  const columns = (Array.isArray(view.columns) ? view.columns : Object.keys(definition)).filter(
    (column): column is string => typeof column === "string" && isObject(definition[column]),
  );
  if (columns.length === 0) return [];
  const fragments = new Map<string, Json>();
  for (const fragment of Array.isArray(node.fragments) ? node.fragments : []) {
    if (isObject(fragment) && typeof fragment.fragment === "string") fragments.set(fragment.fragment, fragment);
  }
  const records = Object.entries(isObject(data.records) ? data.records : {})
    .filter((entry): entry is [string, Json] => isObject(entry[1]))
    .sort(([idA, a], [idB, b]) => compareOrder(a.orderIndex, b.orderIndex) || compareOrder(idA, idB));
  const cell = (children: Mdast.PhrasingContent[]): Mdast.TableCell => ({
    type: "tableCell",
    children: singleLine(children),
  });
  const header: Mdast.TableRow = {
    type: "tableRow",
    children: columns.map((column) => {
      const title = (definition[column] as Json).title;
      return cell([{ type: "text", value: typeof title === "string" ? title : "" }]);
    }),
  };
  const rows = records.map(
    ([, record]): Mdast.TableRow => ({
      type: "tableRow",
      children: columns.map((column) =>
        cell(tableValue(isObject(record.values) ? record.values[column] : undefined, fragments)),
      ),
    }),
  );
  const align = columns.map((column) => {
    const alignment = (definition[column] as Json).textAlignment;
    return alignment === "center" || alignment === "right" ? alignment : null;
  });
  return [{ type: "table", align, children: [header, ...rows] }];
}

function compareOrder(a: unknown, b: unknown): number {
  const x = String(a ?? "");
  const y = String(b ?? "");
  return x < y ? -1 : x > y ? 1 : 0;
}

function tableValue(value: unknown, fragments: Map<string, Json>): Mdast.PhrasingContent[] {
  if (typeof value === "string") {
    const fragment = fragments.get(value);
    if (!fragment) return [{ type: "text", value }];
    return childNodes(fragment).flatMap((block, index) => {
      const inlines = isBlock(block) ? toPhrasing(childNodes(block)) : toPhrasing([block]);
      return index > 0 && inlines.length > 0
        ? [{ type: "text", value: " " } as Mdast.PhrasingContent, ...inlines]
        : inlines;
    });
  }
  if (typeof value === "number" || typeof value === "boolean") return [{ type: "text", value: String(value) }];
  if (Array.isArray(value))
    return [{ type: "text", value: value.filter((item) => typeof item === "string").join(", ") }];
  const url = refUrl(value) ?? (isObject(value) ? refUrl(value.ref) : undefined);
  return url === undefined ? [] : [{ type: "text", value: url }];
}

/** A table cell is one line of markdown. */
function singleLine(children: Mdast.PhrasingContent[]): Mdast.PhrasingContent[] {
  return children.map((child) => {
    if (child.type === "text") return { ...child, value: child.value.replace(/\n/g, " ") };
    if (child.type === "inlineCode") return { ...child, value: child.value.replace(/\n/g, " ") };
    if ("children" in child)
      return { ...child, children: singleLine(child.children as Mdast.PhrasingContent[]) } as Mdast.PhrasingContent;
    return child;
  });
}

function toPhrasing(nodes: readonly unknown[]): Mdast.PhrasingContent[] {
  const result: Mdast.PhrasingContent[] = [];
  for (const node of nodes) {
    if (!isObject(node)) continue;
    if (node.object === "text") {
      result.push(...leavesToPhrasing(Array.isArray(node.leaves) ? node.leaves : []));
      continue;
    }
    if (node.object !== "inline") {
      const text = plainText(node);
      if (text !== "") result.push({ type: "text", value: text });
      continue;
    }
    const data = nodeData(node);
    switch (node.type) {
      case "link": {
        const url = refUrl(data.ref);
        const children = toPhrasing(childNodes(node));
        if (url === undefined) result.push(...children);
        else result.push({ type: "link", url, title: null, children: children as Mdast.Link["children"] });
        break;
      }
      case "inline-image":
        result.push(toMdastImage(data));
        break;
      case "expression":
        if (typeof data.expression === "string") result.push({ type: "expression", value: data.expression });
        break;
      default: {
        const text = plainText(node);
        if (text !== "") result.push({ type: "text", value: text });
      }
    }
  }
  return result;
}

interface PlainLeaf {
  text: string;
  marks: ReadonlySet<string>;
}

function leavesToPhrasing(leaves: readonly unknown[]): Mdast.PhrasingContent[] {
  const plain = leaves.filter(isObject).flatMap((item): PlainLeaf[] => {
    if (typeof item.text !== "string" || item.text === "") return [];
    const marks = (Array.isArray(item.marks) ? item.marks : []).flatMap((mark) =>
      isObject(mark) && typeof mark.type === "string" ? [mark.type] : [],
    );
    return [{ text: item.text, marks: new Set(marks) }];
  });
  return nestMarks(plain, 0);
}

/** Wraps runs of leaves sharing a mark into one markdown node, outermost mark first. */
function nestMarks(leaves: readonly PlainLeaf[], level: number): Mdast.PhrasingContent[] {
  const mark = markOrder[level];
  if (mark === undefined) return leaves.map((item): Mdast.PhrasingContent => ({ type: "text", value: item.text }));
  const result: Mdast.PhrasingContent[] = [];
  let index = 0;
  while (index < leaves.length) {
    const marked = leaves[index]?.marks.has(mark) ?? false;
    let end = index;
    while (end < leaves.length && (leaves[end]?.marks.has(mark) ?? false) === marked) end++;
    const run = leaves.slice(index, end);
    if (!marked) result.push(...nestMarks(run, level + 1));
    else if (mark === "code") result.push({ type: "inlineCode", value: run.map((item) => item.text).join("") });
    else {
      const children = nestMarks(run, level + 1);
      if (mark === "bold") result.push({ type: "strong", children });
      else if (mark === "italic") result.push({ type: "emphasis", children });
      else result.push({ type: "delete", children });
    }
    index = end;
  }
  return result;
}

export function tableRowsText(table: DocumentBlock): string[][] {
  const [mdastTable] = toMdastTable(table as unknown as Json);
  if (mdastTable?.type !== "table") return [];
  return mdastTable.children.map((row) => row.children.map(mdastText));
}

/** Writes a rich-text document as markdown; blocks of unknown types keep their text, malformed nodes are skipped. */
export function documentToMarkdown(document: Document): string {
  const nodes = isObject(document) ? childNodes(document as unknown as Json) : [];
  return withinDepth(() => stringifier.stringify({ type: "root", children: toMdastBlocks(nodes) }));
}

/** Markdown as this service writes it (the form documentToMarkdown gives back). */
export function normalizeMarkdown(markdown: string): string {
  return withinDepth(() => stringifier.stringify(parseMarkdown(markdown)));
}
