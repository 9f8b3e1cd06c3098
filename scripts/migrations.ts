// `create <name>` writes the next migration generated from prisma/schema.prisma; `check` fails when
// prisma/migrations does not build the schema. Both use the WASM schema engine (see schema-engine.ts).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import {
  createMigrationSql,
  diffMigrationsToSchema,
  lockfileContent,
  lockfileName,
  migrationsDir,
} from "./schema-engine.ts";

const usage = `Usage:
  tsx scripts/migrations.ts create <name>   write prisma/migrations/<timestamp>_<name>/migration.sql
  tsx scripts/migrations.ts check           exit 1 if prisma/migrations does not match prisma/schema.prisma`;

const namePattern = /^[a-z][a-z0-9_]{0,63}$/;

class UsageError extends Error {}

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === "create" && rest.length <= 1) return create(rest[0]);
  if (command === "check" && rest.length === 0) return check();
  throw new UsageError(usage);
}

async function create(name: string | undefined): Promise<number> {
  if (name === undefined) throw new UsageError(`Missing migration name.\n${usage}`);
  if (!namePattern.test(name)) {
    throw new UsageError(
      `Invalid migration name "${name}": use lowercase letters, digits and underscores, starting with a letter (at most 64 characters), e.g. add_team_slug.`,
    );
  }
  const sql = await createMigrationSql();
  if (sql === null) {
    console.log("no changes");
    return 0;
  }
  const folder = `${timestamp(new Date())}_${name}`;
  const latest = existingMigrations().at(-1);
  // Migrations apply in name order, so the new one has to sort last.
  if (latest !== undefined && latest >= folder) {
    throw new Error(`Cannot create ${folder}: the existing migration ${latest} sorts after it (dated now or later).`);
  }
  const dir = join(migrationsDir, folder);
  mkdirSync(dir, { recursive: true });
  const lockfile = join(migrationsDir, lockfileName);
  if (!existsSync(lockfile)) writeFileSync(lockfile, lockfileContent);
  const file = join(dir, "migration.sql");
  writeFileSync(file, sql);
  console.log(relative(process.cwd(), file));
  return 0;
}

async function check(): Promise<number> {
  const sql = await diffMigrationsToSchema();
  if (sql === "") {
    console.log("prisma/migrations matches prisma/schema.prisma");
    return 0;
  }
  console.error(
    "prisma/migrations does not match prisma/schema.prisma; run `npm run db:migration -- <name>`. Missing SQL:\n",
  );
  console.log(sql);
  return 1;
}

function existingMigrations(): string[] {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** Prisma's migration folder prefix: YYYYMMDDHHMMSS in UTC. */
function timestamp(date: Date): string {
  return date.toISOString().replace(/\D/g, "").slice(0, 14);
}

main(process.argv.slice(2)).then(
  // Exit explicitly: the schema engine and PGlite are WASM runtimes we do not want to wait on.
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
