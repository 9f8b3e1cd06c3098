import type { MessagePort } from "node:worker_threads";
import { InvalidInputError } from "../lib/errors.ts";
import { ConvertedTooLargeError, checkConvertedBytes } from "../lib/markdown/output-bound.ts";
import { markdownExpressions, markdownLinkUrls, markdownSections } from "../lib/markdown/text.ts";
import { markdownToDocument } from "../lib/markdown/to-document.ts";
import type { PdfInput } from "../lib/pdf.ts";
import type { Sized, WorkerAnswer } from "../workers/pool.ts";

/*
 * The worker threads' entry (src/workers/pool.ts): one function runs every kind of job. Bundled on its own as
 * dist/heavy-work.worker.js (scripts/build.mjs). What only some jobs need (PDFs, specs, translations) is loaded on
 * a thread's first such job: a thread starts sooner, which counts from the TypeScript sources (tests).
 */

/** A job as the pool sends it: which work, on what. */
interface Job {
  task: keyof typeof tasks;
  input: never;
  /** Told when the job starts: its time budget counts from there. */
  started: MessagePort;
}

/** A text to convert, and the bound on the JSON of what it converts to. */
interface Conversion {
  text: string;
  maxBytes: number;
}

function sized<T>(value: T, maxBytes: number): Sized<T> {
  return { value, bytes: checkConvertedBytes(JSON.stringify(value).length, maxBytes) };
}

const tasks = {
  document: ({ text, maxBytes }: Conversion) => sized(markdownToDocument(text, maxBytes), maxBytes),
  sections: ({ text, maxBytes }: Conversion) => sized(markdownSections(text, maxBytes), maxBytes),
  expressions: ({ text, maxBytes }: Conversion) => sized(markdownExpressions(text), maxBytes),
  links: ({ text, maxBytes }: Conversion) => sized(markdownLinkUrls(text, maxBytes), maxBytes),
  pdf: async (input: PdfInput) => (await import("../lib/pdf.ts")).renderPdf(input),
  /** A spec's source parsed, its size once expanded bounded, dereferenced and validated (openapi-spec jobs). */
  "openapi-spec": async (input: { text: string; maxExpandedBytes: number }) =>
    (await import("../modules/openapi-spec/process.ts")).processOpenApiSource(input.text, input.maxExpandedBytes),
  /** The prose of each page's markdown (translation jobs). */
  "prose-segments": async ({ texts }: { texts: string[] }) => {
    const { proseSegments } = await import("../modules/translation/translate-markdown.ts");
    return texts.map((text) => proseSegments(text));
  },
  /** SUMMARY.md's page tree (Git imports). */
  "git-summary": async ({ markdown, summaryDir }: { markdown: string; summaryDir: string }) =>
    (await import("../modules/git-sync/summary.ts")).summaryEntries(markdown, summaryDir),
  /** What each page's markdown links to (jobs writing revisions: translations, Git imports). */
  "page-links": ({ texts, maxBytes }: { texts: string[]; maxBytes: number }) =>
    texts.map((text) => markdownLinkUrls(text, maxBytes)),
};

export default async function run(job: Job): Promise<WorkerAnswer<unknown>> {
  job.started.postMessage("started");
  job.started.close();
  try {
    return { ok: true, value: await tasks[job.task](job.input) };
  } catch (error) {
    // A client error crosses the thread boundary as a message: the caller raises it as its own class.
    if (error instanceof ConvertedTooLargeError) return { ok: false, refused: error.message, tooLarge: true };
    if (error instanceof InvalidInputError) return { ok: false, refused: error.message };
    throw error;
  }
}
