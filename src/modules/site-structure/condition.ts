import { InvalidInputError } from "../../lib/errors.ts";
import { type ExpressionGrammar, evaluateExpression, parseExpression } from "../../lib/expression.ts";

/*
 * Conditions of sections and site spaces decide what a visitor of a published site sees, e.g.
 * `visitor.claims.plan == "enterprise" && !visitor.claims.trial`: the visitor's data, literals, `!`, `&&`, `||`
 * and comparisons, evaluated by the closed evaluator of ../../expression.ts.
 */

const conditionGrammar: ExpressionGrammar = {
  roots: new Set(["visitor"]),
  unaryOperators: new Set(["!"]),
  binaryOperators: new Set(["&&", "||", "==", "!=", "===", "!==", "<", ">", "<=", ">="]),
  conditional: false,
  maxLength: 1024,
};

function parse(text: string) {
  try {
    return parseExpression(text, conditionGrammar);
  } catch (error) {
    throw new InvalidInputError(`Invalid condition: ${(error as Error).message}`);
  }
}

/** Checks a condition at write time; throws InvalidInputError (400) when it is not a valid expression. */
export function parseCondition(text: string): void {
  parse(text);
}

/**
 * Whether a visitor passes a condition (`visitor` is the root name, e.g. `{ claims: {...} }`). A condition that
 * no longer parses hides the item: failing closed never shows gated content.
 */
export function evaluateCondition(text: string, visitor: Record<string, unknown>): boolean {
  let tree: ReturnType<typeof parse>;
  try {
    tree = parse(text);
  } catch {
    return false;
  }
  return Boolean(evaluateExpression(tree, { visitor }));
}
