import type { MessagePort } from "node:worker_threads";
import { InvalidInputError } from "../lib/errors.ts";
import { markdownExpressions, markdownLinkUrls, markdownSections } from "../modules/content/markdown/text.ts";
import { markdownToDocument } from "../modules/content/markdown/to-document.ts";
import { type PdfInput, renderPdf } from "../modules/content/pdf.ts";
import type { WorkerAnswer } from "./pool.ts";

/*
 * The worker threads' entry (src/workers/pool.ts): one function runs every kind of job. Bundled on its own as
 * dist/heavy-work.worker.js (scripts/build.mjs).
 */

/** A job as the pool sends it: which work, on what. */
interface Job {
  task: keyof typeof tasks;
  input: never;
  /** Told when the job starts: its time budget counts from there. */
  started: MessagePort;
}

/** A converted text and the size of its JSON, what the conversion cache counts. */
export interface Sized<T> {
  value: T;
  bytes: number;
}

function sized<T>(value: T): Sized<T> {
  return { value, bytes: JSON.stringify(value).length };
}

const tasks = {
  document: (markdown: string) => sized(markdownToDocument(markdown)),
  sections: (markdown: string) => sized(markdownSections(markdown)),
  expressions: (markdown: string) => sized(markdownExpressions(markdown)),
  links: (markdown: string) => sized(markdownLinkUrls(markdown)),
  pdf: (input: PdfInput) => renderPdf(input),
};

export default async function run(job: Job): Promise<WorkerAnswer<unknown>> {
  job.started.postMessage("started");
  job.started.close();
  try {
    return { ok: true, value: await tasks[job.task](job.input) };
  } catch (error) {
    // A client error crosses the thread boundary as a message: the caller raises it as its own class.
    if (error instanceof InvalidInputError) return { ok: false, refused: error.message };
    throw error;
  }
}
