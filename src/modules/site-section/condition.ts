import jsep from "jsep";
import { InvalidInputError } from "../../errors.ts";

/*
 * Conditions of sections and site spaces decide what a visitor of a published site sees, e.g.
 * `visitor.claims.plan == "enterprise" && !visitor.claims.trial`. jsep only parses; the evaluator below walks the
 * tree itself and knows a closed set of nodes, so a condition can read the visitor object and compare values but
 * can never call a function, reach a prototype or run code (no eval, no new Function).
 */

type Expression = jsep.Expression;

const binaryOperators = new Set(["&&", "||", "==", "!=", "===", "!==", "<", ">", "<=", ">="]);
/** Names that would walk out of the visitor's own data. */
const forbiddenProperties = new Set(["__proto__", "prototype", "constructor"]);
const maxConditionLength = 1024;

function reject(message: string): never {
  throw new InvalidInputError(`Invalid condition: ${message}`);
}

function propertyName(node: Expression): string | number {
  const member = node as jsep.MemberExpression;
  if (!member.computed) {
    if (member.property.type !== "Identifier") reject("unexpected property");
    return (member.property as jsep.Identifier).name;
  }
  const literal = member.property as jsep.Literal;
  if (literal.type !== "Literal" || (typeof literal.value !== "string" && typeof literal.value !== "number")) {
    reject("computed properties must be string or number literals");
  }
  return literal.value as string | number;
}

function check(node: Expression): void {
  switch (node.type) {
    case "Literal": {
      const value = (node as jsep.Literal).value;
      if (value instanceof RegExp) reject("regular expressions are not supported");
      return;
    }
    case "Identifier":
      if ((node as jsep.Identifier).name !== "visitor") reject(`unknown name ${(node as jsep.Identifier).name}`);
      return;
    case "MemberExpression": {
      const name = propertyName(node);
      if (forbiddenProperties.has(String(name))) reject(`property ${name} is not allowed`);
      check((node as jsep.MemberExpression).object);
      return;
    }
    case "UnaryExpression": {
      const unary = node as jsep.UnaryExpression;
      if (unary.operator !== "!") reject(`operator ${unary.operator} is not supported`);
      check(unary.argument);
      return;
    }
    case "BinaryExpression": {
      const binary = node as jsep.BinaryExpression;
      if (!binaryOperators.has(binary.operator)) reject(`operator ${binary.operator} is not supported`);
      check(binary.left);
      check(binary.right);
      return;
    }
    default:
      reject(`${node.type} is not supported`);
  }
}

function parse(text: string): Expression {
  if (text.length > maxConditionLength) reject(`longer than ${maxConditionLength} characters`);
  let tree: Expression;
  try {
    tree = jsep(text);
  } catch (error) {
    return reject((error as Error).message);
  }
  if (tree.type === "Compound") reject("expected exactly one expression");
  check(tree);
  return tree;
}

/** Checks a condition at write time; throws InvalidInputError (400) when it is not a valid expression. */
export function parseCondition(text: string): void {
  parse(text);
}

function evaluate(node: Expression, visitor: Record<string, unknown>): unknown {
  switch (node.type) {
    case "Literal":
      return (node as jsep.Literal).value;
    case "Identifier":
      return visitor;
    case "MemberExpression": {
      const target = evaluate((node as jsep.MemberExpression).object, visitor);
      const name = String(propertyName(node));
      // Own properties of plain data only: a missing claim reads as undefined.
      if (target === null || typeof target !== "object" || !Object.hasOwn(target, name)) return undefined;
      return (target as Record<string, unknown>)[name];
    }
    case "UnaryExpression":
      return !evaluate((node as jsep.UnaryExpression).argument, visitor);
    case "BinaryExpression": {
      const { operator, left, right } = node as jsep.BinaryExpression;
      if (operator === "&&") return Boolean(evaluate(left, visitor)) && Boolean(evaluate(right, visitor));
      if (operator === "||") return Boolean(evaluate(left, visitor)) || Boolean(evaluate(right, visitor));
      return compare(operator, evaluate(left, visitor), evaluate(right, visitor));
    }
    default:
      return undefined;
  }
}

function compare(operator: string, a: unknown, b: unknown): boolean {
  if (operator === "==" || operator === "===") return a === b;
  if (operator === "!=" || operator === "!==") return a !== b;
  // Ordering only between two numbers or two strings; anything else is false rather than JavaScript coercion.
  const comparable =
    (typeof a === "number" && typeof b === "number") || (typeof a === "string" && typeof b === "string");
  if (!comparable) return false;
  const x = a as number | string;
  const y = b as number | string;
  if (operator === "<") return x < y;
  if (operator === ">") return x > y;
  if (operator === "<=") return x <= y;
  return x >= y;
}

/**
 * Whether a visitor passes a condition (`visitor` is the root name, e.g. `{ claims: {...} }`). A condition that
 * no longer parses hides the item: failing closed never shows gated content.
 */
export function evaluateCondition(text: string, visitor: Record<string, unknown>): boolean {
  let tree: Expression;
  try {
    tree = parse(text);
  } catch {
    return false;
  }
  return Boolean(evaluate(tree, visitor));
}
