import { describe, expect, it } from "vitest";
import { renderPdf } from "../../src/lib/pdf.ts";
import { extractPdfText } from "../helpers/pdf.ts";

const guide = `# Overview

Acme ships **fast** builds with _cached_ steps and \`acme build\` as the entry point.

- Install the CLI
- Configure a project
  1. Pick a region
  2. Set the secrets

\`\`\`bash
acme build --release
\`\`\`

| Setting | Default |
| ------- | ------- |
| region  | eu-west |
| retries | 3       |

![Build pipeline diagram](https://img.acme.test/pipeline.png)

<figure><img src="https://img.acme.test/cache.png" alt="Cache layers"><figcaption><p>How the cache is layered</p></figcaption></figure>

{% hint style="warning" %}
Back up the cache before upgrading.
{% endhint %}

> Quoted remark.

- [x] Task done
`;

function pageCount(bytes: Uint8Array): number {
  return (
    Buffer.from(bytes)
      .toString("latin1")
      .match(/\/Type \/Page\b/g)?.length ?? 0
  );
}

describe("renderPdf", () => {
  it("renders the title, every page title and the body of every page as extractable text", async () => {
    const bytes = await renderPdf({
      title: "Acme Handbook",
      pages: [
        { title: "Getting started", depth: 0, markdown: guide },
        { title: "Café au lait", depth: 1, markdown: "Naïve façade, “quoted” and 10 € — déjà vu." },
        { title: "Deep child page", depth: 2, markdown: "Third-level body text." },
        { title: "Empty page", depth: 0, markdown: "" },
      ],
    });
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const text = await extractPdfText(bytes);
    const lines = text.split("\n").map((line) => line.trim());
    for (const expected of [
      "Acme Handbook",
      "Getting started",
      "Overview",
      "Acme ships fast builds with cached steps and acme build as the entry point.",
      "• Install the CLI",
      "1. Pick a region",
      "2. Set the secrets",
      "acme build --release",
      "Setting | Default",
      "retries | 3",
      "[Build pipeline diagram]",
      "[Cache layers]",
      "How the cache is layered",
      "Back up the cache before upgrading.",
      "Quoted remark.",
      "[x] Task done",
      "Café au lait",
      "Naïve façade, “quoted” and 10 € — déjà vu.",
      "Deep child page",
      "Third-level body text.",
      "Empty page",
    ]) {
      expect(lines).toContain(expected);
    }
    // Pages in the given order, after the title.
    const order = ["Acme Handbook", "Getting started", "Café au lait", "Deep child page", "Empty page"].map((title) =>
      lines.indexOf(title),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(text).not.toMatch(/\*\*|\{%|```|\]\(/);
  });

  it("writes characters the built-in fonts cannot encode (CJK, emoji) as ?, keeping the rest", async () => {
    // pdfkit's standard fonts are Windows-1252: CJK would need an embedded font, which the service does not ship.
    const text = await extractPdfText(
      await renderPdf({
        title: "日本 guide",
        pages: [{ title: "Café 日本", depth: 0, markdown: "Tokyo 東京 🎉 done." }],
      }),
    );
    expect(text).toContain("?? guide");
    expect(text).toContain("Café ??");
    expect(text).toContain("Tokyo ?? ? done.");
  });

  it("renders a document with no pages, odd depths and awkward content without failing", async () => {
    const empty = await extractPdfText(await renderPdf({ title: "Nothing here", pages: [] }));
    expect(empty.trim()).toBe("Nothing here");

    const longWord = "x".repeat(3000);
    const text = await extractPdfText(
      await renderPdf({
        title: "Odd",
        pages: [
          { title: "Negative", depth: -3, markdown: "| broken | table\n|---|\n| a | b | c |\n" },
          { title: "Huge depth", depth: 1000, markdown: `${longWord}\n\nafter the long word` },
          { title: "Not a number", depth: Number.NaN, markdown: '{% hint style="info" %}\nunclosed hint' },
        ],
      }),
    );
    for (const expected of [
      "Negative",
      "broken | table",
      "a | b",
      "Huge depth",
      "after the long word",
      "Not a number",
      "unclosed hint",
    ]) {
      expect(text).toContain(expected);
    }
  });

  it("spreads a long page over several PDF pages", async () => {
    const markdown = Array.from({ length: 300 }, (_, index) => `Paragraph number ${index} of the long page.`).join(
      "\n\n",
    );
    const bytes = await renderPdf({ title: "Long", pages: [{ title: "Long page", depth: 0, markdown }] });
    expect(pageCount(bytes)).toBeGreaterThan(5);
    const text = await extractPdfText(bytes);
    expect(text).toContain("Paragraph number 0 of the long page.");
    expect(text).toContain("Paragraph number 299 of the long page.");
  });
});
