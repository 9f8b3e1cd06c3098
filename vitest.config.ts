import { configDefaults, defineConfig } from "vitest/config";

/**
 * The API's tests: HTTP in, bodies, rows and statement counts out, each file on its own app and database. Tests of
 * processes, tracing, the CLI and the database driver stay in `integration`, each file in a fresh module graph.
 */
const apiFiles = [
  "test/rest/**/*.test.ts",
  "test/graphql/**/*.test.ts",
  "test/contract/**/*.test.ts",
  "test/content/**/*.test.ts",
  "test/property/**/*.test.ts",
  "test/http/**/*.test.ts",
  "test/security/**/*.test.ts",
];

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
          name: "api",
          include: apiFiles,
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/helpers/driver-misuse.ts", "test/helpers/close-per-file.ts"],
          // These files build their apps from the same modules and leave no process-wide state behind: a worker
          // imports the app once for all of its files instead of once per file (a third of the suite's CPU).
          isolate: false,
          // And a file's closed in-memory database serves the worker's next file, emptied (test/helpers/database.ts).
          provide: { reuseDatabases: true },
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // The defaults too (node_modules: the bench installs PostGraphile under test/bench/postgraphile).
          exclude: [...configDefaults.exclude, "test/unit/**", ...apiFiles],
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/helpers/driver-misuse.ts", "test/helpers/close-per-file.ts"],
        },
      },
    ],
  },
});
