import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../src/lib/errors.ts";
import type { Document, DocumentBlock, DocumentNode } from "../../src/lib/markdown/document.ts";
import { documentToMarkdown, normalizeMarkdown } from "../../src/lib/markdown/from-document.ts";
import { markdownToPlainText } from "../../src/lib/markdown/text.ts";
import { markdownToDocument } from "../../src/lib/markdown/to-document.ts";
import { expectMatchesSpecSchema } from "../helpers/contract.ts";

const page = `# Getting started

Welcome to **Acme**, the _fast_ way to ship. Run \`acme init\`, forget ~~the old CLI~~ and read **bold _and italic_** text.
A second line of the same paragraph links to [the guide](https://docs.acme.test/guide) and shows
an inline ![logo](https://img.acme.test/logo.png) image.

## Install

1. Download the binary
2. Put it on your \`PATH\`
   - on Linux: \`/usr/local/bin\`
   - on macOS: \`/opt/homebrew/bin\`
3. Check the version

- [x] Read the guide
- [ ] Deploy

### Configuration

\`\`\`yaml
name: acme
region: eu-west-1

retries: 3
\`\`\`

{% code title="deploy.sh" overflow="wrap" lineNumbers="true" %}
\`\`\`bash
acme deploy --region eu-west-1
\`\`\`
{% endcode %}

| Option | Default | Meaning |
| ------ | :-----: | ------: |
| \`name\` | none | The **project** name |
| region | \`us\` | Where it [runs](https://docs.acme.test/regions) |

![Architecture diagram](https://img.acme.test/architecture.png)

{% hint style="info" %}
Your plan is <code class="expression">space.vars.plan</code>.

- hints hold lists too
{% endhint %}

{% hint style="success" %}
Done.
{% endhint %}

{% hint style="warning" %}
Back up first.
{% endhint %}

{% hint style="danger" %}
This deletes **everything**.
{% endhint %}

> Quoted wisdom.

---

Welcome, <code class="expression">page.vars.name</code>!
`;

function blocksOf(document: Document, type: string): DocumentBlock[] {
  const found: DocumentBlock[] = [];
  const visit = (nodes: readonly DocumentNode[]) => {
    for (const node of nodes) {
      if (node.object === "block") {
        if (node.type === type) found.push(node);
        for (const fragment of node.fragments ?? []) visit(fragment.nodes);
      }
      if (node.object !== "text") visit(node.nodes ?? []);
    }
  };
  visit(document.nodes);
  return found;
}

function keysOf(document: Document): string[] {
  const keys: string[] = [];
  const visit = (nodes: readonly DocumentNode[]) => {
    for (const node of nodes) {
      if (node.key) keys.push(node.key);
      if (node.object === "block") {
        for (const fragment of node.fragments ?? []) {
          if (fragment.key) keys.push(fragment.key);
          visit(fragment.nodes);
        }
      }
      if (node.object !== "text") visit(node.nodes ?? []);
    }
  };
  visit(document.nodes);
  return keys;
}

function expectRoundTrip(markdown: string): Document {
  const document = markdownToDocument(markdown);
  const written = documentToMarkdown(document);
  expect(written).toBe(normalizeMarkdown(markdown));
  expect(markdownToDocument(written)).toEqual(document);
  return document;
}

