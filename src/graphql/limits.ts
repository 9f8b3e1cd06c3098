import { blockFieldSuggestionsPlugin } from "@escape.tech/graphql-armor-block-field-suggestions";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { type DocumentNode, GraphQLError, Kind, visit } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Config } from "../config.ts";
import { containsNul, nulCharacterMessage } from "../validation.ts";

/**
 * Limits checked while parsing and validating, before any resolver runs. Sized from the product's largest
 * ordinary query, the nested site structure (test/graphql/site-structure-nested-read.test.ts: depth 9, 3 aliases
 * at most, cost ~3.5M with its `first: 100` pages), with room to spare.
 */
export const graphqlLimits = {
  depth: 15,
  aliases: 30,
  directives: 30,
  tokens: 5000,
  cost: 20_000_000,
} as const;

/** Operations in one batched request (a JSON array body). */
export const maxBatchedOperations = 10;

/** Whether a document's string literals hold a NUL, per parsed document (yoga's parse cache reuses them). */
const documentsWithNul = new WeakMap<DocumentNode, boolean>();

function documentContainsNul(document: DocumentNode): boolean {
  let found = documentsWithNul.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      [Kind.STRING]: (node) => {
        found ||= node.value.includes("\u0000");
      },
    });
    documentsWithNul.set(document, found);
  }
  return found;
}

/** Refuses NUL characters in variables and in the document's string literals, before any resolver runs. */
const rejectNulCharacters: Plugin = {
  onExecute({ args, setResultAndStopExecution }) {
    if (containsNul(args.variableValues) || documentContainsNul(args.document)) {
      setResultAndStopExecution({
        errors: [new GraphQLError(nulCharacterMessage, { extensions: { code: "BAD_USER_INPUT", status: 400 } })],
      });
    }
  },
};

export function graphqlLimitPlugins(config: Config): Plugin[] {
  const plugins: Plugin[] = [
    rejectNulCharacters,
    maxTokensPlugin({ n: graphqlLimits.tokens, exposeLimits: true }),
    maxDepthPlugin({ n: graphqlLimits.depth, exposeLimits: true, flattenFragments: true }),
    maxAliasesPlugin({ n: graphqlLimits.aliases, exposeLimits: true }),
    maxDirectivesPlugin({ n: graphqlLimits.directives, exposeLimits: true }),
    costLimitPlugin({ maxCost: graphqlLimits.cost, exposeLimits: true, flattenFragments: true }),
  ];
  // Suggestions ("Did you mean ...?") describe the schema to whoever probes it; GraphiQL users in development keep them.
  if (config.environment !== "development") plugins.push(blockFieldSuggestionsPlugin());
  return plugins;
}
