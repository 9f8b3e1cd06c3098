import { setImmediate } from "node:timers/promises";
import type PDFDocument from "pdfkit";
import { type DocumentBlock, type DocumentNode, imageCaption, plainText } from "./markdown/document.ts";
import { tableRowsText } from "./markdown/from-document.ts";
import { markdownToDocument } from "./markdown/to-document.ts";

/*
 * A PDF export of pages: a title line, then each page's title (smaller and indented with depth) and its body,
 * rendered block by block from the page's rich-text document. pdfkit's built-in fonts (Helvetica, Courier) are
 * used, so the text is real, extractable text; they encode Windows-1252 only, so other characters (CJK, emoji)
 * are written as "?" rather than as wrong glyphs.
 */

interface PdfPage {
  title: string;
  markdown: string;
  /** 0 for a top-level page, 1 for its children... */
  depth: number;
}

export interface PdfInput {
  title: string;
  pages: PdfPage[];
}

const fonts = {
  regular: "Helvetica",
  bold: "Helvetica-Bold",
  italic: "Helvetica-Oblique",
  boldItalic: "Helvetica-BoldOblique",
  code: "Courier",
} as const;
const bodySize = 11;
const codeSize = 9.5;
const indentStep = 14;
const headingSizes: Record<string, number> = { "heading-1": 17, "heading-2": 14.5, "heading-3": 12.5 };

/** Windows-1252 characters outside Latin-1's printable ranges. */
const windows1252Extras = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

function encodable(text: string): string {
  let result = "";
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const latin1 = code === 0x0a || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff);
    result += latin1 || windows1252Extras.has(character) ? character : code === 0x09 ? "  " : "?";
  }
  return result;
}

type Pdf = InstanceType<typeof PDFDocument>;

interface Segment {
  text: string;
  font: string;
}

function inlineSegments(nodes: readonly DocumentNode[]): Segment[] {
  return nodes.flatMap((node): Segment[] => {
    if (node.object === "text") {
      return node.leaves.map((leaf) => {
        const marks = new Set(leaf.marks.map((mark) => mark.type));
        const font = marks.has("code")
          ? fonts.code
          : marks.has("bold") && marks.has("italic")
            ? fonts.boldItalic
            : marks.has("bold")
              ? fonts.bold
              : marks.has("italic")
                ? fonts.italic
                : fonts.regular;
        return { text: leaf.text, font };
      });
    }
    if (node.object === "inline" && node.type === "link") return inlineSegments(node.nodes ?? []);
    return [{ text: plainText(node), font: fonts.regular }];
  });
}

class PdfWriter {
  constructor(private readonly pdf: Pdf) {}

  line(text: string, options: { font?: string; size?: number; indent?: number; gap?: number } = {}): void {
    this.pdf
      .font(options.font ?? fonts.regular)
      .fontSize(options.size ?? bodySize)
      .text(encodable(text), this.pdf.page.margins.left + (options.indent ?? 0), undefined, {
        width: this.width(options.indent ?? 0),
      });
    this.pdf.moveDown(options.gap ?? 0.3);
  }

  private width(indent: number): number {
    const page = this.pdf.page;
    return Math.max(page.width - page.margins.left - page.margins.right - indent, 50);
  }

  /** One paragraph of mixed fonts, wrapped as a whole. */
  rich(segments: Segment[], indent: number, prefix = ""): void {
    const parts = segments.filter((segment) => segment.text !== "");
    if (prefix !== "") parts.unshift({ text: prefix, font: fonts.regular });
    if (parts.length === 0) return;
    // Only the first run positions and wraps the paragraph: later runs continue its line wrapper.
    parts.forEach((part, index) => {
      const continued = index < parts.length - 1;
      this.pdf.font(part.font).fontSize(bodySize);
      if (index === 0) {
        this.pdf.text(encodable(part.text), this.pdf.page.margins.left + indent, undefined, {
          width: this.width(indent),
          continued,
        });
      } else {
        this.pdf.text(encodable(part.text), { continued });
      }
    });
    this.pdf.moveDown(0.3);
  }