describe("markdown -> document -> markdown", () => {
  it("round-trips a realistic page with every construct", () => {
    const document = expectRoundTrip(page);
    expectMatchesSpecSchema("JSONDocument", document);
    expect(document.object).toBe("document");
    expect(document.data.schemaVersion).toBe(1);
    expect(document.nodes.map((block) => block.type)).toEqual([
      "heading-1",
      "paragraph",
      "heading-2",
      "list-ordered",
      "list-tasks",
      "heading-3",
      "code",
      "code",
      "table",
      "images",
      "hint",
      "hint",
      "hint",
      "hint",
      "blockquote",
      "divider",
      "paragraph",
    ]);
  });

  it("is the normalized markdown itself, and normalizing twice changes nothing", () => {
    const normalized = normalizeMarkdown(page);
    expect(normalizeMarkdown(normalized)).toBe(normalized);
    expect(documentToMarkdown(markdownToDocument(normalized))).toBe(normalized);
  });

  it("gives the same document with the same keys for the same markdown, keys unique", () => {
    const first = markdownToDocument(page);
    expect(markdownToDocument(page)).toEqual(first);
    const keys = keysOf(first);
    expect(keys.length).toBeGreaterThan(50);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("writes text as leaves with marks", () => {
    const [, paragraph] = markdownToDocument(page).nodes;
    const text = paragraph?.nodes?.[0];
    expect(text?.object).toBe("text");
    const leaves = text?.object === "text" ? text.leaves : [];
    const marked = leaves.map((leaf) => [leaf.text, leaf.marks.map((mark) => mark.type)]);
    expect(marked).toContainEqual(["Acme", ["bold"]]);
    expect(marked).toContainEqual(["fast", ["italic"]]);
    expect(marked).toContainEqual(["acme init", ["code"]]);
    expect(marked).toContainEqual(["the old CLI", ["strikethrough"]]);
    expect(marked).toContainEqual(["and italic", ["bold", "italic"]]);
    expect(leaves.every((leaf) => leaf.object === "leaf" && leaf.marks.every((mark) => mark.object === "mark"))).toBe(
      true,
    );
  });

  it("writes links, images, code, lists, tables, hints and expressions in the public shapes", () => {
    const document = markdownToDocument(page);
    const paragraph = document.nodes[1];
    const link = paragraph?.nodes?.find((node) => node.object === "inline" && node.type === "link");
    expect(link).toMatchObject({
      object: "inline",
      type: "link",
      isVoid: false,
      data: { ref: { kind: "url", url: "https://docs.acme.test/guide" } },
      nodes: [{ object: "text", leaves: [{ object: "leaf", text: "the guide", marks: [] }] }],
    });
    const inlineImage = paragraph?.nodes?.find((node) => node.object === "inline" && node.type === "inline-image");
    expect(inlineImage).toMatchObject({
      isVoid: true,
      data: { ref: { kind: "url", url: "https://img.acme.test/logo.png" }, alt: "logo" },
    });

    const [code, tagged] = blocksOf(document, "code");
    expect(code?.data).toEqual({ syntax: "yaml" });
    expect(tagged?.data).toEqual({ syntax: "bash", title: "deploy.sh", overflow: "wrap", lineNumbers: true });
    expect(code?.nodes?.map((line) => (line as DocumentBlock).type)).toEqual(Array(4).fill("code-line"));

    const [ordered] = blocksOf(document, "list-ordered");
    expect(ordered?.nodes?.map((item) => (item as DocumentBlock).type)).toEqual([
      "list-item",
      "list-item",
      "list-item",
    ]);
    expect(((ordered?.nodes?.[1] as DocumentBlock).nodes?.[1] as DocumentBlock).type).toBe("list-unordered");
    const [tasks] = blocksOf(document, "list-tasks");
    expect(tasks?.nodes?.map((item) => (item as DocumentBlock).data)).toEqual([{ checked: true }, { checked: false }]);

    const [table] = blocksOf(document, "table");
    expect(table?.isVoid).toBe(true);
    const definition = table?.data?.definition as Record<string, { title: string; textAlignment: string }>;
    const columns = (table?.data?.view as { columns: string[] }).columns;
    expect(columns.map((column) => definition[column]?.title)).toEqual(["Option", "Default", "Meaning"]);
    expect(columns.map((column) => definition[column]?.textAlignment)).toEqual(["left", "center", "right"]);
    expect(Object.keys(table?.data?.records as object)).toHaveLength(2);
    expect(table?.fragments).toHaveLength(6);

    const [images] = blocksOf(document, "images");
    expect(images?.nodes).toMatchObject([
      {
        object: "block",
        type: "image",
        isVoid: true,
        data: { ref: { kind: "url", url: "https://img.acme.test/architecture.png" }, alt: "Architecture diagram" },
      },
    ]);

    const hints = blocksOf(document, "hint");
    expect(hints.map((hint) => hint.data?.style)).toEqual(["info", "success", "warning", "danger"]);
    expect(hints[0]?.nodes?.map((node) => (node as DocumentBlock).type)).toEqual(["paragraph", "list-unordered"]);

    const expressions: unknown[] = [];
    const visit = (nodes: readonly DocumentNode[]) => {
      for (const node of nodes) {
        if (node.object === "inline" && node.type === "expression") expressions.push(node);
        if (node.object !== "text") visit(node.nodes ?? []);
      }
    };
    visit(document.nodes);
    expect(expressions).toMatchObject([
      { object: "inline", type: "expression", isVoid: true, data: { expression: "space.vars.plan" } },
      { object: "inline", type: "expression", isVoid: true, data: { expression: "page.vars.name" } },
    ]);
  });

  it("round-trips each construct on its own", () => {
    for (const markdown of [
      "## Only a heading\n",
      "Plain text with **bold**, _italic_, `code` and ~~strike~~.\n",
      "5. five\n6. six\n",
      "- a\n  - b\n    - c\n- d\n",
      "```\nno language\n```\n",
      "```ts\nconst a = 1;\n```\n",
      "| a |\n| - |\n| 1 |\n",
      "[link **bold**](https://x.test/a?b=1&c=2)\n",
      "![](https://x.test/no-alt.png)\n",
      '{% hint style="info" %}\n{% endhint %}\n',
      'Text with <code class="expression">space.vars.a + " & " + page.vars.b</code> inside.\n',
      "Hard to escape: \\*not emphasis\\*, \\[not a link], 1\\. not a list, a < b > c.\n",
      "Café, 日本語, emoji 🎉.\n",
    ]) {
      expectRoundTrip(markdown);
    }
  });

  it("keeps marks that cannot be written as markdown delimiters", () => {
    const document: Document = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          nodes: [
            {
              object: "text",
              leaves: [
                { object: "leaf", text: "bold ", marks: [{ object: "mark", type: "bold" }] },
                { object: "leaf", text: "then", marks: [] },
                { object: "leaf", text: " code ", marks: [{ object: "mark", type: "code" }] },
              ],
            },
          ],
        },
      ],
    };
    const leaves = (markdownToDocument(documentToMarkdown(document)).nodes[0]?.nodes?.[0] as { leaves: unknown[] })
      .leaves;
    expect(leaves).toEqual([
      { object: "leaf", text: "bold ", marks: [{ object: "mark", type: "bold" }] },
      { object: "leaf", text: "then", marks: [] },
      { object: "leaf", text: " code ", marks: [{ object: "mark", type: "code" }] },
    ]);
  });
});

