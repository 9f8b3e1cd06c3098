import { resolve } from "node:path";
import { z } from "zod";

const configSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(4000),
  host: z.string().min(1).default("0.0.0.0"),
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
    .optional(),
  dataDir: z.string().min(1).default(".data"),
  bootstrapAdminToken: z.string().min(16, "must be at least 16 characters").optional(),
  publicUrl: z.string().url().optional(),
  logLevel: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  environment: z.enum(["development", "production", "test"]).default("development"),
  runJobs: z
    .enum(["true", "false"], { message: "must be true or false" })
    .default("true")
    .transform((value) => value === "true"),
});

export type Config = z.infer<typeof configSchema> & {
  /** Base URL used in `urls` fields and printed at start-up. */
  publicUrl: string;
};

export class ConfigError extends Error {}

/** Reads every setting from the environment once, and explains every bad value at the same time. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse({
    port: env.PORT || undefined,
    host: env.HOST || undefined,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || undefined,
    bootstrapAdminToken: env.BOOTSTRAP_ADMIN_TOKEN || undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    logLevel: env.LOG_LEVEL || undefined,
    environment: env.NODE_ENV || undefined,
    runJobs: env.RUN_JOBS || undefined,
  });
  if (!parsed.success) {
    const names: Record<string, string> = {
      port: "PORT",
      host: "HOST",
      databaseUrl: "DATABASE_URL",
      dataDir: "DATA_DIR",
      bootstrapAdminToken: "BOOTSTRAP_ADMIN_TOKEN",
      publicUrl: "PUBLIC_URL",
      logLevel: "LOG_LEVEL",
      environment: "NODE_ENV",
      runJobs: "RUN_JOBS",
    };
    const lines = parsed.error.issues.map(
      (issue) => `  ${names[String(issue.path[0])] ?? issue.path.join(".")}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const config = parsed.data;
  return {
    ...config,
    dataDir: resolve(config.dataDir),
    publicUrl: (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/$/, ""),
  };
}
