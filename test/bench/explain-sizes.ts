// EXPLAINs the statements of the size bench's reads (sizes.ts) on one organization of a size factor, without the
// timed runs: `npx tsx test/bench/explain-sizes.ts 10` (BENCH_DATABASE_URL: the server, default local). Reports the
// sequential scans of large tables, and whether an index could serve them.
import pg from "pg";
import { explainWorkloads, missingIndexes } from "./explain.ts";
import { createBenchDatabase } from "./servers.ts";
import { sizedWorkloads } from "./sizes.ts";
import { seedSized } from "./sizes-seed.ts";

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const factor = Number(process.argv[2] ?? "1");

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const bench = await createBenchDatabase(admin, serverUrl, { seed: (db) => seedSized(db, factor) });
try {
  const selected = sizedWorkloads(bench.data).map((workload) => ({ ...workload, comparisons: [] }));
  const report = await explainWorkloads(bench.url, selected);
  process.stdout.write(
    `${factor}x: ${selected.length} requests, ${report.statements} distinct statements: ` +
      `${report.seqScans.length} sequential scans of large tables, ${missingIndexes(report).length} without a usable index.\n`,
  );
  for (const scan of report.seqScans) {
    process.stdout.write(
      `- Seq Scan on "${scan.table}" (${scan.rows} rows, index usable: ${scan.indexAvailable}): ${scan.sql}\n`,
    );
  }
  process.exitCode = missingIndexes(report).length > 0 ? 1 : 0;
} finally {
  await bench.drop();
  await admin.end();
}
