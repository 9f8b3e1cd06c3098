import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { type ExecutionArgs, GraphQLError } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import type { TokenCache } from "../auth/token-cache.ts";
import { authenticate, bearerToken } from "../auth/viewer.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { graphqlLimits } from "../graphql/limits.ts";
import type { Enveloped, GraphQLServer } from "../graphql/server.ts";
import { clientAddress } from "../lib/client-address.ts";
import { RequestBudget } from "../request-budget.ts";
import type { HeavyWork } from "../workers/heavy-work.ts";
import { type CallContext, CallRequest } from "./call.ts";
import type { RateLimiter } from "./rate-limit.ts";

export interface GraphQLWebSocketOptions {
  config: Config;
  db: Database;
  clock: Clock;
  rateLimiter: RateLimiter;
  work: HeavyWork;
  tokens: TokenCache;
  graphql: GraphQLServer;
}

export interface GraphQLWebSockets {
  /** Serves the `graphql-transport-ws` protocol on `server`'s WebSocket upgrades of `/graphql`. */
  attach(server: Server): void;
  /** Closes every open socket (1001, going away): their subscriptions end, and the server can stop. */
  close(): void;
}

/** WebSocket's close code of an endpoint that goes away (RFC 6455). */
const goingAway = 1001;

/** What a client sends in `connection_init`: its token, as the `Authorization` header carries it over HTTP. */
type ConnectionParams = Record<string, unknown> | undefined;

/** The token of `connectionParams`: `{ authorization: "Bearer <token>" }` (Apollo's and urql's examples' shape). */
function bearerOf(params: ConnectionParams): string | undefined {
  const value = params?.authorization ?? params?.Authorization;
  return typeof value === "string" ? bearerToken(value) : undefined;
}

function refused(message: string, code: string, status: number): readonly GraphQLError[] {
  return [new GraphQLError(message, { extensions: { code, status } })];
}

/**
 * GraphQL over WebSocket (`graphql-ws`, the protocol Apollo's GraphQLWsLink and urql's subscription exchange speak)
 * beside server-sent events, on the same HTTP server and port at `/graphql`. Each operation is admitted as an HTTP
 * request is (src/http/guard.ts): the token from `connectionParams` through the same token cache (so a revoked token
 * opens nothing new), a point from the caller's rate-limit bucket, the same request budget; then it runs through the
 * same envelop pipeline as `/graphql`, whose plugins hold the document limits, the cost, the per-person subscription
 * cap and error masking.
 */
export function createGraphQLWebSockets(options: GraphQLWebSocketOptions): GraphQLWebSockets {
  const { config, db, clock, rateLimiter, work, tokens, graphql } = options;
  // Messages are bounded like request bodies.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: config.maxBodyBytes });
  /** Each operation's pipeline, by its context: graphql-ws calls `execute`/`subscribe` with the arguments only. */
  const pipelines = new WeakMap<object, Enveloped>();
  const pipelineOf = (args: ExecutionArgs): Enveloped => {
    const enveloped = pipelines.get(args.contextValue as object);
    if (!enveloped) throw new Error("A WebSocket operation ran without its pipeline");
    return enveloped;
  };

  async function admit(
    request: IncomingMessage,
    params: ConnectionParams,
  ): Promise<{ call: CallContext } | { errors: readonly GraphQLError[] }> {
    const bearer = bearerOf(params);
    const viewer = await authenticate(db.sql, clock, tokens, bearer);
    const address = clientAddress(
      request.socket.remoteAddress ?? "local",
      request.headers["x-forwarded-for"]?.toString() ?? null,
      config.trustProxyHops,
    );
    const limited = await rateLimiter.admit(viewer, address, clock.now());
    if (limited && !limited.allowed) {
      return {
        errors: refused(
          `Rate limit of ${limited.limit} points reached: retry in ${limited.retryAfterSeconds} s`,
          "RATE_LIMITED",
          429,
        ),
      };
    }
    const budget = new RequestBudget(graphqlLimits.cost, config.maxConversionBytes, work, limited);
    const labels = { route: "/graphql", operation: "" };
    return {
      call: { requestId: randomUUID(), clientAddress: address, viewer, bearer, labels, budget, rateLimit: limited },
    };
  }

  useServer<ConnectionParams>(
    {
      execute: (args) => pipelineOf(args).execute(args),
      subscribe: (args) => pipelineOf(args).subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        // Only registered documents run then, and a WebSocket operation carries its text.
        if (config.trustedDocumentsOnly) {
          return refused(
            "Only registered documents run on this server (TRUSTED_DOCUMENTS_ONLY): subscribe over server-sent events",
            "PERSISTED_DOCUMENT_NOT_FOUND",
            400,
          );
        }
        const admitted = await admit(ctx.extra.request, ctx.connectionParams);
        if ("errors" in admitted) return admitted.errors;
        const request = new CallRequest(`${config.publicUrl}/graphql`, { method: "POST" }, admitted.call);
        const params = {
          query: payload.query,
          operationName: payload.operationName ?? undefined,
          variables: payload.variables ?? undefined,
          extensions: payload.extensions ?? undefined,
        };
        const enveloped = graphql.envelop(request, params);
        let document: ReturnType<Enveloped["parse"]>;
        try {
          document = enveloped.parse(payload.query);
        } catch (error) {
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return errors;
        const contextValue = (await enveloped.contextFactory()) as object;
        pipelines.set(contextValue, enveloped);
        return {
          schema: enveloped.schema,
          document,
          operationName: params.operationName,
          variableValues: params.variables,
          contextValue,
        };
      },
    },
    sockets,
  );

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? "/", "http://upgrade").pathname;
    if (pathname !== "/graphql") {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => sockets.emit("connection", client, request));
  };

  return {
    attach: (server) => void server.on("upgrade", upgrade),
    close() {
      for (const client of sockets.clients) client.close(goingAway, "The server is shutting down");
      sockets.close();
    },
  };
}
