import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import { resolveSecretsKey, secretsKeyPattern } from "./secrets.ts";

/** A comma-separated list of host names an operator opened to outbound requests (lower case). */
const hostList = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
  );

/** A comma-separated list of exact browser origins (`https://app.example.com`: scheme, host, port; no path). */
const originList = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z
        .string()
        .refine((origin) => /^https?:\/\//.test(origin) && URL.canParse(origin) && new URL(origin).origin === origin, {
          error: (issue) => `${JSON.stringify(issue.input)} is not an origin like https://app.example.com (no path)`,
        }),
    ),
  );

/** A size in bytes: a whole number, at least `minimum`. */
const byteSize = (minimum: number, fallback: number) => z.coerce.number().int().min(minimum).default(fallback);

const configSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(4000),
  host: z.string().min(1).default("0.0.0.0"),
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  databaseReplicaUrls: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((url) => url.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^postgres(ql)?:\/\//, "must list postgres:// or postgresql:// URLs"))),
  databaseReplicaMaxLagSeconds: z.coerce.number().min(0.1).max(3600).default(10),
  dataDir: z.string().min(1).default(".data"),
  bootstrapAdminToken: z.string().min(16, "must be at least 16 characters").optional(),
  publicUrl: z.string().url().optional(),
  logLevel: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  environment: z.enum(["development", "production", "test"]).default("development"),
  translationProvider: z.enum(["pseudo", "libretranslate", "openai"]).default("pseudo"),
  translationApiUrl: z.string().url().optional(),
  translationApiKey: z.string().min(1).optional(),
  translationModel: z.string().min(1).default("gpt-4o-mini"),
  openapiFetchAllowHosts: hostList,
  openapiFetchTimeoutMs: z.coerce.number().int().min(100).max(300_000).default(10_000),
  openapiFetchConnectTimeoutMs: z.coerce.number().int().min(100).max(60_000).default(5_000),
  openapiFetchMaxBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(10 * 1024 * 1024),
  // Cost points per window (src/http/rate-limit.ts): a cheap request costs 1, as when the window counted requests.
  rateLimitUser: z.coerce.number().int().min(0).default(5000),
  rateLimitAnonymous: z.coerce.number().int().min(0).default(120),
  rateLimitWindowSeconds: z.coerce.number().int().min(1).max(3600).default(60),
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  maxBodyBytes: byteSize(1024, 1024 * 1024),
  maxConversionBytes: byteSize(1024, 512 * 1024),
  maxAnswerNodes: z.coerce.number().int().min(1).default(1_000_000),
  maxSubscriptionsPerUser: z.coerce.number().int().min(1).default(20),
  maxWebSocketsPerAddress: z.coerce.number().int().min(1).default(50),
  maxApiTokensPerUser: z.coerce.number().int().min(1).default(50),
  searchCandidates: z.coerce.number().int().min(1).max(100_000).default(1000),
  shedMaxInFlight: z.coerce.number().int().min(0).default(32),
  shedMaxInFlightPerCaller: z.coerce.number().int().min(0).default(2),
  shedCallerWaitMs: z.coerce.number().int().min(0).max(60_000).default(30_000),
  shedEventLoopDelayMs: z.coerce.number().int().min(0).max(60_000).default(200),
  trustProxyHops: z.coerce.number().int().min(0).max(10).default(0),
  conversionThreads: z.coerce.number().int().min(1).max(64).default(1),
  conversionQueue: z.coerce.number().int().min(0).default(64),
  conversionTimeoutMs: z.coerce.number().int().min(10).max(600_000).default(10_000),
  conversionCacheBytes: byteSize(0, 32 * 1024 * 1024),
  pdfThreads: z.coerce.number().int().min(1).max(64).default(1),
  pdfQueue: z.coerce.number().int().min(0).default(4),
  pdfTimeoutMs: z.coerce.number().int().min(10).max(600_000).default(30_000),
  pdfCacheBytes: byteSize(0, 64 * 1024 * 1024),
  maxConvertedBytes: byteSize(1024, 8 * 1024 * 1024),
  workerMemoryMb: z.coerce.number().int().min(16).max(65_536).default(512),
  jobWorkTimeoutMs: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
  specMaxExpandedBytes: byteSize(1024, 64 * 1024 * 1024),
  graphqlCacheBytes: byteSize(0, 8 * 1024 * 1024),
  graphqlCacheMaxDocumentBytes: byteSize(0, 100 * 1024),
  secretsKey: z.string().regex(secretsKeyPattern, "must be 64 hex characters (32 bytes)").optional(),
  runJobs: z
    .enum(["true", "false"], { message: "must be true or false" })
    .default("true")
    .transform((value) => value === "true"),
  jobConcurrency: z.coerce.number().int().min(1).max(64).default(4),
  jobConcurrencyPerOrganization: z.coerce.number().int().min(1).max(64).default(2),
  jobTimeoutSeconds: z.coerce.number().int().min(1).max(86_400).default(300),
  jobRetryDelaySeconds: z.coerce.number().int().min(0).max(3600).default(30),
  jobPollIntervalSeconds: z.coerce.number().min(0.5).max(600).default(2),
  gitFileUrls: z
    .enum(["true", "false"], { message: "must be true or false" })
    .default("false")
    .transform((value) => value === "true"),
  gitAllowHosts: hostList,
  corsOrigins: originList,
  trustedDocumentsOnly: z
    .enum(["true", "false"], { message: "must be true or false" })
    .default("false")
    .transform((value) => value === "true"),
  trustedDocumentsFiles: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((path) => path.trim())
        .filter(Boolean),
    ),
  otelExporterOtlpEndpoint: z.string().url().optional(),
  otelServiceName: z.string().min(1).default("docs-management-gateway"),
});

