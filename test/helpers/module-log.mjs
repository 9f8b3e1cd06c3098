// Preloaded into a server process (`NODE_OPTIONS=--import=<this file>`, with MODULE_LOG naming a file): every
// module the process imports is written to MODULE_LOG, one URL a line, by a resolve hook on Node's module loader.
// Packages the bundle leaves in node_modules (scripts/build.mjs) are reached through import(), which it sees.
import { register } from "node:module";

const hook = `
import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.MODULE_LOG, resolved.url + "\\n");
  return resolved;
}`;
if (process.env.MODULE_LOG) register(`data:text/javascript,${encodeURIComponent(hook)}`);
