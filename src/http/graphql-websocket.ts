import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { type ExecutionArgs, GraphQLError, getOperationAST } from "graphql";
import type { SubscribePayload } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { type WebSocket, WebSocketServer } from "ws";
import type { TokenCache } from "../auth/token-cache.ts";
import { authenticate, bearerToken } from "../auth/viewer.ts";
import type { Database } from "../db/database.ts";
import { codedError } from "../graphql/errors.ts";
import { graphqlLimits } from "../graphql/limits.ts";
import type { Enveloped, GraphQLServer } from "../graphql/server.ts";
import { clientAddress } from "../lib/client-address.ts";
import type { ErrorCode } from "../lib/error-codes.ts";
import type { Clock } from "../platform/clock.ts";
import type { Config } from "../platform/config.ts";
import type { WebSocketRefusal, WebSocketStats } from "../platform/metrics.ts";
import type { Viewer } from "../request/context.ts";
import { RequestBudget } from "../request/request-budget.ts";
import { type CallContext, CallRequest } from "../web/call.ts";
import type { HeavyWork } from "../workers/heavy-work.ts";
import type { Admission, LoadShedder } from "./load-shedding.ts";
import type { RateLimiter } from "./rate-limit.ts";

export interface GraphQLWebSocketOptions {
  config: Config;
  db: Database;
  clock: Clock;
  rateLimiter: RateLimiter;
  work: HeavyWork;
  tokens: TokenCache;
  graphql: GraphQLServer;
  /** The HTTP requests' load shedder: a connection or an operation is refused while it sheds requests. */
  shedder: LoadShedder;
}

export interface GraphQLWebSockets {
  /** Serves the `graphql-transport-ws` protocol on `server`'s WebSocket upgrades of `/graphql`. */
  attach(server: Server): void;
  /** Closes every open socket (1001, going away): their subscriptions end, and the server can stop. */
  close(): void;
  stats(): WebSocketStats;
}

/** WebSocket's close codes (RFC 6455): an endpoint that goes away; a policy (a limit) refused; try again later. */
const goingAway = 1001;
const policyViolation = 1008;
const tryAgainLater = 1013;

/** What a client sends in `connection_init`: its token, as the `Authorization` header carries it over HTTP. */
type ConnectionParams = Record<string, unknown> | undefined;

/** The token of `connectionParams`: `{ authorization: "Bearer <token>" }` (Apollo's and urql's examples' shape). */
function bearerOf(params: ConnectionParams): string | undefined {
  const value = params?.authorization ?? params?.Authorization;
  return typeof value === "string" ? bearerToken(value) : undefined;
}

const overloaded = "The server is overloaded; retry shortly";

function refused(message: string, code: ErrorCode): readonly GraphQLError[] {
  return [codedError(code, message)];
}

/**
 * GraphQL over WebSocket (`graphql-ws`, the protocol Apollo's GraphQLWsLink and urql's subscription exchange speak)
 * beside server-sent events, on the same HTTP server and port at `/graphql`. Each operation is admitted as an HTTP
 * request is (src/http/guard.ts): the token from `connectionParams` through the same token cache (so a revoked token
 * opens nothing new), a point from the caller's rate-limit bucket, the same request budget; then it runs through the
 * same envelop pipeline as `/graphql`, whose plugins hold the document limits, the cost, the per-person subscription
 * cap and error masking. Connections are bounded per client address (MAX_WEBSOCKETS_PER_ADDRESS), and while the
 * process sheds HTTP requests (src/http/load-shedding.ts) a new connection or operation of a caller is refused as a
 * request of theirs would be.
 */