export type Config = Omit<z.infer<typeof configSchema>, "secretsKey"> & {
  /** Base URL used in `urls` fields and printed at start-up. */
  publicUrl: string;
  /** Encrypts secrets at rest (share-link keys). */
  secretsKey: Buffer;
};

export class ConfigError extends Error {}

/**
 * Reads `.env` of the working directory into the environment when there is one, with Node's own loader, as compose
 * reads it: a variable the environment already sets keeps its value.
 */
export function loadEnvFile(path = ".env"): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

/** Reads every setting from the environment once, and explains every bad value at the same time. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse({
    port: env.PORT || undefined,
    host: env.HOST || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReplicaUrls: env.DATABASE_REPLICA_URL || undefined,
    databaseReplicaMaxLagSeconds: env.DATABASE_REPLICA_MAX_LAG_SECONDS || undefined,
    dataDir: env.DATA_DIR || undefined,
    bootstrapAdminToken: env.BOOTSTRAP_ADMIN_TOKEN || undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    logLevel: env.LOG_LEVEL || undefined,
    environment: env.NODE_ENV || undefined,
    translationProvider: env.TRANSLATION_PROVIDER || undefined,
    translationApiUrl: env.TRANSLATION_API_URL || undefined,
    translationApiKey: env.TRANSLATION_API_KEY || undefined,
    translationModel: env.TRANSLATION_MODEL || undefined,
    openapiFetchAllowHosts: env.OPENAPI_FETCH_ALLOW_HOSTS || undefined,
    openapiFetchTimeoutMs: env.OPENAPI_FETCH_TIMEOUT_MS || undefined,
    openapiFetchConnectTimeoutMs: env.OPENAPI_FETCH_CONNECT_TIMEOUT_MS || undefined,
    openapiFetchMaxBytes: env.OPENAPI_FETCH_MAX_BYTES || undefined,
    // RATE_LIMIT_TOKEN and MAX_SUBSCRIPTIONS_PER_TOKEN are the deprecated names (they counted per token).
    rateLimitUser: env.RATE_LIMIT_USER || env.RATE_LIMIT_TOKEN || undefined,
    rateLimitAnonymous: env.RATE_LIMIT_ANONYMOUS || undefined,
    rateLimitWindowSeconds: env.RATE_LIMIT_WINDOW_SECONDS || undefined,
    redisUrl: env.REDIS_URL || undefined,
    maxBodyBytes: env.MAX_BODY_BYTES || undefined,
    maxConversionBytes: env.MAX_CONVERSION_BYTES || undefined,
    maxAnswerNodes: env.MAX_ANSWER_NODES || undefined,
    maxSubscriptionsPerUser: env.MAX_SUBSCRIPTIONS_PER_USER || env.MAX_SUBSCRIPTIONS_PER_TOKEN || undefined,
    maxWebSocketsPerAddress: env.MAX_WEBSOCKETS_PER_ADDRESS || undefined,
    maxApiTokensPerUser: env.MAX_API_TOKENS_PER_USER || undefined,
    searchCandidates: env.SEARCH_CANDIDATES || undefined,
    shedMaxInFlight: env.SHED_MAX_IN_FLIGHT || undefined,
    shedMaxInFlightPerCaller: env.SHED_MAX_IN_FLIGHT_PER_CALLER || undefined,
    shedCallerWaitMs: env.SHED_CALLER_WAIT_MS || undefined,
    shedEventLoopDelayMs: env.SHED_EVENT_LOOP_DELAY_MS || undefined,
    trustProxyHops: env.TRUST_PROXY_HOPS || undefined,
    conversionThreads: env.CONVERSION_THREADS || undefined,
    conversionQueue: env.CONVERSION_QUEUE || undefined,
    conversionTimeoutMs: env.CONVERSION_TIMEOUT_MS || undefined,
    conversionCacheBytes: env.CONVERSION_CACHE_BYTES || undefined,
    pdfThreads: env.PDF_THREADS || undefined,
    pdfQueue: env.PDF_QUEUE || undefined,
    pdfTimeoutMs: env.PDF_TIMEOUT_MS || undefined,
    pdfCacheBytes: env.PDF_CACHE_BYTES || undefined,
    maxConvertedBytes: env.MAX_CONVERTED_BYTES || undefined,
    workerMemoryMb: env.WORKER_MEMORY_MB || undefined,
    jobWorkTimeoutMs: env.JOB_WORK_TIMEOUT_MS || undefined,
    specMaxExpandedBytes: env.SPEC_MAX_EXPANDED_BYTES || undefined,
    graphqlCacheBytes: env.GRAPHQL_CACHE_BYTES || undefined,
    graphqlCacheMaxDocumentBytes: env.GRAPHQL_CACHE_MAX_DOCUMENT_BYTES || undefined,
    secretsKey: env.SECRETS_KEY || undefined,
    runJobs: env.RUN_JOBS || undefined,
    jobConcurrency: env.JOB_CONCURRENCY || undefined,
    jobConcurrencyPerOrganization: env.JOB_CONCURRENCY_PER_ORGANIZATION || undefined,
    jobTimeoutSeconds: env.JOB_TIMEOUT_SECONDS || undefined,
    jobRetryDelaySeconds: env.JOB_RETRY_DELAY_SECONDS || undefined,
    jobPollIntervalSeconds: env.JOB_POLL_INTERVAL_SECONDS || undefined,
    gitFileUrls: env.GIT_FILE_URLS || undefined,
    gitAllowHosts: env.GIT_ALLOW_HOSTS || undefined,
    corsOrigins: env.CORS_ORIGINS || undefined,
    trustedDocumentsOnly: env.TRUSTED_DOCUMENTS_ONLY || undefined,
    trustedDocumentsFiles: env.TRUSTED_DOCUMENTS_FILES || undefined,
    otelExporterOtlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    otelServiceName: env.OTEL_SERVICE_NAME || undefined,
  });
  if (!parsed.success) {
    const names: Record<string, string> = {
      port: "PORT",
      host: "HOST",
      databaseUrl: "DATABASE_URL",
      databaseReplicaUrls: "DATABASE_REPLICA_URL",
      databaseReplicaMaxLagSeconds: "DATABASE_REPLICA_MAX_LAG_SECONDS",
      dataDir: "DATA_DIR",
      bootstrapAdminToken: "BOOTSTRAP_ADMIN_TOKEN",
      publicUrl: "PUBLIC_URL",
      logLevel: "LOG_LEVEL",
      environment: "NODE_ENV",
      translationProvider: "TRANSLATION_PROVIDER",
      translationApiUrl: "TRANSLATION_API_URL",
      translationApiKey: "TRANSLATION_API_KEY",
      translationModel: "TRANSLATION_MODEL",
      openapiFetchAllowHosts: "OPENAPI_FETCH_ALLOW_HOSTS",
      openapiFetchTimeoutMs: "OPENAPI_FETCH_TIMEOUT_MS",
      openapiFetchConnectTimeoutMs: "OPENAPI_FETCH_CONNECT_TIMEOUT_MS",
      openapiFetchMaxBytes: "OPENAPI_FETCH_MAX_BYTES",
      rateLimitUser: env.RATE_LIMIT_USER ? "RATE_LIMIT_USER" : "RATE_LIMIT_TOKEN",
      rateLimitAnonymous: "RATE_LIMIT_ANONYMOUS",
      rateLimitWindowSeconds: "RATE_LIMIT_WINDOW_SECONDS",
      redisUrl: "REDIS_URL",
      maxBodyBytes: "MAX_BODY_BYTES",
      maxConversionBytes: "MAX_CONVERSION_BYTES",
      maxAnswerNodes: "MAX_ANSWER_NODES",
      maxSubscriptionsPerUser: env.MAX_SUBSCRIPTIONS_PER_USER
        ? "MAX_SUBSCRIPTIONS_PER_USER"
        : "MAX_SUBSCRIPTIONS_PER_TOKEN",
      maxApiTokensPerUser: "MAX_API_TOKENS_PER_USER",
      searchCandidates: "SEARCH_CANDIDATES",
      shedMaxInFlight: "SHED_MAX_IN_FLIGHT",
      shedMaxInFlightPerCaller: "SHED_MAX_IN_FLIGHT_PER_CALLER",
      shedCallerWaitMs: "SHED_CALLER_WAIT_MS",
      shedEventLoopDelayMs: "SHED_EVENT_LOOP_DELAY_MS",
      trustProxyHops: "TRUST_PROXY_HOPS",
      conversionThreads: "CONVERSION_THREADS",
      conversionQueue: "CONVERSION_QUEUE",
      conversionTimeoutMs: "CONVERSION_TIMEOUT_MS",
      conversionCacheBytes: "CONVERSION_CACHE_BYTES",
      pdfThreads: "PDF_THREADS",
      pdfQueue: "PDF_QUEUE",
      pdfTimeoutMs: "PDF_TIMEOUT_MS",
      pdfCacheBytes: "PDF_CACHE_BYTES",
      maxConvertedBytes: "MAX_CONVERTED_BYTES",
      workerMemoryMb: "WORKER_MEMORY_MB",
      jobWorkTimeoutMs: "JOB_WORK_TIMEOUT_MS",
      specMaxExpandedBytes: "SPEC_MAX_EXPANDED_BYTES",
      graphqlCacheBytes: "GRAPHQL_CACHE_BYTES",
      graphqlCacheMaxDocumentBytes: "GRAPHQL_CACHE_MAX_DOCUMENT_BYTES",
      secretsKey: "SECRETS_KEY",
      runJobs: "RUN_JOBS",
      jobConcurrency: "JOB_CONCURRENCY",
      jobConcurrencyPerOrganization: "JOB_CONCURRENCY_PER_ORGANIZATION",
      jobTimeoutSeconds: "JOB_TIMEOUT_SECONDS",
      jobRetryDelaySeconds: "JOB_RETRY_DELAY_SECONDS",
      jobPollIntervalSeconds: "JOB_POLL_INTERVAL_SECONDS",
      gitFileUrls: "GIT_FILE_URLS",
      gitAllowHosts: "GIT_ALLOW_HOSTS",
      corsOrigins: "CORS_ORIGINS",
      trustedDocumentsOnly: "TRUSTED_DOCUMENTS_ONLY",
      trustedDocumentsFiles: "TRUSTED_DOCUMENTS_FILES",
      otelExporterOtlpEndpoint: "OTEL_EXPORTER_OTLP_ENDPOINT",
      otelServiceName: "OTEL_SERVICE_NAME",
    };
    const lines = parsed.error.issues.map(
      (issue) => `  ${names[String(issue.path[0])] ?? issue.path.join(".")}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const config = parsed.data;
  if (config.translationProvider !== "pseudo" && !config.translationApiUrl) {
    throw new ConfigError(
      `Invalid configuration:\n  TRANSLATION_API_URL: required with TRANSLATION_PROVIDER=${config.translationProvider}`,
    );
  }
  // Replicas follow a PostgreSQL primary by streaming replication; the embedded PGlite has none to follow.
  if (config.databaseReplicaUrls.length > 0 && !config.databaseUrl) {
    throw new ConfigError(
      "Invalid configuration:\n  DATABASE_REPLICA_URL: read replicas need DATABASE_URL (PostgreSQL); the embedded PGlite has no replicas, unset it",
    );
  }
  // Each instance would otherwise make a key of its own, and fail to read what the others encrypted.
  if (config.databaseUrl && !config.secretsKey) {
    throw new ConfigError(
      "SECRETS_KEY is required with DATABASE_URL: every instance and the CLI must share one key; set it to 64 hex characters (openssl rand -hex 32)",
    );
  }
  const dataDir = resolve(config.dataDir);
  return {
    ...config,
    dataDir,
    secretsKey: resolveSecretsKey(config.secretsKey, dataDir),
    publicUrl: (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/$/, ""),
  };
}
