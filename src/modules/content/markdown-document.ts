import type * as Mdast from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkStringify, { type Options as StringifyOptions } from "remark-stringify";
import { unified } from "unified";
import { InvalidInputError } from "../../lib/errors.ts";

/*
 * Pages are stored as markdown and also served as the public API's rich-text document (JSONDocument in the
 * public spec). Both directions go through mdast (remark-parse + remark-gfm, remark-stringify), with GitBook's
 * own constructs lifted into mdast nodes: hints (`{% hint style="info" %} ... {% endhint %}`), code options
 * (`{% code title="..." %}` around a fence) and inline expressions
 * (`<code class="expression">space.vars.name</code>`); `<figure>` images are read from their HTML. Keys are numbered in document order, so the same markdown always
 * gives the same document.
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

export interface DocumentInline {
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

interface HintNode extends Mdast.Parent {
  type: "hint";
  style: HintStyle;
  children: Mdast.BlockContent[];
}

/** GitBook's options of a code block, written `{% code title="app.js" lineNumbers="true" %}` around the fence. */
interface CodeOptions {
  title?: string;
  overflow?: "wrap" | "scroll";
  lineNumbers?: boolean;
  fullWidth?: boolean;
  expandable?: boolean;
}

interface TaggedCodeNode extends Mdast.Node {
  type: "taggedCode";
  options: CodeOptions;
  code: Mdast.Code;
}

interface ExpressionNode extends Mdast.Node {
  type: "expression";
  value: string;
}

declare module "mdast" {
  interface BlockContentMap {
    hint: HintNode;
    taggedCode: TaggedCodeNode;
  }
  interface RootContentMap {
    hint: HintNode;
    taggedCode: TaggedCodeNode;
    expression: ExpressionNode;
  }
  interface PhrasingContentMap {
    expression: ExpressionNode;
  }
}