export function createGraphQLWebSockets(options: GraphQLWebSocketOptions): GraphQLWebSockets {
  const { config, db, clock, rateLimiter, work, tokens, graphql, shedder } = options;
  // Messages are bounded like request bodies.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: config.maxBodyBytes });
  /** Each operation's pipeline, by its context: graphql-ws calls `execute`/`subscribe` with the arguments only. */
  const pipelines = new WeakMap<object, Enveloped>();
  const pipelineOf = (args: ExecutionArgs): Enveloped => {
    const enveloped = pipelines.get(args.contextValue as object);
    if (!enveloped) throw new Error("A WebSocket operation ran without its pipeline");
    return enveloped;
  };

  const openByAddress = new Map<string, number>();
  /** Each open connection's graphql-ws context: its `subscriptions` are the operations running over it. */
  const connections = new Set<{ subscriptions: Record<string, unknown> }>();
  const refusedCounts: Record<WebSocketRefusal, number> = { address_limit: 0, overloaded: 0 };
  /** Each admitted operation's load-shedding admission, by its context, until it has run (or its stream opened). */
  const admissions = new WeakMap<object, Admission>();

  const addressOf = (request: IncomingMessage) =>
    clientAddress(
      request.socket.remoteAddress ?? "local",
      request.headers["x-forwarded-for"]?.toString() ?? null,
      config.trustProxyHops,
    );

  const refuseSocket = (client: WebSocket, reason: WebSocketRefusal, message: string) => {
    refusedCounts[reason]++;
    client.close(reason === "overloaded" ? tryAgainLater : policyViolation, message);
  };

  const callerOf = (viewer: Viewer | null, address: string) =>
    viewer ? `user:${viewer.userId}` : `address:${address}`;

  async function admit(
    request: IncomingMessage,
    params: ConnectionParams,
  ): Promise<{ call: CallContext; admission: Admission } | { errors: readonly GraphQLError[] }> {
    const bearer = bearerOf(params);
    const viewer = await authenticate(db.sql, clock, tokens, bearer);
    const address = addressOf(request);
    const limited = await rateLimiter.admit(viewer, address, clock.now());
    if (limited && !limited.allowed) {
      return {
        errors: refused(
          `Rate limit of ${limited.limit} points reached: retry in ${limited.retryAfterSeconds} s`,
          "RATE_LIMITED",
        ),
      };
    }
    const admission = shedder.admit(callerOf(viewer, address), viewer === null);
    if ("refused" in admission) return { errors: refused(overloaded, "SERVICE_UNAVAILABLE") };
    const budget = new RequestBudget(graphqlLimits.cost, config.maxConversionBytes, work, limited);
    const labels = { route: "/graphql", operation: "" };
    return {
      call: { requestId: randomUUID(), clientAddress: address, viewer, bearer, labels, budget, rateLimit: limited },
      admission,
    };
  }

  /** Runs an admitted operation, which leaves the requests in flight once it has answered or its stream opened. */
  async function running<Result>(args: ExecutionArgs, run: () => Result | Promise<Result>): Promise<Result> {
    try {
      return await run();
    } finally {
      admissions.get(args.contextValue as object)?.done();
    }
  }

  useServer<ConnectionParams>(
    {
      execute: (args) => running(args, () => pipelineOf(args).execute(args)),
      subscribe: (args) => running(args, () => pipelineOf(args).subscribe(args)),
      onConnect: async (ctx) => {
        // Authenticated as its operations will be, so that shedding weighs the caller as over HTTP.
        const viewer = await authenticate(db.sql, clock, tokens, bearerOf(ctx.connectionParams));
        const admission = shedder.admit(callerOf(viewer, addressOf(ctx.extra.request)), viewer === null);
        if ("refused" in admission) {
          refuseSocket(ctx.extra.socket, "overloaded", overloaded);
          return false;
        }
        admission.done();
        connections.add(ctx);
        return true;
      },
      onClose: (ctx) => void connections.delete(ctx),
      onSubscribe: async (ctx, _id, payload) => {
        // Only registered documents run then, and a WebSocket operation carries its text.
        if (config.trustedDocumentsOnly) {
          return refused(
            "Only registered documents run on this server (TRUSTED_DOCUMENTS_ONLY): subscribe over server-sent events",
            "PERSISTED_DOCUMENT_NOT_FOUND",
          );
        }
        const admitted = await admit(ctx.extra.request, ctx.connectionParams);
        if ("errors" in admitted) return admitted.errors;
        try {
          return await prepared(admitted.call, payload, admitted.admission);
        } catch (error) {
          admitted.admission.done();
          throw error;
        }
      },
    },
    sockets,
  );

  /** The operation's pipeline, parsed and validated document and context; its errors when it does not validate. */
  async function prepared(call: CallContext, payload: SubscribePayload, admission: Admission) {
    const request = new CallRequest(`${config.publicUrl}/graphql`, { method: "POST" }, call);
    const params = {
      query: payload.query,
      operationName: payload.operationName ?? undefined,
      variables: payload.variables ?? undefined,
      extensions: payload.extensions ?? undefined,
    };
    const enveloped = graphql.envelop(request, params);
    const rejected = (errors: readonly GraphQLError[]) => {
      admission.done();
      return errors;
    };
    let document: ReturnType<Enveloped["parse"]>;
    try {
      document = enveloped.parse(payload.query);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return rejected([error]);
    }
    const errors = enveloped.validate(enveloped.schema, document);
    if (errors.length > 0) return rejected(errors);
    // graphql-ws answers this error itself without running the operation, which would keep its admission.
    if (!getOperationAST(document, params.operationName)) {
      return rejected([new GraphQLError("Unable to identify operation")]);
    }
    const contextValue = (await enveloped.contextFactory()) as object;
    pipelines.set(contextValue, enveloped);
    admissions.set(contextValue, admission);
    return {
      schema: enveloped.schema,
      document,
      operationName: params.operationName,
      variableValues: params.variables,
      contextValue,
    };
  }

  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? "/", "http://upgrade").pathname;
    if (pathname !== "/graphql") {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const address = addressOf(request);
    sockets.handleUpgrade(request, socket, head, (client) => {
      const open = openByAddress.get(address) ?? 0;
      if (open >= config.maxWebSocketsPerAddress) {
        const max = config.maxWebSocketsPerAddress;
        refuseSocket(client, "address_limit", `At most ${max} WebSockets may be open per client address`);
        return;
      }
      openByAddress.set(address, open + 1);
      client.once("close", () => {
        const left = (openByAddress.get(address) ?? 1) - 1;
        if (left > 0) openByAddress.set(address, left);
        else openByAddress.delete(address);
      });
      sockets.emit("connection", client, request);
    });
  };

  return {
    attach: (server) => void server.on("upgrade", upgrade),
    close() {
      for (const client of sockets.clients) client.close(goingAway, "The server is shutting down");
      sockets.close();
    },
    stats() {
      let streams = 0;
      for (const connection of connections) {
        for (const operation of Object.values(connection.subscriptions)) if (operation) streams++;
      }
      return { open: sockets.clients.size, streams, refused: { ...refusedCounts } };
    },
  };
}