describe("figures", () => {
  it("reads GitBook's captioned figures as images with a caption fragment, and writes them back", () => {
    const markdown =
      '<figure><img src="https://img.acme.test/a.png?w=1&#x26;h=2" alt="A &quot;cat&quot;"><figcaption><p>The <strong>cat</strong> &amp; dog</p></figcaption></figure>\n\n' +
      '<figure><img src=".gitbook/assets/plain.png" alt=""><figcaption></figcaption></figure>\n';
    const document = markdownToDocument(markdown);
    expectMatchesSpecSchema("JSONDocument", document);
    const [captioned, plain] = blocksOf(document, "image");
    expect(captioned).toMatchObject({
      data: { ref: { kind: "url", url: "https://img.acme.test/a.png?w=1&h=2" }, alt: 'A "cat"' },
      fragments: [{ object: "fragment", fragment: "caption", nodes: [{ type: "paragraph" }] }],
    });
    expect(markdownToPlainText(markdown)).toContain("The cat & dog");
    expect(plain).toMatchObject({ data: { ref: { url: ".gitbook/assets/plain.png" } }, fragments: [] });

    const written = documentToMarkdown(document);
    expect(written).toBe(
      '<figure><img src="https://img.acme.test/a.png?w=1&amp;h=2" alt="A &quot;cat&quot;"><figcaption><p>The cat &amp; dog</p></figcaption></figure>\n\n![](.gitbook/assets/plain.png)\n',
    );
    expectRoundTrip(written);
    expect(markdownToDocument(written)).toEqual(document);
  });
});

