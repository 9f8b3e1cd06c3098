import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  // Dependencies loaded by Node (Pothos, Yoga) get graphql's CommonJS build; make our code use the same instance.
  resolve: { alias: { graphql: "graphql/index.js" } },
  test: {
    // Each test file opens its own in-memory PGlite (or its own PostgreSQL database), so files run in parallel.
    pool: "forks",
    fileParallelism: true,
    // One file per core: vitest's default leaves a core free (one worker on a 2-core machine), while the files
    // mostly wait on their databases and on the server processes they start.
    maxWorkers: "100%",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // `npm run test:unit`: pure functions, no database, no server: seconds.
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // The defaults too (node_modules: the bench installs PostGraphile under test/bench/postgraphile).
          exclude: [...configDefaults.exclude, "test/unit/**"],
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/helpers/driver-misuse.ts"],
        },
      },
    ],
  },
});
