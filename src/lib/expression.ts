import jsep from "jsep";

/*
 * Expressions written by users (site conditions, variables in page content) are parsed with jsep and evaluated
 * here by walking the tree over a closed set of nodes: member access on plain data, literals and the operators a
 * grammar allows. Nothing can call a function, reach a prototype or run code (no eval, no new Function).
 */

type Expression = jsep.Expression;

/** What one kind of expression may contain. */
export interface ExpressionGrammar {
  /** Names an expression may start from, e.g. `visitor`. */
  roots: ReadonlySet<string>;
  unaryOperators: ReadonlySet<string>;
  binaryOperators: ReadonlySet<string>;
  /** Whether `test ? a : b` is allowed. */
  conditional: boolean;
  maxLength: number;
}

/** Thrown by parseExpression with the reason the text is not an expression of the grammar. */
class ExpressionRejectedError extends Error {}

/** Names that would walk out of the data the expression is given. */
const forbiddenProperties = new Set(["__proto__", "prototype", "constructor"]);

function reject(message: string): never {
  throw new ExpressionRejectedError(message);
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

function check(node: Expression, grammar: ExpressionGrammar): void {
  switch (node.type) {
    case "Literal": {
      const value = (node as jsep.Literal).value;
      if (value instanceof RegExp) reject("regular expressions are not supported");
      return;
    }
    case "Identifier": {
      const name = (node as jsep.Identifier).name;
      if (!grammar.roots.has(name)) reject(`unknown name ${name}`);
      return;
    }
    case "MemberExpression": {
      const name = propertyName(node);
      if (forbiddenProperties.has(String(name))) reject(`property ${name} is not allowed`);
      check((node as jsep.MemberExpression).object, grammar);
      return;
    }
    case "UnaryExpression": {
      const unary = node as jsep.UnaryExpression;
      if (!grammar.unaryOperators.has(unary.operator)) reject(`operator ${unary.operator} is not supported`);
      check(unary.argument, grammar);
      return;
    }
    case "BinaryExpression": {
      const binary = node as jsep.BinaryExpression;
      if (!grammar.binaryOperators.has(binary.operator)) reject(`operator ${binary.operator} is not supported`);
      check(binary.left, grammar);
      check(binary.right, grammar);
      return;
    }
    case "ConditionalExpression": {
      if (!grammar.conditional) reject("ConditionalExpression is not supported");
      const conditional = node as jsep.ConditionalExpression;
      check(conditional.test, grammar);
      check(conditional.consequent, grammar);
      check(conditional.alternate, grammar);
      return;
    }
    default:
      reject(`${node.type} is not supported`);
  }
}

/** Parses `text` and checks it against `grammar`; throws ExpressionRejectedError otherwise. */
export function parseExpression(text: string, grammar: ExpressionGrammar): Expression {
  if (text.length > grammar.maxLength) reject(`longer than ${grammar.maxLength} characters`);
  let tree: Expression;
  try {
    tree = jsep(text);
  } catch (error) {
    return reject((error as Error).message);
  }
  if (tree.type === "Compound") reject("expected exactly one expression");
  check(tree, grammar);
  return tree;
}

/**
 * Evaluates a tree returned by parseExpression over `scope` (root name -> data). Only own properties of plain data
 * are read: a missing name reads as undefined.
 */
export function evaluateExpression(node: Expression, scope: Record<string, unknown>): unknown {
  switch (node.type) {
    case "Literal":
      return (node as jsep.Literal).value;
    case "Identifier":
      return ownProperty(scope, (node as jsep.Identifier).name);
    case "MemberExpression":
      return ownProperty(evaluateExpression((node as jsep.MemberExpression).object, scope), String(propertyName(node)));
    case "UnaryExpression": {
      const { operator, argument } = node as jsep.UnaryExpression;
      const value = evaluateExpression(argument, scope);
      if (operator === "!") return !value;
      return typeof value === "number" ? -value : undefined;
    }
    case "BinaryExpression": {
      const { operator, left, right } = node as jsep.BinaryExpression;
      if (operator === "&&")
        return Boolean(evaluateExpression(left, scope)) && Boolean(evaluateExpression(right, scope));
      if (operator === "||")
        return Boolean(evaluateExpression(left, scope)) || Boolean(evaluateExpression(right, scope));
      return binary(operator, evaluateExpression(left, scope), evaluateExpression(right, scope));
    }
    case "ConditionalExpression": {
      const { test, consequent, alternate } = node as jsep.ConditionalExpression;
      return evaluateExpression(evaluateExpression(test, scope) ? consequent : alternate, scope);
    }
    default:
      return undefined;
  }
}

function ownProperty(target: unknown, name: string): unknown {
  if (target === null || typeof target !== "object" || !Object.hasOwn(target, name)) return undefined;
  return (target as Record<string, unknown>)[name];
}

/** The text of a value where an expression's result is shown: nothing for undefined and null. */
export function expressionValueText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function binary(operator: string, a: unknown, b: unknown): unknown {
  if (operator === "==" || operator === "===") return a === b;
  if (operator === "!=" || operator === "!==") return a !== b;
  if (operator === "+") {
    if (typeof a === "number" && typeof b === "number") return a + b;
    return expressionValueText(a) + expressionValueText(b);
  }
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
