import { createServer } from "node:http";
import { createServerAdapter } from "@whatwg-node/server";
import type { ServerContext } from "./app.ts";
import { bootstrapDemoData } from "./bootstrap.ts";
import { systemClock } from "./clock.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { contextActingAs } from "./context.ts";
import { openConfiguredDatabase } from "./db/open.ts";
import { startEventBus } from "./events/bus.ts";
import { createRateLimiter } from "./http/rate-limit.ts";
import { startJobEngine } from "./jobs/engine.ts";
import { createLogger, describeError } from "./logger.ts";
import { seedDemoContent } from "./modules/demo/demo.service.ts";
import { encryptStoredVisitorAuthKeys } from "./modules/site-structure/site.service.ts";

async function main() {
  // Until the server listens, a timer keeps the event loop alive. PGlite compiles its WebAssembly on V8's worker
  // thread; with nothing else to wait for, the loop would run out and Node would then wait for every queued
  // compilation, the optimizing tier-up included, before going on: ~0.3-0.5 s of the embedded start.
  const startingUp = setInterval(() => {}, 60_000);
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const [db, { createApp }] = await Promise.all([openConfiguredDatabase(config), import("./app.ts")]);
  db.onConnectionError((error) =>
    logger.warn("database connection lost; the pool opens another", { error: error.message }),
  );
  // Start-up and an idle job runner check through the hand-written reads: Prisma's query engine (WebAssembly, ~30 MB
  // resident and ~70 ms to compile) loads with the first write or due job, not with every start.
  await encryptStoredVisitorAuthKeys(db, config.secretsKey);
  const demo = await bootstrapDemoData(db, systemClock, config.bootstrapAdminToken);
  const events = await startEventBus(db, logger);
  if (demo) {
    // A small site structure too, so the first nested query in GraphiQL has something to show.
    const ctx = contextActingAs(
      { prisma: db.prisma, sql: db.sql, config, clock: systemClock, events },
      demo.adminUserId,
      "boot",
    );
    await seedDemoContent(ctx, demo.organizationId, "small", async () => {});
  }
  const rateLimiter = await createRateLimiter(config, logger);
  const app = createApp({ config, db, events, logger, rateLimiter });
  const server = createServer(createServerAdapter<ServerContext>(app.fetch));
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  clearInterval(startingUp);
  // Started once the server listens: requests are served meanwhile, and jobs added meanwhile wait in the queue.
  const jobs = config.runJobs
    ? await startJobEngine({ db, clock: systemClock, config, logger, events, observe: app.observeJob })
    : undefined;

  const where = config.databaseUrl ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`;
  const lines = [
    `Docs management gateway listening on ${config.publicUrl} (database: ${where})`,
    `  GraphiQL:  ${config.publicUrl}/graphql`,
    `  REST API:  ${config.publicUrl}/v1`,
    `  Health:    ${config.publicUrl}/livez (liveness), ${config.publicUrl}/readyz (readiness)`,
    `  Metrics:   ${config.publicUrl}/metrics`,
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

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down", { signal });
    app.stopAcceptingTraffic();
    // Ending the subscriptions ends their event streams, which the server would otherwise wait for.
    const eventsClosed = events.close();
    // Finish requests in flight, then release the database; force the exit if a client holds a connection open.
    setTimeout(() => process.exit(1), 10_000).unref();
    server.close(async () => {
      await jobs?.stop();
      await eventsClosed;
      await db.close();
      await rateLimiter.close();
      await logger.flush();
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  process.stderr.write(
    error instanceof ConfigError ? `${error.message}\n` : `Failed to start: ${JSON.stringify(describeError(error))}\n`,
  );
  process.exit(1);
});
