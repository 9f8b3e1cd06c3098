/**
 * The architecture, enforced by `npm run lint` (see README, "Architecture").
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
