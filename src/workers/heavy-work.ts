import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { DomainError, InvalidInputError } from "../lib/errors.ts";
import type { Document } from "../lib/markdown/document.ts";
import { ConvertedTooLargeError, checkConvertedBytes } from "../lib/markdown/output-bound.ts";
import {
  type ExpressionOccurrence,
  type MarkdownSection,
  markdownExpressions,
  markdownLinkUrls,
  markdownSections,
} from "../lib/markdown/text.ts";
import { markdownToDocument } from "../lib/markdown/to-document.ts";
import { type PdfInput, renderPdf } from "../lib/pdf.ts";
import {
  createWorkerPool,
  PoolSaturatedError,
  type Sized,
  type WorkerAnswer,
  WorkOutOfMemoryError,
  WorkTimeoutError,
} from "./pool.ts";

/*
 * Work that would hold the event loop: markdown conversions of stored content (documents, search sections, the
 * expressions of evaluated markdown) and PDF rendering. Conversions are cached by the text's SHA-256 (bounded by
 * the bytes of their results), so a text is converted once whoever reads it; texts above `inlineBytes` convert on
 * a worker thread, within a time budget, and so do all PDFs (cached by what they show, bounded by bytes). What a
 * text converts to is bounded in bytes (`maxConvertedBytes`; by default what one cache entry may take): a text
 * past it is refused, and that refusal is remembered, so no text is converted again on each read.
 */

/** Content whose conversion takes more than its time budget (422): the same content would again. */
class ContentTooComplexError extends DomainError {
  readonly code = "CONTENT_TOO_COMPLEX";
}