describe("hints", () => {
  it("reads hints written without blank lines, and hints inside lists", () => {
    const document = markdownToDocument(
      '{% hint style="warning" %}\nCareful.\n{% endhint %}\n\n- item\n\n  {% hint style="info" %}\n  Nested.\n  {% endhint %}\n',
    );
    expect(document.nodes[0]).toMatchObject({ type: "hint", data: { style: "warning" } });
    expect(blocksOf(document, "hint").map((hint) => hint.data?.style)).toEqual(["warning", "info"]);
  });

  it("keeps unmatched markers and unknown styles as text", () => {
    for (const markdown of [
      '{% hint style="info" %}\nnever closed\n',
      "{% endhint %}\n",
      '{% hint style="purple" %}\nunknown\n{% endhint %}\n',
      '`{% hint style="info" %}` in code\n',
      "- a list\n{% endhint %}\n",
    ]) {
      const document = markdownToDocument(markdown);
      expect(blocksOf(document, "hint"), markdown).toEqual([]);
      expect(markdownToPlainText(markdown)).toContain("{%");
      expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
    }
  });

  it("keeps code tags without a fence, or unclosed, as text", () => {
    for (const markdown of [
      '{% code title="a" %}\nno fence\n{% endcode %}\n',
      '{% code title="a" %}\n\n```\nx\n```\n',
    ]) {
      const document = markdownToDocument(markdown);
      expect(markdownToPlainText(markdown)).toContain('{% code title="a" %}');
      expect(blocksOf(document, "code").map((code) => code.data?.title)).not.toContain("a");
      expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
    }
  });

  it("writes code options given by an API caller, ignoring values of the wrong type", () => {
    const line = {
      object: "block",
      type: "code-line",
      nodes: [{ object: "text", leaves: [{ object: "leaf", text: "ls", marks: [] }] }],
    };
    const markdown = documentToMarkdown({
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "code",
          data: { syntax: "sh", title: 'say "hi"', lineNumbers: "yes", expandable: true },
          nodes: [line],
        },
        { object: "block", type: "code", data: { overflow: "sideways" }, nodes: [line] },
      ],
    } as unknown as Document);
    expect(markdown).toBe(
      '{% code title="say \'hi\'" expandable="true" %}\n```sh\nls\n```\n{% endcode %}\n\n```\nls\n```\n',
    );
  });

  it("writes a hint of an unknown style as info", () => {
    const markdown = documentToMarkdown({
      object: "document",
      data: {},
      nodes: [{ object: "block", type: "hint", data: { style: "neon" }, nodes: [] }],
    });
    expect(markdown).toBe('{% hint style="info" %}\n{% endhint %}\n');
  });
});

