import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { applyMigrations } from "../src/db/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite cluster (`dumpDataDir`) each test file's in-memory database starts from. */
    pgliteTemplate: string;
    /** A migrated database on TEST_DATABASE_URL's server each test file's database is copied from, when set. */
    postgresTemplate: string | undefined;
    /** Set in the `api` project, whose files share their worker's modules: closed PGlite databases are reused. */
    reuseDatabases?: boolean;
  }
}

/**
 * Tests that start server processes run the bundle `npm start` runs (dist/main.js, packages bundled in): built
 * here once, before the files run in parallel, when src/ changed since the install built it.
 */
function buildServerBundle() {
  execFileSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdio: "inherit",
  });
}

/** The migrated cluster, made once: initdb and the migrations cost every test file seconds of CPU. */
async function pgliteTemplate(): Promise<string> {
  const pglite = await PGlite.create("memory://");
  await applyMigrations({
    withRawConnection: (work) =>
      work({
        query: async (sql, params) => (await pglite.query(sql, params)).rows as never,
        exec: async (script) => void (await pglite.exec(script)),
      }),
  });
  const file = join(tmpdir(), `gateway-test-cluster-${randomBytes(6).toString("hex")}.tar`);
  writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
  await pglite.close();
  return file;
}

/** A migrated database to copy (`CREATE DATABASE ... TEMPLATE`), on TEST_DATABASE_URL's server. */
async function postgresTemplate(serverUrl: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `test_template_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await applyMigrations({
    withRawConnection: (work) =>
      work({
        query: async (sql, params) => (await client.query(sql, params)).rows as never,
        exec: async (script) => void (await client.query(script)),
      }),
  });
  await client.end();
  return {
    name,
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

export default async function setup(project: TestProject) {
  buildServerBundle();
  const serverUrl = process.env.TEST_DATABASE_URL;
  const [cluster, postgres] = await Promise.all([
    pgliteTemplate(),
    serverUrl ? postgresTemplate(serverUrl) : undefined,
  ]);
  project.provide("pgliteTemplate", cluster);
  project.provide("postgresTemplate", postgres?.name);
  return async () => {
    rmSync(cluster, { force: true });
    await postgres?.drop();
  };
}
