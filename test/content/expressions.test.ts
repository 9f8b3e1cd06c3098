import { describe, expect, it } from "vitest";
import { markdownExpressions, markdownToPlainText } from "../../src/lib/markdown/text.ts";
import { markdownToDocument } from "../../src/lib/markdown/to-document.ts";
import { type EvaluationMode, evaluateExpressions } from "../../src/modules/content/expressions.ts";

const scope = {
  space: { vars: { product: "Acme", version: 3, beta: true, tricky: "*not bold* <b>x</b> | [link](u) & more" } },
  page: { vars: { audience: "admins", count: 2 } },
};

/** The page's expressions found as the server finds them (a cached conversion), then evaluated. */
const evaluate = (markdown: string, values: typeof scope, mode: EvaluationMode) =>
  evaluateExpressions(markdown, markdownExpressions(markdown), values, mode);

const expression = (text: string) => `<code class="expression">${text}</code>`;

describe("evaluateExpressions", () => {
  it("replaces space and page variables and literals by their values", () => {
    const markdown = [
      `# ${expression("space.vars.product")} for ${expression("page.vars.audience")}`,
      "",
      `Version ${expression("space.vars.version")}, ${expression("page.vars.count + 1")} seats, ${expression('"lit" + "eral"')}.`,
      `Beta: ${expression('space.vars.beta ? "yes" : "no"')}, ${expression("space.vars['product'] == \"Acme\"")}, missing: [${expression("space.vars.missing")}].`,
      "",
    ].join("\n");
    for (const mode of [true, "deterministic-only"] as const) {
      const evaluated = evaluate(markdown, scope, mode);
      expect(evaluated).not.toContain("<code");
      expect(markdownToPlainText(evaluated)).toBe(
        "Acme for admins\nVersion 3, 3 seats, literal.\nBeta: yes, true, missing: [].",
      );
    }
  });

  it("escapes values as text, so they add no markdown or HTML", () => {
    const evaluated = evaluate(`Value: ${expression("space.vars.tricky")}`, scope, true);
    const document = markdownToDocument(evaluated);
    expect(document.nodes).toHaveLength(1);
    expect(document.nodes[0]?.nodes).toEqual([
      {
        object: "text",
        key: expect.any(String),
        leaves: [{ object: "leaf", text: "Value: *not bold* <b>x</b> | [link](u) & more", marks: [] }],
      },
    ]);
    // At the start of a line a number followed by "." would start a list.
    const numbered = evaluate(`${expression("page.vars.count")}. not a list`, scope, true);
    expect(markdownToDocument(numbered).nodes[0]?.type).toBe("paragraph");
    expect(markdownToPlainText(numbered)).toBe("2. not a list");
    // Inside a table cell the value stays in its cell.
    const table = evaluate(`| a | b |\n|---|---|\n| ${expression("space.vars.tricky")} | 2 |\n`, scope, true);
    expect(markdownToPlainText(table)).toBe("a | b\n*not bold* <b>x</b> | [link](u) & more | 2");
  });

  it("empties non-deterministic expressions with true and keeps them with deterministic-only", () => {
    const markdown = [
      `Hello ${expression("visitor.claims.name")}!`,
      `Call ${expression("space.vars.product.toUpperCase()")}, this ${expression("this.x")}, unknown ${expression("process.env")}.`,
      `Broken ${expression("space.vars.(")} and deterministic ${expression("space.vars.product")}.`,
      "",
    ].join("\n");
    expect(markdownToPlainText(evaluate(markdown, scope, true))).toBe(
      "Hello !\nCall , this , unknown .\nBroken  and deterministic Acme.",
    );
    const kept = evaluate(markdown, scope, "deterministic-only");
    expect(kept).toContain(expression("visitor.claims.name"));
    expect(kept).toContain(expression("space.vars.product.toUpperCase()"));
    expect(kept).toContain(expression("this.x"));
    expect(kept).toContain(expression("process.env"));
    expect(kept).toContain(expression("space.vars.("));
    expect(kept).toContain("deterministic Acme.");
    expect(kept).not.toContain(expression("space.vars.product"));
  });

  it("never reads outside the variables' own data", () => {
    const markdown = [
      expression("space.vars.constructor"),
      expression("space.vars.__proto__"),
      expression("space.vars.toString"),
      expression("page['constructor']"),
      expression("space.vars.product.length"),
    ].join(" ");
    expect(evaluate(markdown, scope, true).trim()).toBe("");
  });

  it("leaves expressions in code untouched and the rest of the markdown byte for byte", () => {
    const markdown = [
      "Some *emphasis* kept as written  ",
      `\`${expression("space.vars.product")}\` in code`,
      "",
      "```html",
      expression("space.vars.product"),
      "```",
      "",
      `* star bullet ${expression("space.vars.product")}`,
      "",
    ].join("\n");
    expect(evaluate(markdown, scope, true)).toBe(
      markdown.replace(`bullet ${expression("space.vars.product")}`, "bullet Acme"),
    );
  });

  it("handles markdown without expressions, and empty markdown", () => {
    expect(evaluate("", scope, true)).toBe("");
    expect(evaluate("# Title\n\nText.\n", scope, "deterministic-only")).toBe("# Title\n\nText.\n");
    expect(evaluate(`${expression("x")}`.repeat(2000), scope, true)).toBe("");
  });
});
