// First, a bare import (kept first when imports are sorted): the V8 settings it applies belong before any other
// module runs.
import "../platform/runtime-settings.ts";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServerAdapter } from "@whatwg-node/server";
import { lockDataDir } from "../db/data-dir-lock.ts";
import { openConfiguredDatabase } from "../db/open.ts";
import { underStartupLock } from "../db/startup-lock.ts";
import { keepTableStatistics } from "../db/statistics.ts";
import { startEventBus } from "../events/bus.ts";
import { createRateLimiter } from "../http/rate-limit.ts";
import { serverTimeouts } from "../http/server-timeouts.ts";
import { startJobEngine } from "../jobs/engine.ts";
import { seedDemoContent } from "../modules/demo/demo.public.ts";
import { encryptStoredVisitorAuthKeys } from "../modules/site-structure/site-structure.public.ts";
import { systemClock } from "../platform/clock.ts";
import { type Config, loadConfig, loadEnvFile } from "../platform/config.ts";
import { closeDataDirToOthers, createDataDir } from "../platform/data-dir.ts";
import { describeInstanceRole, instanceRole } from "../platform/instance.ts";
import { createLogger, describeError } from "../platform/logger.ts";
import { missingStartSettings } from "../platform/runtime-settings.ts";
import { startTracing, stopTracing } from "../platform/tracing.ts";
import { contextActingAs } from "../request/context.ts";
import { adminSocketPath, serveAdminCommands } from "./admin-socket.ts";
import type { ServerContext } from "./app.ts";
import { bootstrapDemoData } from "./bootstrap.ts";
import { exitAfterStartupFailure, startupStep } from "./startup-failure.ts";

/** Answers requests that arrive while the server starts: the port is bound first, to fail before creating data. */
function starting(_request: IncomingMessage, response: ServerResponse) {
  response.writeHead(503, { "content-type": "application/json", "retry-after": "1" });
  response.end(JSON.stringify({ error: { code: 503, message: "The server is starting; try again in a moment" } }));
}

/** The configuration, once loaded: a failed start names the settings to change. */
let settings: Config | undefined;