  blocks(blocks: readonly DocumentNode[], indent: number): void {
    for (const block of blocks) {
      if (block.object === "block") this.block(block, indent);
      else this.rich(inlineSegments([block]), indent);
    }
  }

  private block(block: DocumentBlock, indent: number): void {
    const children = block.nodes ?? [];
    const headingSize = headingSizes[block.type];
    if (headingSize !== undefined) {
      this.pdf.moveDown(0.2);
      this.line(plainText(block), { font: fonts.bold, size: headingSize, indent });
      return;
    }
    switch (block.type) {
      case "paragraph":
        this.rich(inlineSegments(children), indent);
        return;
      case "list-ordered":
      case "list-unordered":
      case "list-tasks":
        this.list(block, indent);
        return;
      case "code":
        for (const codeLine of children)
          this.line(plainText(codeLine), { font: fonts.code, size: codeSize, indent: indent + indentStep, gap: 0 });
        this.pdf.moveDown(0.3);
        return;
      case "table":
        tableRowsText(block).forEach((row, index) => {
          this.line(row.join("  |  "), { font: index === 0 ? fonts.bold : fonts.regular, indent, gap: 0.15 });
        });
        this.pdf.moveDown(0.3);
        return;
      case "images":
        for (const image of children) this.image(image, indent);
        return;
      case "image":
        this.image(block, indent);
        return;
      case "divider":
        this.line("—", { indent });
        return;
      case "hint":
      case "blockquote":
        this.blocks(children, indent + indentStep);
        return;
      default:
        if (children.some((child) => child.object === "block")) this.blocks(children, indent);
        else this.line(plainText(block), { indent });
    }
  }

  private image(image: DocumentNode, indent: number): void {
    this.line(`[${plainText(image) || "image"}]`, { font: fonts.italic, indent, gap: 0.1 });
    const caption = imageCaption(image);
    if (caption !== "") this.line(caption, { indent });
  }

  private list(block: DocumentBlock, indent: number): void {
    const start = typeof block.data?.start === "number" ? block.data.start : 1;
    (block.nodes ?? []).forEach((item, index) => {
      const checked = item.object === "block" ? item.data?.checked : undefined;
      const marker =
        block.type === "list-ordered"
          ? `${start + index}. `
          : typeof checked === "boolean"
            ? `[${checked ? "x" : " "}] `
            : "• ";
      const [first, ...rest] = item.object === "block" ? (item.nodes ?? []) : [item];
      if (first?.object === "block" && first.type === "paragraph") {
        this.rich(inlineSegments(first.nodes ?? []), indent, marker);
        this.blocks(rest, indent + indentStep);
      } else {
        this.line(marker.trim(), { indent });
        this.blocks(first ? [first, ...rest] : rest, indent + indentStep);
      }
    });
  }
}

/** Renders pages as one PDF document. PDFKit (and its fonts) loads on the first PDF asked for. */
export async function renderPdf(input: PdfInput): Promise<Uint8Array> {
  const { default: PdfDocument } = await import("pdfkit");
  const pdf = new PdfDocument({ size: "A4", margin: 56, info: { Title: encodable(input.title) } });
  const chunks: Buffer[] = [];
  const finished = new Promise<Uint8Array>((resolve, reject) => {
    pdf.on("data", (chunk: Buffer) => chunks.push(chunk));
    pdf.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    pdf.on("error", reject);
  });
  const writer = new PdfWriter(pdf);
  writer.line(input.title, { font: fonts.bold, size: 24, gap: 1 });
  for (const page of input.pages) {
    // A turn of the event loop between pages: a whole space's PDF must not hold other requests until it is done.
    await setImmediate();
    const depth = Math.max(0, Math.min(Math.trunc(page.depth) || 0, 5));
    pdf.moveDown(0.6);
    writer.line(page.title, {
      font: fonts.bold,
      size: Math.max(20 - depth * 2, 13),
      indent: depth * indentStep,
      gap: 0.5,
    });
    writer.blocks(markdownToDocument(page.markdown).nodes, depth * indentStep);
  }
  pdf.end();
  return finished;
}
