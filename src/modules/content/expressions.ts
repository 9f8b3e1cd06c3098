import {
  type ExpressionGrammar,
  evaluateExpression,
  expressionValueText,
  parseExpression,
} from "../../lib/expression.ts";
import type { ExpressionOccurrence } from "../../lib/markdown/text.ts";

/*
 * Pages carry variable expressions inline (`<code class="expression">space.vars.name</code>`). An expression that
 * reads only the space's and the page's variables and literals is deterministic: it has one value whatever the
 * visitor. Anything else (visitor data, calls, unknown names) is not: `evaluated: true` shows it as nothing,
 * `deterministic-only` leaves it in place for the renderer that knows the visitor.
 */

export type EvaluationMode = true | "deterministic-only";

export interface ExpressionScope {
  space: { vars: Record<string, unknown> };
  page: { vars: Record<string, unknown> };
}

const deterministicGrammar: ExpressionGrammar = {
  roots: new Set(["space", "page"]),
  unaryOperators: new Set(["!", "-"]),
  binaryOperators: new Set(["&&", "||", "==", "!=", "===", "!==", "<", ">", "<=", ">=", "+"]),
  conditional: true,
  maxLength: 1024,
};

/** Punctuation that can start or close markdown syntax somewhere in a line; a backslash keeps it literal. */
const markdownPunctuation = /[!#&()*+\-.<=>[\\\]_`{|}~]/g;

/** What may stand before a list item's marker on its line: indentation, quote and list markers. */
const lineStartPrefix = /^(?:\s*(?:>|[-+*]|\d{1,9}[.)])(?=\s|$))*\s*$/;

/**
 * A value as literal markdown text: one line, every syntax character escaped, and a leading digit at the start of
 * a line written as a character reference so that `1.` after it cannot start a list.
 */
function markdownText(value: string, linePrefix: string): string {
  const escaped = value.replace(/\s+/g, " ").replace(markdownPunctuation, "\\$&");
  if (!lineStartPrefix.test(linePrefix) || !/^\d/.test(escaped)) return escaped;
  return `&#${escaped.charCodeAt(0)};${escaped.slice(1)}`;
}

function deterministicValue(expression: string, scope: ExpressionScope): string | undefined {
  let tree: ReturnType<typeof parseExpression>;
  try {
    tree = parseExpression(expression, deterministicGrammar);
  } catch {
    return undefined;
  }
  return expressionValueText(evaluateExpression(tree, { space: scope.space, page: scope.page }));
}

/**
 * Replaces the page's expressions (`occurrences`, its `markdownExpressions`) by their values (see above for which
 * ones, per mode).
 */
export function evaluateExpressions(
  markdown: string,
  occurrences: readonly ExpressionOccurrence[],
  scope: ExpressionScope,
  mode: EvaluationMode,
): string {
  let result = markdown;
  for (const occurrence of [...occurrences].reverse()) {
    const value = deterministicValue(occurrence.expression, scope);
    if (value === undefined && mode === "deterministic-only") continue;
    const before = result.slice(0, occurrence.start);
    const linePrefix = before.slice(before.lastIndexOf("\n") + 1);
    result = before + markdownText(value ?? "", linePrefix) + result.slice(occurrence.end);
  }
  return result;
}
