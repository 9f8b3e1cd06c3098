import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createServerAdapter } from "@whatwg-node/server";
import { GraphQLClient } from "graphql-request";
import { type App, createApp, type ServerContext } from "../../src/app/app.ts";
import { roleOrder } from "../../src/auth/roles.ts";
import type { Database } from "../../src/db/database.ts";
import type { Role } from "../../src/db/generated/client.ts";
import { type EventBus, startEventBus } from "../../src/events/bus.ts";
import { createRateLimiter } from "../../src/http/rate-limit.ts";
import { type JobEngine, startJobEngine } from "../../src/jobs/engine.ts";
import { insertOrganization } from "../../src/modules/organization/organization.service.ts";
import { addMember, createApiToken, createUser } from "../../src/modules/user/user.service.ts";
import type { Clock } from "../../src/platform/clock.ts";
import { type Config, loadConfig } from "../../src/platform/config.ts";
import { newId } from "../../src/platform/ids.ts";
import { createLogger, type LogLevel } from "../../src/platform/logger.ts";
import { openTestDatabase } from "./database.ts";
import { closeAfterThisFile } from "./opened-by-file.ts";

export const baseUrl = "http://gateway.test";
/** Fixed, so that several apps on one database read each other's encrypted secrets. */
const testSecretsKey = "5ec2e75".padEnd(64, "0");

/** A clock tests move by hand. */
export class TestClock implements Clock {
  constructor(private current = new Date("2026-01-01T00:00:00.000Z")) {}
  now() {
    return new Date(this.current);
  }
  advance(milliseconds: number) {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}

interface RestResponse<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
}

interface RestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (for malformed JSON tests). */
  rawBody?: string;
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
}

export interface TestApp {
  app: App;
  db: Database;
  config: Config;
  events: EventBus;
  clock: TestClock;
  rest<Body = unknown>(method: string, path: string, options?: RestOptions): Promise<RestResponse<Body>>;
  graphql(token?: string): GraphQLClient;
  /**
   * Runs the jobs queued so far, and those they add, on the job engine of this app (started on first use, with
   * `config` as the jobs' settings, the app's by default); resolves with how many ran.
   */
  runJobs(config?: Config): Promise<number>;
  /** Adds a run of each scheduled work (the hourly purges) and runs them like `runJobs`. */
  runScheduledJobs(): Promise<number>;
  /** Starts a job engine as a server runs it (woken by commits, JOB_* settings of the app), stopped after the file. */
  startJobEngine(): Promise<JobEngine>;
}

export interface TestAppOptions {
  log?: (line: string) => void;
  /** The level of the lines `log` receives (info by default). */
  logLevel?: LogLevel;
  /** Configuration variables over the test defaults (the server's own defaults, limits included). */
  env?: Record<string, string>;
  /** Another app on the database of an earlier `startTestApp` (two server instances sharing one database). */
  db?: Database;
  /** The rate limiter's Redis key prefix: apps of one test share it, other tests' counts stay apart. */
  rateLimitKeyPrefix?: string;
}

