import type * as Mdast from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkStringify, { type Options as StringifyOptions } from "remark-stringify";
import { unified } from "unified";
import { InvalidInputError } from "../errors.ts";
import type { HintStyle, Json } from "./document.ts";

/*
 * Pages are stored as markdown and also served as the public API's rich-text document (JSONDocument in the
 * public spec). Both directions go through mdast (remark-parse + remark-gfm, remark-stringify), with GitBook's
 * own constructs lifted into mdast nodes: hints (`{% hint style="info" %} ... {% endhint %}`), code options
 * (`{% code title="..." %}` around a fence) and inline expressions
 * (`<code class="expression">space.vars.name</code>`); `<figure>` images are read from their HTML. Keys are numbered in document order, so the same markdown always
 * gives the same document.
 */

interface HintNode extends Mdast.Parent {
  type: "hint";
  style: HintStyle;
  children: Mdast.BlockContent[];
}

/** GitBook's options of a code block, written `{% code title="app.js" lineNumbers="true" %}` around the fence. */
export interface CodeOptions {
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

export const documentSchemaVersion = 1;
export const hintStyles = new Set<string>(["info", "success", "warning", "danger"]);
const hintOpenLine = /^\s*\{%\s*hint\s+style=(["'])(info|success|warning|danger)\1\s*%\}\s*$/;
const hintCloseLine = /^\s*\{%\s*endhint\s*%\}\s*$/;
const codeOpenLine = /^\s*\{%\s*code((?:\s+\w+=(?:"[^"]*"|'[^']*'))*)\s*%\}\s*$/;
const codeCloseLine = /^\s*\{%\s*endcode\s*%\}\s*$/;
const expressionOpenTag = /^<code\s+class\s*=\s*(["'])expression\1\s*>$/i;
const expressionCloseTag = /^<\/code\s*>$/i;
/** Marks in the order they nest when written as markdown (outermost first). */
export const markOrder = ["bold", "italic", "strikethrough", "code"] as const;
export type MarkType = (typeof markOrder)[number];

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
export const stringifier = unified().use(remarkGfm).use(remarkStringify, stringifyOptions);

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
export function withinDepth<T>(convert: () => T): T {
  try {
    return convert();
  } catch (error) {
    if (error instanceof RangeError) tooDeep();
    throw error;
  }
}

export function parseMarkdown(markdown: string): Mdast.Root {
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

export function mdastText(node: Mdast.Nodes): string {
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

export function parseCodeOptions(text: string): CodeOptions {
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
export function codeOptionsOf(data: Json): CodeOptions {
  const options: CodeOptions = {};
  if (typeof data.title === "string") options.title = data.title;
  if (data.overflow === "wrap" || data.overflow === "scroll") options.overflow = data.overflow;
  for (const name of ["lineNumbers", "fullWidth", "expandable"] as const) {
    if (typeof data[name] === "boolean") options[name] = data[name];
  }
  return options;
}

export function codeOptionsText(options: CodeOptions): string {
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
export interface Figure {
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

export function parseFigure(html: string): Figure | undefined {
  const match = figurePattern.exec(html.trim());
  const src = match ? htmlAttribute(match[1] ?? "", "src") : undefined;
  if (!match || src === undefined) return undefined;
  const caption = decodeHtml((match[2] ?? "").replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
  return { src, alt: htmlAttribute(match[1] ?? "", "alt") ?? "", caption };
}

export function figureHtml(figure: Figure): string {
  const caption = encodeHtml(figure.caption).replace(/\s+/g, " ");
  const image = `<img src="${encodeHtml(figure.src)}" alt="${encodeHtml(figure.alt)}">`;
  return `<figure>${image}<figcaption><p>${caption}</p></figcaption></figure>`;
}
