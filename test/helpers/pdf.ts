import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

const standardFontDataUrl = `${join(dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json")), "standard_fonts")}/`;

/** The text of a PDF: one line per text line, pages separated by a blank line. */
export async function extractPdfText(bytes: Uint8Array): Promise<string> {
  // pdf.js takes ownership of the buffer it is given; work on a copy so the caller's bytes stay usable.
  const pdf = await getDocument({ data: bytes.slice(), standardFontDataUrl, isEvalSupported: false }).promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const content = await (await pdf.getPage(number)).getTextContent();
      let text = "";
      let lineY: number | undefined;
      for (const item of content.items) {
        if (!("str" in item) || item.str === "") continue;
        // Runs of one line (font changes split them) share their baseline; a new baseline is a new line.
        const y = item.transform[5] as number;
        if (lineY !== undefined && Math.abs(y - lineY) > 1) text += "\n";
        text += item.str;
        lineY = y;
      }
      pages.push(text);
    }
    return pages.join("\n\n");
  } finally {
    await pdf.destroy();
  }
}
