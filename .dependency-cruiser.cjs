/** A module's door: the one file other code may import from it. */
const moduleDoor = "^src/modules/([^/]+)/\\1\\.public\\.ts$";

/** A module's manifest: what it adds to the service, read by the app's module list alone. */
const moduleManifest = "^src/modules/([^/]+)/\\1\\.module\\.ts$";

/**
 * The folders of src/, lowest first (docs/architecture.md, "Layers"). A folder imports only from itself and the
 * folders before it: no two folders import each other, and nothing imports upward.
 */
const layers = [
  "lib", // pure helpers: packages only
  "platform", // config, logging, ids, secrets, clock, metrics, tracing
  "db", // the database: Prisma, SQL, replicas, migrations
  "events", // the event bus over the database
  "jobs", // the persisted job queue and its engine
  "workers", // worker threads for heavy work
  "request", // what one request carries: context, loaders, budget
  "paging", // page tokens, list orders
  "auth", // viewers, tokens, organization roles
  "web", // HTTP answers every layer above gives: error bodies, JSON, the per-call state
  "graphql", // the schema builder and the GraphQL server
  "rest", // the REST adapter over GraphQL
  "modules", // the resources
  "http", // the server's pipeline: guard, limits, probes, WebSockets
  "app", // the composition root: wiring, schema assembly, routes, main, CLI
];

/** One rule per layer: it may not import the layers above it. */
const layerRules = layers.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer}-imports-only-below`,
  severity: "error",
  comment: `src/${layer}/ sits below ${layers.slice(index + 1).join(", ")}: it may not import them (docs/architecture.md).`,
  from: { path: `^src/${layer}/` },
  to: { path: `^src/(${layers.slice(index + 1).join("|")})/` },
}));

/**
 * The architecture, enforced by `npm run lint` (docs/architecture.md). Module cycles are checked by a second run,
 * .dependency-cruiser-modules.cjs, over src/modules/ alone (a rule on folders here sees cycles across all of src/).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "every-file-in-a-layer",
      severity: "error",
      comment: "Every file of src/ sits in one of the layer folders; none is loose at the root or in another folder.",
      from: { path: "^src/", pathNot: [`^src/(${layers.join("|")})/`] },
      to: {},
    },
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
        "The rest of src/ uses a module through its door too. Exceptions: the module list (src/app/modules.ts) reads " +
        "each module's manifest, and the worker threads' entry (src/app/heavy-work.worker.ts) loads the pure code a " +
        "job's heavy work runs, not the module's services.",
      from: {
        path: "^src/",
        pathNot: ["^src/modules/", "^src/app/heavy-work\\.worker\\.ts$", "^src/app/modules\\.ts$"],
      },
      to: { path: "^src/modules/", pathNot: [moduleDoor, "^src/modules/module-manifest\\.ts$"] },
    },
    {
      name: "only-the-module-list-reads-manifests",
      severity: "error",
      comment:
        "src/app/modules.ts is the one list of modules: it imports their manifests, and their manifests only. A " +
        "manifest imported anywhere else would register a module the list does not name.",
      from: { path: "^src/", pathNot: "^src/app/modules\\.ts$" },
      to: { path: moduleManifest },
    },
    {
      name: "module-list-names-manifests",
      severity: "error",
      comment: "The module list imports modules' manifests, not their doors or other files.",
      from: { path: "^src/app/modules\\.ts$" },
      to: { path: "^src/modules/[^/]+/", pathNot: moduleManifest },
    },
    {
      name: "modules-never-import-the-job-engine",
      severity: "error",
      comment:
        "Modules export their jobs through their door, the composition root (src/app/module-wiring.ts) registers " +
        "them with the engine, and they add jobs through src/jobs/queue.ts, the one file of src/jobs/ they may use.",
      from: { path: "^src/modules/" },
      to: { path: "^src/jobs/", pathNot: "^src/jobs/queue\\.ts$" },
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
