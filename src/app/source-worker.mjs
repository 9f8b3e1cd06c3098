// The worker threads' entry when the server runs from its TypeScript source (tsx, vitest): a worker gets none of
// its parent's loaders, so it loads heavy-work.worker.ts through tsx's API. The bundle has its own compiled entry.
import { tsImport } from "tsx/esm/api";

const worker = tsImport("./heavy-work.worker.ts", import.meta.url);

export default async (job) => (await worker).default(job);
