import type { Config } from "./config.ts";

/** What this instance does, as its start-up banner and `/readyz` say: every instance serves; jobs and tracing vary. */
export interface InstanceRole {
  serves: true;
  /** RUN_JOBS: whether it claims and runs background jobs. */
  runsJobs: boolean;
  /** Whether it exports spans (OTEL_EXPORTER_OTLP_ENDPOINT set). */
  tracing: boolean;
}

export function instanceRole(config: Pick<Config, "runJobs" | "otelExporterOtlpEndpoint">): InstanceRole {
  return { serves: true, runsJobs: config.runJobs, tracing: config.otelExporterOtlpEndpoint !== undefined };
}

/** The banner's line: `serves requests and runs jobs; tracing off`. */
export function describeInstanceRole(role: InstanceRole, config: Pick<Config, "otelExporterOtlpEndpoint">): string {
  const jobs = role.runsJobs ? "serves requests and runs jobs" : "serves requests, runs no jobs (RUN_JOBS=false)";
  const tracing = role.tracing ? `tracing to ${config.otelExporterOtlpEndpoint}` : "tracing off";
  return `${jobs}; ${tracing}`;
}
