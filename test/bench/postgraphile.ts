import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";

// PostGraphile v4 as a new user runs it: `postgraphile -c <db> --schema public --disable-default-mutations
// --disable-query-log`. It lives in its own install (test/bench/postgraphile/): it needs graphql 15, and two graphql
// copies in the gateway's tree make its schema fail at run time ("from another module or realm").
const directory = fileURLToPath(new URL("./postgraphile/", import.meta.url));
const cli = `${directory}node_modules/postgraphile/cli.js`;

/** Installs the peer from its lockfile the first time the benchmark needs it. */
export function ensurePostgraphileInstalled(): void {
  if (existsSync(cli)) return;
  process.stdout.write("installing PostGraphile (test/bench/postgraphile) for the benchmark\n");
  const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: directory, stdio: "inherit" });
  if (result.status !== 0) throw new Error("npm ci of test/bench/postgraphile failed");
}

/**
 * Its only setting: a smart comment renaming `Comment.nodeId`, which clashes with the `nodeId` PostGraphile adds to
 * every type.
 */
export async function preparePostgraphileDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`COMMENT ON COLUMN "Comment"."nodeId" IS E'@name commentNodeId'`);
  } finally {
    await client.end();
  }
}

/** Node's arguments that start PostGraphile on `databaseUrl` (the port comes from the environment's PORT). */
export function postgraphileArguments(databaseUrl: string, port: number): string[] {
  return [
    cli,
    "-c",
    databaseUrl,
    "--schema",
    "public",
    "--disable-default-mutations",
    "--disable-query-log",
    "-n",
    "127.0.0.1",
    "-p",
    String(port),
  ];
}
