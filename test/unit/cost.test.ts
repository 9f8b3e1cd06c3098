import { buildSchema, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { estimateCost } from "../../src/lib/query-cost.ts";

const schema = buildSchema(`
  type Query { space(id: ID!): Space, spaces(first: Int, last: Int): [Space!]!, render(size: Int): String, search(text: String!, first: Int): [Space!]! }
  type Space { id: ID!, title: String!, pages(first: Int): [Page!]! }
  type Page { id: ID! }
`);
const renderField = schema.getQueryType()?.getFields().render;
if (renderField) renderField.extensions = { cost: { weight: (args: { size?: number }) => args.size ?? 1 } };

describe("estimateCost", () => {
  it("costs an operation whose variables feed no size the same for every value", () => {
    const document = parse("query ($id: ID!) { space(id: $id) { id title pages(first: 3) { id } } }");
    expect(estimateCost(schema, document, { id: "a" })).toBe(1 + 2 + 1 + 3);
    expect(estimateCost(schema, document, { id: "b" })).toBe(7);
  });

  it("follows the variables that size a list or a weight, on every call", () => {
    const paged = parse("query ($n: Int) { spaces(first: $n) { id } }");
    expect(estimateCost(schema, paged, { n: 5 })).toBe(6);
    expect(estimateCost(schema, paged, { n: 50 })).toBe(51);
    const weighted = parse("query ($size: Int) { render(size: $size) }");
    expect(estimateCost(schema, weighted, { size: 10 })).toBe(10);
    expect(estimateCost(schema, weighted, { size: 300 })).toBe(300);
  });

  it("answers each value of the sizing variables its own figure, whatever the other variables", () => {
    const document = parse("query ($id: ID!, $n: Int) { space(id: $id) { pages(first: $n) { id } } }");
    expect(estimateCost(schema, document, { id: "a", n: 5 })).toBe(1 + 1 + 5);
    expect(estimateCost(schema, document, { id: "b", n: 5 })).toBe(7);
    expect(estimateCost(schema, document, { id: "c", n: 40 })).toBe(1 + 1 + 40);
    expect(estimateCost(schema, document, { id: "d" })).toBe(1 + 1 + 1);
    expect(estimateCost(schema, document, { id: "e", n: 5 })).toBe(7);
    expect(estimateCost(schema, document, { id: "f", n: 40 })).toBe(42);
  });

  it("does not keep a figure computed from variables that did not parse", () => {
    const document = parse("query ($text: String!) { search(text: $text, first: 4) { id } }");
    expect(estimateCost(schema, document, {})).toBe(1 + 1);
    expect(estimateCost(schema, document, { text: "a" })).toBe(1 + 4);
  });
});