const documentSchemaVersion = 1;
const hintStyles = new Set<string>(["info", "success", "warning", "danger"]);
const hintOpenLine = /^\s*\{%\s*hint\s+style=(["'])(info|success|warning|danger)\1\s*%\}\s*$/;
const hintCloseLine = /^\s*\{%\s*endhint\s*%\}\s*$/;
const codeOpenLine = /^\s*\{%\s*code((?:\s+\w+=(?:"[^"]*"|'[^']*'))*)\s*%\}\s*$/;
const codeCloseLine = /^\s*\{%\s*endcode\s*%\}\s*$/;
const expressionOpenTag = /^<code\s+class\s*=\s*(["'])expression\1\s*>$/i;
const expressionCloseTag = /^<\/code\s*>$/i;
/** Marks in the order they nest when written as markdown (outermost first). */
const markOrder = ["bold", "italic", "strikethrough", "code"] as const;
type MarkType = (typeof markOrder)[number];

const parser = unified().use(remarkParse).use(remarkGfm);

const stringifyOptions: StringifyOptions = {
  bullet: "-",
  emphasis: "_",
  strong: "*",
  fence: "`",
  fences: true,
  rule: "-",
  listItemIndent: "one",
  handlers: {
    hint(node: HintNode, _parent, state, info) {
      const body = state.containerFlow(node as unknown as Mdast.Root, info);
      return `{% hint style="${node.style}" %}\n${body ? `${body}\n` : ""}{% endhint %}`;
    },
    taggedCode(node: TaggedCodeNode, _parent, state, info) {
      const fence = state.handle(node.code, undefined, state, info);
      return `{% code${codeOptionsText(node.options)} %}\n${fence}\n{% endcode %}`;
    },
    expression(node: ExpressionNode, _parent, state) {
      const text = state.safe(node.value.replace(/\n/g, " "), { before: ">", after: "<" });
      return `<code class="expression">${text}</code>`;
    },
  } as StringifyOptions["handlers"],
};
const stringifier = unified().use(remarkGfm).use(remarkStringify, stringifyOptions);

// ---------------------------------------------------------------------------------------------------------------
// markdown -> mdast with hints and expressions

/**
 * Markdown nested deeper than this is refused: the parser takes superlinear time on deeply nested lists, brackets
 * and long emphasis runs, and very deep trees overflow its recursion. Real pages stay far below. Measured per
 * line for container syntax (indentation, `>`, list markers), over the text for open brackets, per run of
 * emphasis delimiters.
 */
const maxNesting = 256;
const containerPrefix = /^(?:[ \t>]|[-+*](?=[ \t])|\d{1,9}[.)](?=[ \t]))*/;
const longDelimiterRun = new RegExp(`[*_~]{${maxNesting + 1}}`);

/** Refuses (400) markdown nested deeper than the parser handles in bounded time; pages are checked when written. */
export function checkNesting(markdown: string): void {
  if (longDelimiterRun.test(markdown)) tooDeep();
  for (const line of markdown.split("\n")) {
    if ((containerPrefix.exec(line)?.[0].length ?? 0) > maxNesting) tooDeep();
  }
  let brackets = 0;
  for (let index = 0; index < markdown.length; index++) {
    const character = markdown[index];
    if (character === "\\") index++;
    else if (character === "[" && ++brackets > maxNesting) tooDeep();
    else if (character === "]" && brackets > 0) brackets--;
  }
}

function tooDeep(): never {
  throw new InvalidInputError("The content is nested too deeply.");
}

/** Runs a conversion; a tree too deep for the call stack becomes a 400 rather than a crash. */
function withinDepth<T>(convert: () => T): T {
  try {
    return convert();
  } catch (error) {
    if (error instanceof RangeError) tooDeep();
    throw error;
  }
}

function parseMarkdown(markdown: string): Mdast.Root {
  checkNesting(markdown);
  const root = parser.parse(markdown);
  liftGitBookConstructs(root);
  return root;
}

/** Rewrites, in place and at every level, GitBook's tags into hint, tagged code and expression nodes. */
function liftGitBookConstructs(node: Mdast.Nodes): void {
  if (!("children" in node)) return;
  const flow = node.type === "root" || node.type === "blockquote" || node.type === "listItem";
  if (flow) (node as Mdast.Parent).children = hoistLazyHintClosers(node.children as Mdast.RootContent[]);
  for (const child of node.children) liftGitBookConstructs(child);
  const children = node.children as Mdast.RootContent[];
  if (children.some((child) => child.type === "html")) {
    (node as Mdast.Parent).children = liftExpressions(children);
  }
  if (flow) (node as Mdast.Parent).children = groupMarkers(splitMarkers(node.children as Mdast.RootContent[]));
}

/**
 * `{% endhint %}` right after a list or a quote is read by markdown as a lazy continuation line of its last
 * paragraph: when a hint is open at this level and the list or quote opens none itself, move it back out.
 */
function hoistLazyHintClosers(children: Mdast.RootContent[]): Mdast.RootContent[] {
  let open = 0;
  return children.flatMap((child): Mdast.RootContent[] => {
    if (child.type === "paragraph") {
      for (const line of mdastText(child).split("\n")) {
        if (hintOpenLine.test(line)) open++;
        else if (hintCloseLine.test(line) && open > 0) open--;
      }
      return [child];
    }
    if ((child.type !== "list" && child.type !== "blockquote") || open === 0) return [child];
    if (/\{%\s*hint\s/.test(mdastText(child))) return [child];
    const closer = takeTrailingCloser(child);
    if (!closer) return [child];
    open--;
    return [child, { type: "paragraph", children: [{ type: "text", value: closer }] }];
  });
}

function takeTrailingCloser(node: Mdast.Nodes): string | undefined {
  if (!("children" in node)) return undefined;
  const last = node.children[node.children.length - 1] as Mdast.Nodes | undefined;
  if (!last) return undefined;
  if (last.type !== "paragraph")
    return last.type === "list" || last.type === "listItem" || last.type === "blockquote"
      ? takeTrailingCloser(last)
      : undefined;
  const text = last.children[last.children.length - 1];
  if (text?.type !== "text") return undefined;
  const lineStart = text.value.lastIndexOf("\n");
  const line = text.value.slice(lineStart + 1);
  if (lineStart < 0 || !hintCloseLine.test(line)) return undefined;
  text.value = text.value.slice(0, lineStart).replace(/\r$/, "");
  return line.trim();
}

function liftExpressions(children: Mdast.RootContent[]): Mdast.RootContent[] {
  const result: Mdast.RootContent[] = [];
  for (let index = 0; index < children.length; index++) {
    const child = children[index] as Mdast.RootContent;
    if (child.type === "html" && expressionOpenTag.test(child.value)) {
      const close = children.findIndex(
        (candidate, at) => at > index && candidate.type === "html" && expressionCloseTag.test(candidate.value),
      );
      if (close > index) {
        const value = children
          .slice(index + 1, close)
          .map(mdastText)
          .join("");
        const end = children[close]?.position?.end;
        const position = child.position && end ? { start: child.position.start, end } : undefined;
        result.push({ type: "expression", value, position });
        index = close;
        continue;
      }
    }
    result.push(child);
  }
  return result;
}

function mdastText(node: Mdast.Nodes): string {
  if ("value" in node) return node.value;
  if ("children" in node) return (node.children as Mdast.Nodes[]).map(mdastText).join("");
  return "";
}

/** A GitBook tag alone on its line: `{% hint style="..." %}`, `{% endhint %}`, `{% code ... %}`, `{% endcode %}`. */
interface Marker {
  type: "marker";
  kind: "hint" | "endhint" | "code" | "endcode";
  style?: HintStyle;
  options?: CodeOptions;
  line: string;
}

/** Splits paragraphs around marker lines (a marker alone on its line, possibly inside a paragraph). */
function splitMarkers(children: Mdast.RootContent[]): Array<Mdast.RootContent | Marker> {
  const result: Array<Mdast.RootContent | Marker> = [];
  for (const child of children) {
    if (child.type !== "paragraph" || !mdastText(child).includes("{%")) {
      result.push(child);
      continue;
    }
    let current: Mdast.PhrasingContent[] = [];
    const flush = () => {
      while (current.length > 0 && current[current.length - 1]?.type === "break") current.pop();
      if (current.length > 0) result.push({ type: "paragraph", children: current });
      current = [];
    };
    const inlines = child.children;
    inlines.forEach((inline, index) => {
      if (inline.type !== "text") {
        current.push(inline);
        return;
      }
      const lines = inline.value.split(/\r?\n/);
      let pending: string[] = [];
      const flushText = () => {
        if (pending.length > 0 && pending.join("\n") !== "") current.push({ type: "text", value: pending.join("\n") });
        pending = [];
      };
      lines.forEach((line, lineIndex) => {
        const startsLine = lineIndex > 0 || index === 0 || inlines[index - 1]?.type === "break";
        const endsLine =
          lineIndex < lines.length - 1 || index === inlines.length - 1 || inlines[index + 1]?.type === "break";
        const marker = startsLine && endsLine ? markerOf(line) : undefined;
        if (!marker) {
          pending.push(line);
          return;
        }
        flushText();
        flush();
        result.push(marker);
      });
      flushText();
    });
    flush();
  }
  return result;
}

function markerOf(line: string): Marker | undefined {
  const hint = hintOpenLine.exec(line);
  if (hint) return { type: "marker", kind: "hint", style: hint[2] as HintStyle, line };
  if (hintCloseLine.test(line)) return { type: "marker", kind: "endhint", line };
  const code = codeOpenLine.exec(line);
  if (code) return { type: "marker", kind: "code", options: parseCodeOptions(code[1] ?? ""), line };
  if (codeCloseLine.test(line)) return { type: "marker", kind: "endcode", line };
  return undefined;
}

function parseCodeOptions(text: string): CodeOptions {
  const options: CodeOptions = {};
  for (const [, name, double, single] of text.matchAll(/(\w+)=(?:"([^"]*)"|'([^']*)')/g)) {
    const value = double ?? single ?? "";
    if (name === "title") options.title = value;
    else if (name === "overflow" && (value === "wrap" || value === "scroll")) options.overflow = value;
    else if (name === "lineNumbers" || name === "fullWidth" || name === "expandable") options[name] = value === "true";
  }
  return options;
}

/** The code options present in a code block's data, with their types checked. */
function codeOptionsOf(data: Json): CodeOptions {
  const options: CodeOptions = {};
  if (typeof data.title === "string") options.title = data.title;
  if (data.overflow === "wrap" || data.overflow === "scroll") options.overflow = data.overflow;
  for (const name of ["lineNumbers", "fullWidth", "expandable"] as const) {
    if (typeof data[name] === "boolean") options[name] = data[name];
  }
  return options;
}

function codeOptionsText(options: CodeOptions): string {
  const quote = (value: string) => `"${value.replace(/"/g, "'")}"`;
  let text = "";
  if (options.title !== undefined) text += ` title=${quote(options.title.replace(/\s+/g, " "))}`;
  if (options.overflow !== undefined) text += ` overflow=${quote(options.overflow)}`;
  for (const name of ["lineNumbers", "fullWidth", "expandable"] as const) {
    if (options[name] !== undefined) text += ` ${name}=${quote(String(options[name]))}`;
  }
  return text;
}

function markerParagraph(marker: Marker): Mdast.Paragraph {
  return { type: "paragraph", children: [{ type: "text", value: marker.line.trim() }] };
}

/**
 * Groups the blocks between matching hint markers into hints and a fence between code markers into a tagged code
 * block; an unmatched marker stays as text.
 */
function groupMarkers(items: Array<Mdast.RootContent | Marker>): Mdast.RootContent[] {
  const top: Mdast.RootContent[] = [];
  const open: Array<{ hint: HintNode; marker: Marker }> = [];
  const target = () => (open.length > 0 ? (open[open.length - 1]?.hint.children as Mdast.RootContent[]) : top);
  for (let index = 0; index < items.length; index++) {
    const item = items[index] as Mdast.RootContent | Marker;
    if (item.type !== "marker") {
      target().push(item);
    } else if (item.kind === "hint" && item.style) {
      open.push({ hint: { type: "hint", style: item.style, children: [] }, marker: item });
    } else if (item.kind === "endhint" && open.length > 0) {
      const closed = open.pop() as { hint: HintNode };
      target().push(closed.hint);
    } else {
      const code = items[index + 1];
      const close = items[index + 2];
      if (item.kind === "code" && code?.type === "code" && close?.type === "marker" && close.kind === "endcode") {
        target().push({ type: "taggedCode", options: item.options ?? {}, code });
        index += 2;
      } else {
        target().push(markerParagraph(item));
      }
    }
  }
  while (open.length > 0) {
    const unclosed = open.pop() as { hint: HintNode; marker: Marker };
    target().push(markerParagraph(unclosed.marker), ...unclosed.hint.children);
  }
  return top;
}

/** GitBook writes captioned images as `<figure><img src alt><figcaption>...</figcaption></figure>`. */
interface Figure {
  src: string;
  alt: string;
  caption: string;
}

const figurePattern = /^<figure>\s*<img\s([^>]*?)\/?>\s*(?:<figcaption>([\s\S]*?)<\/figcaption>)?\s*<\/figure>$/i;

function htmlAttribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "i").exec(attributes);
  return match ? decodeHtml(match[1] ?? match[2] ?? "") : undefined;
}

const namedEntities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decodeHtml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return namedEntities[body.toLowerCase()] ?? entity;
  });
}

function encodeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function parseFigure(html: string): Figure | undefined {
  const match = figurePattern.exec(html.trim());
  const src = match ? htmlAttribute(match[1] ?? "", "src") : undefined;
  if (!match || src === undefined) return undefined;
  const caption = decodeHtml((match[2] ?? "").replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
  return { src, alt: htmlAttribute(match[1] ?? "", "alt") ?? "", caption };
}

function figureHtml(figure: Figure): string {
  const caption = encodeHtml(figure.caption).replace(/\s+/g, " ");
  const image = `<img src="${encodeHtml(figure.src)}" alt="${encodeHtml(figure.alt)}">`;
  return `<figure>${image}<figcaption><p>${caption}</p></figcaption></figure>`;
}

// ---------------------------------------------------------------------------------------------------------------
// mdast -> document

class DocumentBuilder {
  private count = 0;
  private readonly definitions = new Map<string, string>();

  constructor(root: Mdast.Root) {
    collectDefinitions(root, this.definitions);
  }

  private key(): string {
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

// ---------------------------------------------------------------------------------------------------------------
// document -> mdast. Input comes from API callers: every field is checked, unknown nodes keep their text.

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function childNodes(node: Json): unknown[] {
  return Array.isArray(node.nodes) ? node.nodes : [];
}

function nodeData(node: Json): Json {
  return isObject(node.data) ? node.data : {};
}

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

function refUrl(ref: unknown): string | undefined {
  if (!isObject(ref)) return undefined;
  if (ref.kind === "url" && typeof ref.url === "string") return ref.url;
  if (ref.kind === "anchor" && typeof ref.anchor === "string" && ref.page === undefined) return `#${ref.anchor}`;
  return undefined;
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

// ---------------------------------------------------------------------------------------------------------------
// plain text

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
export function tableRowsText(table: DocumentBlock): string[][] {
  const [mdastTable] = toMdastTable(table as unknown as Json);
  if (mdastTable?.type !== "table") return [];
  return mdastTable.children.map((row) => row.children.map(mdastText));
}

// ---------------------------------------------------------------------------------------------------------------
// public functions

/** Parses markdown (CommonMark + GFM + GitBook hints and expressions) into the rich-text document. */
export function markdownToDocument(markdown: string): Document {
  return withinDepth(() => {
    const root = parseMarkdown(markdown);
    const nodes = new DocumentBuilder(root).blocks(root.children);
    return { object: "document", data: { schemaVersion: documentSchemaVersion }, nodes };
  });
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
export function markdownSections(markdown: string): MarkdownSection[] {
  const sections: { heading: string | null; blocks: DocumentNode[] }[] = [{ heading: null, blocks: [] }];
  for (const block of markdownToDocument(markdown).nodes) {
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
export function markdownLinkUrls(markdown: string): string[] {
  const urls: string[] = [];
  const visit = (node: unknown) => {
    if (!isObject(node)) return;
    const url = refUrl(nodeData(node).ref);
    if (url !== undefined) urls.push(url);
    for (const child of childNodes(node)) visit(child);
    if (Array.isArray(node.fragments)) for (const fragment of node.fragments) visit(fragment);
  };
  for (const node of markdownToDocument(markdown).nodes) visit(node);
  return urls;
}
