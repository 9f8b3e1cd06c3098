// EXPLAINs the statements of every `orderBy` of the lists (`orderWorkloads`) on a fresh bench database, without
// the timed runs: `npx tsx test/bench/explain-orders.ts` (BENCH_DATABASE_URL: the server, default local).
import pg from "pg";
import { explainWorkloads, missingIndexes, orderWorkloads } from "./explain.ts";
import { createBenchDatabase } from "./servers.ts";

const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
const bench = await createBenchDatabase(admin, serverUrl);
try {
  const selected = orderWorkloads(bench.data);
  const report = await explainWorkloads(bench.url, selected);
  process.stdout.write(
    `${selected.length} ordered list requests, ${report.statements} distinct statements: ` +
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