/** Every worker busy and the queue full (503): a later try may find room. */
export class WorkersBusyError extends DomainError {
  readonly code = "SERVICE_UNAVAILABLE";
  constructor(
    message: string,
    override readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
  get headers(): Record<string, string> {
    return { "Retry-After": String(this.retryAfterSeconds) };
  }
}

export interface Conversions {
  document: Document;
  sections: MarkdownSection[];
  expressions: ExpressionOccurrence[];
  /** The URLs a page links to, extracted when it is written (src/modules/content/link-extraction.ts). */
  links: string[];
}
export type ConversionKind = keyof Conversions;

const conversions: { [Kind in ConversionKind]: (markdown: string, maxBytes?: number) => Conversions[Kind] } = {
  document: markdownToDocument,
  sections: markdownSections,
  expressions: markdownExpressions,
  links: markdownLinkUrls,
};

/**
 * Texts up to this many bytes convert on the event loop: even the slowest syntax (nested lists) converts this much
 * in about a worker's round trip and result copy, while twice as much already held the loop several times longer
 * (docs/performance.md).
 */
const inlineConversionBytes = 1024;

/** A refusal is remembered this long: a timeout on a loaded machine is not forever. */
const refusalLifetimeMs = 10 * 60_000;

export interface HeavyWorkOptions {
  conversionThreads: number;
  conversionQueue: number;
  conversionTimeoutMs: number;
  conversionCacheBytes: number;
  pdfThreads: number;
  pdfQueue: number;
  pdfTimeoutMs: number;
  pdfCacheBytes: number;
  maxConvertedBytes: number;
  workerMemoryMb: number;
}

interface HeavyWorkStats {
  conversions: number;
  pdfs: number;
}

export interface HeavyWork {
  /**
   * Converts stored markdown; 400 when it is nested too deeply, 422 past the time budget, 503 when saturated.
   * `onConverted` hears the bytes when this call converts them (not when the cache or another call had them).
   */
  convert<Kind extends ConversionKind>(
    kind: Kind,
    markdown: string,
    onConverted?: (bytes: number) => void,
  ): Promise<Conversions[Kind]>;
  /** The PDF known by `key` (a key changes whenever what the PDF shows changes), rendered from `input` if new. */
  pdf(key: string, input: () => Promise<PdfInput>): Promise<Uint8Array>;
  /** The bytes each cache holds. */
  stats(): HeavyWorkStats;
  close(): Promise<void>;
}

/** A refusal `tooComplex` answers 422 (else 400); a `lasting` one is remembered until evicted, not for a while. */
type Outcome<T> = { value: T } | { refused: string; tooComplex: boolean; lasting?: boolean };

function settled<T>(outcome: Outcome<T>): T {
  if ("value" in outcome) return outcome.value;
  throw outcome.tooComplex ? new ContentTooComplexError(outcome.refused) : new InvalidInputError(outcome.refused);
}

const outcomeBytes = (outcome: Outcome<unknown>, valueBytes: number) => ("value" in outcome ? valueBytes : 256);

/** A cache of outcomes by key with one computation in flight per key. */
function outcomeCache<T>(maxBytes: number, sizeOf: (value: T) => number) {
  const cache = new LRUCache<string, Outcome<T>>({
    maxSize: maxBytes,
    // One entry may take a quarter of the budget: a single huge result does not empty the cache.
    maxEntrySize: Math.max(1, Math.floor(maxBytes / 4)),
    sizeCalculation: (outcome) => Math.max(1, outcomeBytes(outcome, "value" in outcome ? sizeOf(outcome.value) : 0)),
  });
  const inFlight = new Map<string, Promise<Outcome<T>>>();
  return {
    bytes: () => cache.calculatedSize,
    async get(key: string, compute: () => Promise<Outcome<T>>): Promise<T> {
      const cached = cache.get(key);
      if (cached) return settled(cached);
      let running = inFlight.get(key);
      if (!running) {
        running = compute().then((outcome) => {
          cache.set(key, outcome, "value" in outcome || outcome.lasting ? {} : { ttl: refusalLifetimeMs });
          return outcome;
        });
        inFlight.set(key, running);
        running.finally(() => inFlight.delete(key)).catch(() => undefined);
      }
      return settled(await running);
    },
  };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

export function createHeavyWork(options: HeavyWorkOptions, onError: (error: unknown) => void): HeavyWork {
  const conversionPool = createWorkerPool({
    threads: options.conversionThreads,
    queue: options.conversionQueue,
    timeoutMs: options.conversionTimeoutMs,
    memoryMb: options.workerMemoryMb,
    onError,
  });
  const pdfPool = createWorkerPool({
    threads: options.pdfThreads,
    queue: options.pdfQueue,
    timeoutMs: options.pdfTimeoutMs,
    memoryMb: options.workerMemoryMb,
    onError,
  });
  const { maxConvertedBytes } = options;
  const sizes = new WeakMap<object, number>();
  const converted = outcomeCache<unknown>(options.conversionCacheBytes, (value) =>
    typeof value === "object" && value !== null ? (sizes.get(value) ?? 1) : 1,
  );
  const pdfs = outcomeCache<Uint8Array>(options.pdfCacheBytes, (pdf) => pdf.byteLength);

  /** A worker's answer as an outcome; a timeout is the content's doing, a full pool is not remembered. */
  async function onWorker<T>(
    pool: ReturnType<typeof createWorkerPool>,
    task: string,
    input: unknown,
    timeoutMs: number,
    what: string,
  ): Promise<Outcome<T>> {
    let answer: WorkerAnswer<T>;
    try {
      answer = await pool.run<T>(task, input);
    } catch (error) {
      if (error instanceof WorkTimeoutError) {
        return { refused: `${what} takes more than the ${timeoutMs} ms allowed`, tooComplex: true };
      }
      if (error instanceof WorkOutOfMemoryError) {
        return { refused: `${what} needs more than the ${options.workerMemoryMb} MiB allowed`, tooComplex: true };
      }
      if (error instanceof PoolSaturatedError) {
        const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
        throw new WorkersBusyError(`The server is busy converting content; retry in ${seconds} s`, seconds);
      }
      throw error;
    }
    if (answer.ok) return { value: answer.value };
    return { refused: answer.refused, tooComplex: answer.tooLarge ?? false, lasting: answer.tooLarge ?? false };
  }

  async function convertNow(kind: ConversionKind, markdown: string): Promise<Outcome<unknown>> {
    if (Buffer.byteLength(markdown) <= inlineConversionBytes) {
      try {
        const value = conversions[kind](markdown, maxConvertedBytes);
        sizes.set(value, checkConvertedBytes(JSON.stringify(value).length, maxConvertedBytes));
        return { value };
      } catch (error) {
        if (error instanceof ConvertedTooLargeError) return { refused: error.message, tooComplex: true, lasting: true };
        if (error instanceof InvalidInputError) return { refused: error.message, tooComplex: false };
        throw error;
      }
    }
    const outcome = await onWorker<Sized<unknown>>(
      conversionPool,
      kind,
      { text: markdown, maxBytes: maxConvertedBytes },
      options.conversionTimeoutMs,
      "Converting this content (make it shorter or less nested)",
    );
    if (!("value" in outcome)) return outcome;
    const { value, bytes } = outcome.value;
    if (typeof value === "object" && value !== null) sizes.set(value, bytes);
    return { value };
  }

  return {
    convert: <Kind extends ConversionKind>(kind: Kind, markdown: string, onConverted?: (bytes: number) => void) =>
      converted.get(`${kind}:${sha256(markdown)}`, () => {
        onConverted?.(Buffer.byteLength(markdown));
        return convertNow(kind, markdown);
      }) as Promise<Conversions[Kind]>,
    pdf: (key, input) =>
      pdfs.get(key, async () =>
        onWorker<Uint8Array>(
          pdfPool,
          "pdf",
          await input(),
          options.pdfTimeoutMs,
          "Rendering this PDF (export fewer pages at a time)",
        ),
      ),
    stats: () => ({ conversions: converted.bytes(), pdfs: pdfs.bytes() }),
    close: async () => {
      await Promise.all([conversionPool.close(), pdfPool.close()]);
    },
  };
}

/** Work outside requests (jobs, the CLI): converted on the calling thread, nothing cached. */
export function inlineHeavyWork(): HeavyWork {
  return {
    convert: async (kind, markdown, onConverted) => {
      onConverted?.(Buffer.byteLength(markdown));
      return conversions[kind](markdown) as never;
    },
    pdf: async (_key, input) => renderPdf(await input()),
    stats: () => ({ conversions: 0, pdfs: 0 }),
    close: async () => undefined,
  };
}
