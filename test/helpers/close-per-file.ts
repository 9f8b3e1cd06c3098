import { afterAll } from "vitest";
import { closeWhatThisFileOpened } from "./opened-by-file.ts";

// A setup file runs for every test file, whether or not the files share a module graph: each file's apps and
// databases are closed after its own tests.
afterAll(closeWhatThisFileOpened);