async function main() {
  // Every file this process creates is its user's only: the embedded database's (its WAL holds emails and token
  // rows), the secrets key, the lock, exports.
  process.umask(0o077);
  loadEnvFile();
  const config = loadConfig();
  settings = config;
  const logger = createLogger(config.logLevel);
  // Before the database driver and the HTTP server are used: its instrumentations patch them (src/platform/tracing.ts).
  if (config.otelExporterOtlpEndpoint) {
    const warn = (message: string) => logger.warn("tracing", { error: message });
    await startTracing({ serviceName: config.otelServiceName, warn });
  }
  // One process at a time runs the embedded database (data-dir-lock.ts); the CLI then talks to this one.
  const { dataDir } = config;
  const socket = config.databaseUrl ? undefined : adminSocketPath(dataDir);
  const lock = config.databaseUrl
    ? undefined
    : await startupStep("data directory", () => {
        createDataDir(dataDir);
        const warning = closeDataDirToOthers(dataDir);
        if (warning) logger.warn(warning);
        return lockDataDir(dataDir, "server", socket);
      });
  // The listening port also keeps the event loop alive while PGlite compiles its WebAssembly on V8's worker thread:
  // with nothing else to wait for, Node would wait for every queued compilation, the optimizing tier-up included.
  const server = createServer(serverTimeouts, starting);
  await startupStep("listen", () => listen(server, config));
  const [db, { createApp }] = await Promise.all([
    startupStep("database", () =>
      openConfiguredDatabase(config, lock, (replica, error) =>
        (replica.state === "up" ? logger.info : logger.warn)(`read replica ${replica.state}`, {
          replica: replica.name,
          ...(error === undefined ? {} : { error: error instanceof Error ? error.message : String(error) }),
        }),
      ),
    ),
    import("./app.ts"),
  ]);
  db.onConnectionError((error) =>
    logger.warn("database connection lost; the pool opens another", { error: error.message }),
  );
  // Start-up and an idle job runner check through the hand-written reads: Prisma's query engine (WebAssembly, costly
  // to compile and to keep resident) loads with the first write or due job, not with every start.
  await encryptStoredVisitorAuthKeys(db, config.secretsKey);
  const events = await startEventBus(db, logger);
  const rateLimiter = await createRateLimiter(config, logger);
  const app = createApp({ config, db, events, logger, rateLimiter });
  // Commands sent meanwhile wait for the demo data, which is created on an empty database only.
  let startedUp = () => {};
  const started = new Promise<void>((resolve) => (startedUp = resolve));
  const admin = socket
    ? await startupStep("admin socket", () => serveAdminCommands(socket, { db, events, config }, logger, started))
    : undefined;
  // Last, once nothing else can fail: its token is printed below, never lost to a failed start. Under the start-up
  // lock: instances started together on an empty database create it once.
  const demo = await underStartupLock(db, async () => {
    const created = await bootstrapDemoData(db, systemClock, config.bootstrapAdminToken);
    if (created) {
      // A small site structure too, so the first nested query in GraphiQL has something to show.
      const ctx = contextActingAs(
        { prisma: db.prisma, sql: db.sql, config, clock: systemClock, events },
        created.adminUserId,
        "boot",
      );
      await seedDemoContent(ctx, created.organizationId, "small", async () => {}).catch((error: unknown) =>
        logger.warn("the demo site structure could not be created", describeError(error)),
      );
    }
    return created;
  });
  const statistics = keepTableStatistics(db, logger);
  server.off("request", starting).on("request", createServerAdapter<ServerContext>(app.fetch));
  app.serveWebSockets(server);
  startedUp();
  // Started once the server serves: jobs added meanwhile wait in the queue. Under the start-up lock: its queues and
  // schedules are created once.
  const jobs = config.runJobs
    ? await underStartupLock(db, () =>
        startJobEngine({ db, clock: systemClock, config, logger, events, observe: app.observeJob }),
      )
    : undefined;

  // Before the banner: a process manager may signal as soon as it reads it.
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    app.stopAcceptingTraffic();
    // Upgraded sockets are no longer the HTTP server's: it would wait for them.
    app.closeWebSockets();
    // Ending the subscriptions ends their event streams, which the server would otherwise wait for.
    const eventsClosed = events.close();
    // Finish requests in flight, then release the database; force the exit if a client holds a connection open.
    setTimeout(() => process.exit(1), 10_000).unref();
    server.close(async () => {
      await jobs?.stop();
      await statistics.stop();
      await admin?.close();
      await app.close();
      await eventsClosed;
      await db.close();
      await rateLimiter.close();
      // The spans still buffered are exported before the process ends.
      await stopTracing();
      await logger.flush();
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));

  const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`;
  const lines = [
    `Docs management gateway listening on ${config.publicUrl} (database: ${where})`,
    `  GraphiQL:  ${config.publicUrl}/graphql`,
    `  REST API:  ${config.publicUrl}/v1`,
    `  Health:    ${config.publicUrl}/livez (liveness), ${config.publicUrl}/readyz (readiness)`,
    `  Metrics:   ${config.publicUrl}/metrics`,
    `  Instance:  ${describeInstanceRole(instanceRole(config), config)}`,
  ];
  if (demo) {
    // A token the operator chose is theirs already: logs must not copy it.
    const chosen = config.bootstrapAdminToken !== undefined;
    lines.push(
      `Created the demo organization ${demo.organizationId} with admin@example.com as its admin.`,
      chosen ? "  Admin token: the value of BOOTSTRAP_ADMIN_TOKEN" : `  Admin token (shown once): ${demo.adminToken}`,
      `  Try: curl -H "Authorization: Bearer ${chosen ? "$BOOTSTRAP_ADMIN_TOKEN" : demo.adminToken}" ${config.publicUrl}/v1/orgs`,
    );
  } else {
    lines.push("  Need a token? npm run cli -- token create --user <userId>   (npm run cli -- user list shows users)");
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  // Once started: a start that fails says only why.
  const missing = missingStartSettings();
  if (missing.length > 0) {
    logger.warn("started without the memory settings of npm start and the Dockerfile (see docs/operations.md)", {
      missing,
    });
  }
}

function listen(server: Server, { port, host }: Config): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

main().catch((error: unknown) =>
  exitAfterStartupFailure(error, settings, (settings?.logLevel ?? process.env.LOG_LEVEL) === "debug"),
);
