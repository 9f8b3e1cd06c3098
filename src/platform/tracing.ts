import type { Plugin } from "graphql-yoga";
import type { SpanAttributes, Tracing, TracingSettings } from "./open-telemetry.ts";

// What the app calls to trace, whether tracing is on or not. With OTEL_EXPORTER_OTLP_ENDPOINT unset nothing of
// OpenTelemetry's SDK is loaded (its packages are imported by ./open-telemetry.ts, itself imported only by
// `startTracing`), and each helper here is one check of `active`.

let active: Tracing | undefined;

/**
 * Starts OpenTelemetry: before the database driver and the HTTP server are used, so that their instrumentations
 * see them. Called once, by main.ts when OTEL_EXPORTER_OTLP_ENDPOINT is set (and by the tracing tests).
 */
export async function startTracing(settings: TracingSettings): Promise<Tracing> {
  const { startOpenTelemetry } = await import("./open-telemetry.ts");
  active = await startOpenTelemetry(settings);
  return active;
}

export async function stopTracing(): Promise<void> {
  await active?.shutdown();
  active = undefined;
}

export const tracingActive = (): boolean => active !== undefined;

/**
 * Runs `run` in a span named `name`, child of the span in progress, linked to the span `linkedTo` names (a W3C
 * `traceparent`, from `currentTraceparent`); just runs it when tracing is off.
 */
export function withSpan<T>(
  name: string,
  run: () => Promise<T>,
  attributes?: SpanAttributes,
  linkedTo?: string,
): Promise<T> {
  return active ? active.withSpan(name, run, attributes, linkedTo) : run();
}

/** The W3C `traceparent` of the span in progress (a request queueing a job); undefined when none or tracing is off. */
export function currentTraceparent(): string | undefined {
  return active?.traceparent();
}

/** A SQL statement sent to a driver no instrumentation covers (PGlite), as a span. */
export function traceStatement<T>(text: string, run: () => Promise<T>): Promise<T> {
  return active ? active.traceStatement(text, run) : run();
}

/**
 * Names the request's HTTP span after its route (REST) or operation (GraphQL) once they are known, and returns its
 * trace id for the request's log line; undefined when tracing is off.
 */
export function requestTraceId(method: string, route: string, operation: string): string | undefined {
  return active?.requestTraceId(method, route, operation);
}

/** The yoga plugins tracing adds: none when it is off. */
export function tracingPlugins(): Plugin[] {
  return active ? [active.graphqlPlugin] : [];
}
