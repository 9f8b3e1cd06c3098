import { type DestinationStream, pino } from "pino";
import { isoTimestamp } from "../lib/iso-timestamp.ts";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

/** The line logged for every answered request: fixed fields, none of them a credential. */
interface RequestLine {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** With tracing on: the request's trace id, to find its trace from the log. */
  traceId?: string;
}

export interface Logger {
  /** Logs `request` at info level with exactly these fields. */
  request(line: RequestLine): void;
  /** The same line at debug level: health probes and metrics scrapes, which come every few seconds. */
  probe(line: RequestLine): void;
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The process's logger: `flush` writes out the lines still buffered (on shutdown). */
export interface RootLogger extends Logger {
  flush(): Promise<void>;
}

/**
 * Whatever a log call passes by mistake, credentials never reach the log: a backstop, the call sites log no headers.
 * pino's paths name keys of the fields object (and of objects nested one level down).
 */
const redactedPaths = [
  "authorization",
  "headers.authorization",
  "*.authorization",
  "*.headers.authorization",
  "cookie",
  "headers.cookie",
  "*.headers.cookie",
];

/**
 * One JSON object per line (`level`, `time`, the fields, then `message`), so log collectors need no parsing rules.
 * pino writes to stdout through an asynchronous buffer (SonicBoom): a request never waits for the terminal or the
 * pipe. Lines are written out in chunks of `bufferedBytes`, or `flushMilliseconds` after the first line still held:
 * one write per request line cost about a tenth of a small read's CPU. `write` replaces stdout (tests collect the
 * lines) and is called synchronously.
 */
const bufferedBytes = 4096;
const flushMilliseconds = 200;

/** stdout, written in chunks; the lines held are flushed by a timer that never keeps the process alive. */
function bufferedStdout(): DestinationStream & { flush(done: (error?: Error) => void): void } {
  const stdout = pino.destination({ dest: 1, sync: false, minLength: bufferedBytes });
  let flushScheduled = false;
  return {
    write(line) {
      stdout.write(line);
      if (flushScheduled) return;
      flushScheduled = true;
      setTimeout(() => {
        flushScheduled = false;
        stdout.flush();
      }, flushMilliseconds).unref();
    },
    flush: (done) => stdout.flush(done),
  };
}

export function createLogger(level: LogLevel, write?: (line: string) => void): RootLogger {
  const destination: DestinationStream = write ? { write } : bufferedStdout();
  const options = {
    level,
    base: undefined,
    messageKey: "message",
    // pino's isoTime, without the C++ toISOString it calls (src/lib/iso-timestamp.ts): one per request line.
    timestamp: () => `,"time":"${isoTimestamp(new Date())}"`,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  const logger = pino({ ...options, redact: { paths: redactedPaths, censor: "[redacted]" } }, destination);
  // The request line's fields are fixed and hold no credential: it skips the redaction walk, ~2% of a small read.
  const requestLogger = pino(options, destination);
  return {
    request: (line) => requestLogger.info(line, "request"),
    probe: (line) => requestLogger.debug(line, "request"),
    debug: (message, fields) => logger.debug(fields ?? {}, message),
    info: (message, fields) => logger.info(fields ?? {}, message),
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    error: (message, fields) => logger.error(fields ?? {}, message),
    flush: () => new Promise<void>((resolve) => logger.flush(() => resolve())),
  };
}

/** Error details for the log only: message and stack, never shown to callers. */
export function describeError(error: unknown): Record<string, unknown> {
  return error instanceof Error ? { error: error.message, stack: error.stack } : { error: String(error) };
}
