/** A module's door: the one file other code may import from it. */
const moduleDoor = "^src/modules/([^/]+)/\\1\\.public\\.ts$";

/**
 * The architecture, enforced by `npm run lint` (docs/architecture.md). Module cycles are checked by a second run,
 * .dependency-cruiser-modules.cjs, over src/modules/ alone (a rule on folders here sees cycles across all of src/).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "An import cycle ties modules together so none can be read, tested or moved alone.",
      from: { path: "^src/", pathNot: "^src/db/generated/" },
      to: { circular: true },
    },
    {
      name: "lib-is-pure",
      severity: "error",
      comment: "src/lib holds pure helpers: they import nothing of the app, only each other and packages.",
      from: { path: "^src/lib/" },
      to: { path: "^src/", pathNot: "^src/lib/" },
    },
    {
      name: "adapters-never-touch-prisma",
      severity: "error",
      comment:
        "Resolvers and REST routes only translate; services are the only callers of Prisma. Naming a row type " +
        "(import type { Site }) is allowed: it is the shape a service returns, not a way to reach the database.",
      from: { path: ["\\.graphql\\.ts$", "\\.rest\\.ts$", "^src/rest/"] },
      to: { path: ["^src/db/generated/", "@prisma/client"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "modules-enter-through-doors",
      severity: "error",
      comment:
        "A module uses another only through its door, src/modules/<m>/<m>.public.ts: what a module keeps behind it " +
        "can change without touching the others (docs/architecture.md).",
      from: { path: "^src/modules/([^/]+)/" },
      to: { path: "^src/modules/[^/]+/", pathNot: ["^src/modules/$1/", moduleDoor] },
    },
    {
      name: "app-enters-modules-through-doors",
      severity: "error",
      comment:
        "The rest of src/ uses a module through its door too. Exceptions: the schema assembly (src/app/schema.ts) names " +
        "each module's *.graphql.ts registration file, and the worker threads (src/workers/) run content's pure code.",
      from: { path: "^src/", pathNot: ["^src/modules/", "^src/workers/", "^src/schema\\.ts$"] },
      to: { path: "^src/modules/", pathNot: moduleDoor },
    },
    {
      name: "schema-assembly-registers-graphql-files",
      severity: "error",
      comment: "src/app/schema.ts imports modules' GraphQL registration files (for their side effect) and doors only.",
      from: { path: "^src/schema\\.ts$" },
      to: { path: "^src/modules/", pathNot: [moduleDoor, "\\.graphql\\.ts$"] },
    },
    {
      name: "modules-never-import-the-job-engine",
      severity: "error",
      comment:
        "The engine (src/jobs/) sits above the modules: they export their jobs through their door, the composition " +
        "root (src/app/module-wiring.ts) registers them, and they add jobs through src/jobs/queue.ts.",
      from: { path: "^src/modules/" },
      to: { path: "^src/jobs/" },
    },
    {
      name: "examples-use-the-sdk",
      severity: "error",
      comment:
        "Examples are written as users of the SDK: they import its package (@docs-management-gateway/sdk, built " +
        "from packages/sdk), never the app's internals nor the SDK's sources.",
      from: { path: "^examples/" },
      to: { path: ["^src/", "^packages/sdk/src/"] },
    },
  ],
  options: {
    doNotFollow: { path: ["node_modules", "^src/db/generated/"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