describe("hostile input", () => {
  it("empty and blank markdown give an empty document and back", () => {
    for (const markdown of ["", "   ", "\n\n\n"]) {
      const document = markdownToDocument(markdown);
      expect(document).toEqual({ object: "document", data: { schemaVersion: 1 }, nodes: [] });
      expect(documentToMarkdown(document)).toBe("");
    }
  });

  it("reads CRLF line endings like LF", () => {
    expect(markdownToDocument(page.replace(/\n/g, "\r\n"))).toEqual(markdownToDocument(page));
  });

  it("round-trips a huge page", () => {
    const sections = Array.from(
      { length: 400 },
      (_, index) =>
        `## Section ${index}\n\nParagraph ${index} with **bold** and [a link](https://x.test/${index}).\n\n- one\n- two\n`,
    );
    const document = expectRoundTrip(sections.join("\n"));
    expect(document.nodes).toHaveLength(1200);
  });

  it("accepts moderately deep nesting and refuses nesting that would stall the parser, with a 400", () => {
    const nestedList = Array.from({ length: 40 }, (_, depth) => `${"  ".repeat(depth)}- level ${depth}`).join("\n");
    expect(blocksOf(expectRoundTrip(nestedList), "list-unordered")).toHaveLength(40);
    expect(blocksOf(expectRoundTrip(`${"> ".repeat(60)}deep quote`), "blockquote")).toHaveLength(60);

    for (const hostile of [
      Array.from({ length: 2000 }, (_, depth) => `${"  ".repeat(depth)}- level ${depth}`).join("\n"),
      `${">".repeat(5000)} quote`,
      `${"- ".repeat(5000)}item`,
      `${"[".repeat(5000)}x${"](u)".repeat(5000)}`,
      `${"*".repeat(5000)}x${"*".repeat(5000)}`,
    ]) {
      expect(() => markdownToDocument(hostile)).toThrow(InvalidInputError);
    }
  });

  it("reads malformed tables: missing cells are empty, extra cells are dropped, the result is stable", () => {
    const markdown = "| a | b |\n|---|---|\n| 1 | 2 | 3 |\n| 4 |\n|\n";
    const document = markdownToDocument(markdown);
    const [table] = blocksOf(document, "table");
    expect(Object.keys(table?.data?.definition as object)).toHaveLength(2);
    expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
    expect(documentToMarkdown(document)).toContain("| 4 |   |");
    expect(markdownToPlainText("| a | b\n|--|\n| x |\n")).toContain("x");
  });

  it("writes blocks and inlines of unknown types as their text, and skips garbage, without throwing", () => {
    const text = (value: string) => ({
      object: "text" as const,
      leaves: [{ object: "leaf" as const, text: value, marks: [] }],
    });
    const document = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "expandable",
          fragments: [
            {
              object: "fragment",
              fragment: "title",
              nodes: [{ object: "block", type: "paragraph", nodes: [text("Click to open")] }],
            },
          ],
          nodes: [{ object: "block", type: "paragraph", nodes: [text("Hidden **body**")] }],
        },
        { object: "block", type: "swagger", data: { url: "x" } },
        {
          object: "block",
          type: "future-block",
          nodes: [text("future text"), { object: "inline", type: "math", data: { formula: "E=mc^2" } }],
        },
        {
          object: "block",
          type: "paragraph",
          nodes: [
            { object: "inline", type: "emoji", data: { code: "1f389" } },
            { object: "inline", type: "mention", data: { ref: { kind: "user", user: "u1" } }, nodes: [text("@ada")] },
            {
              object: "inline",
              type: "link",
              data: { ref: { kind: "page", page: "p1" } },
              nodes: [text(" page link")],
            },
            { object: "inline", type: "button", data: { label: " Go" } },
          ],
        },
        { object: "block", type: "table", data: {} },
        { object: "block", type: "list-ordered", data: { start: "seven" }, nodes: [text("bare text in a list")] },
        {
          object: "block",
          type: "code",
          data: { syntax: 42 },
          nodes: [{ object: "block", type: "code-line", nodes: [text("x = 1")] }],
        },
        null,
        7,
        "paragraph",
        { object: "block" },
        { object: "block", type: "paragraph", nodes: "not a list" },
        {
          object: "text",
          leaves: [{ text: 5 }, null, { object: "leaf", text: "loose text", marks: [null, { type: 3 }] }],
        },
      ],
    } as unknown as Document;
    const markdown = documentToMarkdown(document);
    for (const expected of [
      "Click to open",
      "Hidden \\*\\*body\\*\\*",
      "future text",
      "E=mc^2",
      "🎉",
      "@ada",
      "page link",
      "Go",
      "1. bare text in a list",
      "x = 1",
      "loose text",
    ]) {
      expect(markdown).toContain(expected);
    }
    expect(documentToMarkdown({} as Document)).toBe("");
    expect(documentToMarkdown(null as unknown as Document)).toBe("");
    expect(documentToMarkdown({ object: "document", data: {}, nodes: null } as unknown as Document)).toBe("");
  });

  it("writes a table given by an API caller with plain values", () => {
    const markdown = documentToMarkdown({
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "table",
          isVoid: true,
          data: {
            view: { type: "grid", columns: ["b", "a", "missing"], hideHeader: false },
            definition: {
              a: { id: "a", title: "Name", type: "text", textAlignment: "left" },
              b: { id: "b", title: "Count", type: "number", textAlignment: "right" },
            },
            records: {
              r2: { orderIndex: "b", values: { a: "second", b: 2 } },
              r1: { orderIndex: "a", values: { a: "first\nline", b: 1 } },
            },
          },
          fragments: [],
        },
      ],
    });
    expect(markdown).toBe(
      "| Count | Name       |\n| ----: | ---------- |\n|     1 | first line |\n|     2 | second     |\n",
    );
  });
});

describe("plain text", () => {
  it("is the text of every block, one per line, without markdown syntax", () => {
    const text = markdownToPlainText(page);
    for (const expected of [
      "Getting started",
      "Welcome to Acme, the fast way to ship. Run acme init",
      "Download the binary",
      "on Linux: /usr/local/bin",
      "region: eu-west-1",
      "Option | Default | Meaning",
      "region | us | Where it runs",
      "Architecture diagram",
      "Your plan is space.vars.plan.",
      "This deletes everything.",
      "Quoted wisdom.",
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/\*\*|\{%|```|\]\(/);
    expect(markdownToPlainText("")).toBe("");
  });
});
