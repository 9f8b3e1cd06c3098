import { blockFieldSuggestionsPlugin } from "@escape.tech/graphql-armor-block-field-suggestions";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { type DocumentNode, type ExecutionResult, type GraphQLError, Kind, visit } from "graphql";
import { handleStreamOrSingleExecutionResult, isAsyncIterable, type Plugin } from "graphql-yoga";
import { type ErrorCode, statusOf } from "../lib/error-codes.ts";
import { DomainError } from "../lib/errors.ts";
import { estimateCost, ListTooLongError, resultNodes } from "../lib/query-cost.ts";
import { inputProblem, inputProblemMessage, nulCharacterMessage } from "../lib/validation.ts";
import type { Config } from "../platform/config.ts";
import type { RequestContext } from "../request/context.ts";
import type { GraphQLCall } from "../web/call.ts";
import { isServerDocument, recordOperationCost, withCostReport } from "./cost-report.ts";
import { codedError } from "./errors.ts";

/**
 * Limits checked while parsing and validating, before any resolver runs. Sized from the product's largest
 * ordinary query, the nested site structure (test/graphql/site-structure-nested-read.test.ts: depth 9, 3 aliases
 * at most), with room to spare. `cost` bounds estimateCost (src/lib/query-cost.ts) summed over a request's
 * operations; `nesting` bounds `{ [ (` in the document text, value literals included, and `commentCharacters` the
 * comments' length, before it is parsed.
 */