/** The Redis of the tests that share rate limits (the one of the development machines and CI by default). */
export const testRedisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A service on a fresh database for this test file, closed after the file's tests. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await openTestDatabase());
  if (!options.db) closeAfterThisFile(() => db.close());
  const clock = new TestClock();
  const config = loadConfig({
    PUBLIC_URL: baseUrl,
    LOG_LEVEL: "silent",
    NODE_ENV: "test",
    // The event loop's delay in a test process measures this machine's load and the in-process PGlite, which tests
    // must not depend on; the shedding's rules have their own tests (test/http/lone-client.test.ts, unit tests).
    SHED_EVENT_LOOP_DELAY_MS: "0",
    SECRETS_KEY: testSecretsKey,
    // Git sync tests use repositories on disk.
    GIT_FILE_URLS: "true",
    GIT_ALLOW_HOSTS: "127.0.0.1",
    ...options.env,
  });
  const logger = options.log ? createLogger(options.logLevel ?? "info", options.log) : createLogger("silent");
  const events = await startEventBus(db, logger);
  closeAfterThisFile(() => events.close());
  const rateLimiter = await createRateLimiter(config, logger, options.rateLimitKeyPrefix);
  closeAfterThisFile(() => rateLimiter.close());
  const app = createApp({ config, db, events, clock, logger, rateLimiter });
  closeAfterThisFile(() => app.close());
  // The jobs' settings: `runJobs(config)` swaps them for its run. Its engine runs jobs only when asked to (it polls
  // every 10 minutes, is not woken by commits and adds no scheduled runs when an hour turns), so tests see jobs queued
  // before they run and count only their own; and a failed job's retry waits an hour unless the test sets
  // JOB_RETRY_DELAY_SECONDS, so a later test does not run an earlier one's.
  const retryDelay = options.env?.JOB_RETRY_DELAY_SECONDS ? config.jobRetryDelaySeconds : 3600;
  const jobConfig: Config = { ...config, jobPollIntervalSeconds: 600, jobRetryDelaySeconds: retryDelay };
  let engine: Promise<JobEngine> | undefined;
  const startedEngine = () => {
    const options = {
      db,
      clock,
      config: jobConfig,
      logger,
      events,
      observe: app.observeJob,
      wakeOnCommit: false,
      onSchedule: false,
    };
    engine ??= startJobEngine(options).then((started) => {
      closeAfterThisFile(() => started.stop());
      return started;
    });
    return engine;
  };
  return {
    app,
    db,
    config,
    events,
    clock,
    async rest<Body>(method: string, path: string, options: RestOptions = {}) {
      const url = new URL(`/v1${path}`, baseUrl);
      for (const [name, value] of Object.entries(options.query ?? {})) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
      }
      const headers = new Headers();
      if (options.token) headers.set("authorization", `Bearer ${options.token}`);
      const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
      if (body !== undefined) headers.set("content-type", "application/json");
      const response = await app.fetch(new Request(url, { method, headers, body }));
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: (text ? JSON.parse(text) : undefined) as Body,
      };
    },
    async runJobs(jobsConfig = config) {
      Object.assign(jobConfig, jobsConfig, { jobPollIntervalSeconds: 600, jobRetryDelaySeconds: retryDelay });
      return (await startedEngine()).drain();
    },
    async startJobEngine() {
      const live = await startJobEngine({ db, clock, config, logger, events, observe: app.observeJob });
      closeAfterThisFile(() => live.stop());
      return live;
    },
    async runScheduledJobs() {
      const started = await startedEngine();
      await started.runScheduledNow();
      return started.drain();
    },
    graphql(token?: string) {
      return new GraphQLClient(`${baseUrl}/graphql`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        fetch: (input: RequestInfo | URL, init?: RequestInit) => app.fetch(new Request(input, init)),
      });
    },
  };
}

export interface SeededUser {
  id: string;
  email: string;
  token: string;
}

export interface SeededOrganization {
  organizationId: string;
  /** One member per role, keyed by role, plus `guest` (role null). */
  members: Record<Role | "guest", SeededUser>;
}

let seedCounter = 0;

export async function seedUser(db: Database, name: string): Promise<SeededUser> {
  seedCounter += 1;
  const email = `${name}-${seedCounter}-${newId("User").slice(-6).toLowerCase()}@seed.test`;
  const user = await createUser(db.prisma, { email, displayName: `${name} ${seedCounter}` });
  const { token } = await createApiToken(db.prisma, user.id);
  return { id: user.id, email, token };
}

/** An organization with one member of every role, each with a token. */
export async function seedOrganization(db: Database, title = "Seeded Organization"): Promise<SeededOrganization> {
  const organization = await insertOrganization(db.prisma, { title, emailDomains: ["seed.test"] }, new Date());
  const members = {} as Record<Role | "guest", SeededUser>;
  for (const role of [...roleOrder].reverse()) {
    members[role] = await seedUser(db, role);
    await addMember(db.prisma, organization.id, members[role].id, role, new Date());
  }
  members.guest = await seedUser(db, "guest");
  await addMember(db.prisma, organization.id, members.guest.id, null, new Date());
  return { organizationId: organization.id, members };
}

/** Serves the app on a real port of 127.0.0.1 for clients that make their own HTTP requests. */
export async function listen(app: App): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(createServerAdapter<ServerContext>(app.fetch));
  app.serveWebSockets(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      app.closeWebSockets();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
