// Compiles the server ahead of time: src/app/main.ts and everything it imports from src/ into one ES module,
// dist/main.js, and the worker threads' entry (src/app/heavy-work.worker.ts) into dist/heavy-work.worker.js
// beside it, where the pool (src/workers/pool.ts, bundled in main.js) looks for it. main.js is what `npm start` runs
// with plain node (no TypeScript loader in the serving process: it cost ~150 MB of RSS and seconds of start-up).
// The operator CLI (src/app/cli.ts) becomes dist/cli.js, so `npm run cli` works on a production install too.
// The packages these import statically are bundled too: Node resolved, read and compiled ~950 files of node_modules
// one by one at every start, about half of the start-up time. Left in node_modules, imported from there at run time:
// Prisma's (its runtime finds its WebAssembly next to its code) and every package `src/` imports with a dynamic
// `import()` (PGlite, pg, PDFKit, SAML, YAML, ...), which stay loaded only by the requests that need them. `--if-stale` (npm's prestart) rebuilds only when a file or folder under src/,
// this script, package.json or package-lock.json is newer than the bundle.
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = join(root, "dist");
const outfiles = ["main.js", "heavy-work.worker.js", "cli.js"].map((file) => join(outdir, file));

/** The newest modification time among `path` and, for a folder, everything below it (a folder's own time moves when an entry is added, removed or renamed). */
function newestChange(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

const inputs = [
  join(root, "src"),
  // The SDK's registered documents, which the server trusts (src/graphql/trusted-documents.ts).
  join(root, "packages", "sdk", "src", "persisted-documents.json"),
  join(root, "package.json"),
  join(root, "package-lock.json"),
  fileURLToPath(import.meta.url),
];

/**
 * Packages imported with `import()` stay external, so they stay lazy; pg goes with @prisma/adapter-pg, which needs
 * the one copy; piscina starts its threads from its own worker.js next to its code.
 */
const lazyPackagesExternal = {
  name: "lazy-packages-external",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === "dynamic-import" || /^(@prisma\/|pg$|pg-|piscina$)/.test(args.path)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};
/**
 * Every import of graphql, `require("graphql/execution/execute.js")` of CommonJS packages included, gets its ES
 * module build: one copy of graphql in the bundle, and ES modules importing it bind its exports directly. From its
 * CommonJS build, each of the ~45 bundled modules importing graphql held its own copy of graphql's ~200 exports as
 * getter closures (esbuild's interop), ~9000 closures and ~1.5 MB of heap for the life of the process.
 */
const graphqlDirectory = dirname(createRequire(join(root, "package.json")).resolve("graphql/package.json"));
const graphqlAsModule = {
  name: "graphql-as-module",
  setup(build) {
    build.onResolve({ filter: /^graphql(\/.*)?$/ }, (args) => {
      const subpath = args.path.slice("graphql/".length).replace(/\.js$/, "");
      return { path: join(graphqlDirectory, `${subpath || "index"}.mjs`) };
    });
  },
};
if (process.argv.includes("--if-stale") && outfiles.every((file) => existsSync(file))) {
  const built = Math.min(...outfiles.map((file) => statSync(file).mtimeMs));
  if (Math.max(...inputs.map(newestChange)) <= built) process.exit(0);
}

await build({
  entryPoints: {
    main: join(root, "src", "main.ts"),
    "heavy-work.worker": join(root, "src", "workers", "heavy-work.worker.ts"),
    cli: join(root, "src", "cli.ts"),
  },
  outdir,
  bundle: true,
  plugins: [graphqlAsModule, lazyPackagesExternal],
  platform: "node",
  // Packages' ES module builds where they have one (the graphql-armor plugins), for the same reason.
  mainFields: ["module", "main"],
  format: "esm",
  target: "node20.19",
  // Bundled CommonJS packages call require(): an ES module has none of its own.
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
  },
  // Stack traces of the bundle map back to src/ with `node --enable-source-maps` (CONTRIBUTING.md, "Run it").
  sourcemap: "linked",
  minifyWhitespace: true,
  legalComments: "none",
  logLevel: "warning",
});