export const graphqlLimits = {
  depth: 15,
  aliases: 30,
  directives: 30,
  tokens: 5000,
  cost: 10_000_000,
  nesting: 64,
  commentCharacters: 65_536,
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

/**
 * An operation refused before it ran, so its result has no data: GraphQL over HTTP asks a 400 under
 * application/graphql-response+json (a 200 under application/json; yoga reads `http.spec` so).
 */
function refusedBeforeRunning(message: string, code: ErrorCode): GraphQLError {
  return codedError(code, message, { extensions: { http: { status: statusOf(code), spec: true } } });
}

function badInput(message: string): GraphQLError {
  return refusedBeforeRunning(message, "BAD_USER_INPUT");
}

/**
 * What is wrong with a GraphQL document's text before it is parsed, in one pass without recursion:
 * - `{`, `[` and `(` nested deeper than `graphqlLimits.nesting` outside strings and comments. graphql-js parses
 *   selections and value literals recursively, so a document nested thousands deep must be refused before it is
 *   parsed; `maxDepth` only sees selections, and only after parsing.
 * - more than `graphqlLimits.commentCharacters` of comments. Comments are not tokens, so the token limit lets a
 *   document of a few tokens padded with a megabyte comment through, which every lexer pass (the token limit's,
 *   the parser's) then walks on the event loop, for nothing: a comment means nothing to the server.
 */
function documentTextProblem(source: string): string | undefined {
  let depth = 0;
  let comments = 0;
  // The characters that matter, found by the regular expression engine: a JavaScript loop over every character cost
  // ~2 ms per megabyte, on the event loop, for each text.
  const significant = /[#"{}[\]()]/g;
  for (let match = significant.exec(source); match; match = significant.exec(source)) {
    const index = match.index;
    const character = source[index];
    if (character === "#") {
      const end = source.indexOf("\n", index);
      comments += (end < 0 ? source.length : end) - index;
      if (comments > graphqlLimits.commentCharacters) {
        return `The document's comments must not exceed ${graphqlLimits.commentCharacters} characters`;
      }
      significant.lastIndex = end < 0 ? source.length : end;
    } else if (character === '"') {
      significant.lastIndex = stringEnd(source, index) + 1;
    } else if (character === "{" || character === "[" || character === "(") {
      if (++depth > graphqlLimits.nesting) {
        return `The document must not nest {, [ and ( deeper than ${graphqlLimits.nesting} levels`;
      }
    } else depth--;
  }
  return undefined;
}

/** Where the string starting at `start` ends: the last of its closing quotes, or the end of its line or text. */
function stringEnd(source: string, start: number): number {
  if (source.startsWith('"""', start)) {
    let end = source.indexOf('"""', start + 3);
    while (end > 0 && source[end - 1] === "\\") end = source.indexOf('"""', end + 1);
    return end < 0 ? source.length : end + 2;
  }
  const stop = /["\n\\]/g;
  stop.lastIndex = start + 1;
  for (let match = stop.exec(source); match; match = stop.exec(source)) {
    if (match[0] !== "\\") return match.index;
    stop.lastIndex = match.index + 2;
  }
  return source.length;
}

const rejectDocumentText: Plugin = {
  onParse({ params }) {
    const source = typeof params.source === "string" ? params.source : params.source.body;
    const problem = documentTextProblem(source);
    if (problem) {
      throw codedError("BAD_USER_INPUT", problem, { extensions: { http: { status: statusOf("BAD_USER_INPUT") } } });
    }
  },
};

type OperationArgs = Parameters<NonNullable<Plugin<RequestContext>["onExecute"]>>[0]["args"];

/**
 * Why an operation must not run, checked before any resolver: NUL characters or too deep nesting in its variables,
 * NUL in its string literals, or its estimated cost on top of its request's earlier operations (a batch shares one
 * budget) over the single-request maximum. A REST route's document passes: it is the server's own, the router checked
 * its variables for NUL and nesting before running it (src/rest/router.ts), and it is not refused for its estimate
 * (the router bounded its page size, and it pays what it did). The estimate is recorded for the cost report; nothing
 * is charged.
 */
function refusal({
  schema,
  document,
  variableValues,
  operationName,
  contextValue,
}: Pick<OperationArgs, "schema" | "document" | "variableValues" | "operationName"> & { contextValue: RequestContext }) {
  if (isServerDocument(contextValue)) return undefined;
  const problem = inputProblem(variableValues);
  if (problem) return badInput(inputProblemMessage(problem));
  if (documentContainsNul(document)) return badInput(nulCharacterMessage);
  let cost: number;
  try {
    cost = estimateCost(schema, document, variableValues, operationName);
  } catch (error) {
    if (error instanceof ListTooLongError) return badInput(error.message);
    throw error;
  }
  recordOperationCost(contextValue, cost);
  try {
    contextValue.budget.admitEstimate(cost);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return refusedBeforeRunning(error.message, error.code);
  }
  return undefined;
}

/**
 * An answer past MAX_ANSWER_NODES (a 1,000-item page of any REST list holds a few tens of thousands): it is not sent,
 * and it was charged, its work being done.
 */
function answerTooLarge(nodes: number, maxAnswerNodes: number): GraphQLError {
  return codedError(
    "COST_LIMIT_EXCEEDED",
    `The answer holds ${nodes} nodes, more than the ${maxAnswerNodes} one operation may return: ask for fewer ` +
      "items or fields",
  );
}

/** The nodes of a result, or of an incremental payload's parts. */
function payloadNodes(result: ExecutionResult & { incremental?: unknown }): number {
  return resultNodes(result.data) + resultNodes(result.incremental);
}

/**
 * Operations are charged what they did once they ran (each payload of an incremental answer as it is sent), and
 * queries and mutations report their cost in `extensions` (of the first payload of an incremental response).
 */
const checkOperations: Plugin<RequestContext> = {
  onExecute({ args, setResultAndStopExecution }) {
    const context = args.contextValue;
    const error = refusal(args);
    if (error) {
      setResultAndStopExecution(withCostReport({ errors: [error] }, context, 0));
      return;
    }
    let reported = false;
    return {
      onExecuteDone: (payload) =>
        handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
          const nodes = payloadNodes(result);
          const points = context.budget.chargeActual(nodes);
          const { maxAnswerNodes } = context.config;
          const bounded = nodes > maxAnswerNodes ? { errors: [answerTooLarge(nodes, maxAnswerNodes)] } : result;
          if (reported) {
            if (bounded !== result) setResult(bounded);
            return;
          }
          reported = true;
          setResult(withCostReport(bounded, context, points));
        }),
    };
  },
  onSubscribe({ args, setResultAndStopExecution }) {
    const error = refusal(args);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
};

/**
 * At most `max` open subscriptions per user (all of the user's tokens together, so minting tokens buys none), or
 * per client address for a caller without a token, in this process: each holds a stream, listeners and memory
 * until it ends, so one person could otherwise hold the instance's. The count drops when a stream closes.
 */
function subscriptionsPerUser(max: number): Plugin<RequestContext & GraphQLCall> {
  const open = new Map<string, number>();
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const { viewer, call } = args.contextValue;
      const caller = viewer ? `user:${viewer.userId}` : `address:${call.clientAddress}`;
      const count = open.get(caller) ?? 0;
      if (count >= max) {
        setResultAndStopExecution({
          errors: [
            codedError("TOO_MANY_SUBSCRIPTIONS", `At most ${max} subscriptions may be open per user; close one first`),
          ],
        });
        return;
      }
      open.set(caller, count + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = (open.get(caller) ?? 1) - 1;
        if (left > 0) open.set(caller, left);
        else open.delete(caller);
      };
      return {
        onSubscribeResult({ result }) {
          // An error result (access refused, cost) never opens a stream.
          if (!isAsyncIterable(result)) release();
          return { onEnd: release };
        },
        onSubscribeError: release,
      };
    },
  };
}

export function graphqlLimitPlugins(config: Config): Plugin[] {
  const plugins: Plugin[] = [
    rejectDocumentText,
    checkOperations as Plugin,
    subscriptionsPerUser(config.maxSubscriptionsPerUser) as Plugin,
    maxTokensPlugin({ n: graphqlLimits.tokens, exposeLimits: true }),
    maxDepthPlugin({ n: graphqlLimits.depth, exposeLimits: true, flattenFragments: true }),
    maxAliasesPlugin({ n: graphqlLimits.aliases, exposeLimits: true }),
    maxDirectivesPlugin({ n: graphqlLimits.directives, exposeLimits: true }),
  ];
  // Suggestions ("Did you mean ...?") describe the schema to whoever probes it; GraphiQL users in development keep them.
  if (config.environment !== "development") plugins.push(blockFieldSuggestionsPlugin());
  return plugins;
}
