import { readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { createBenchDatabase, inProcessApp } from "./servers.ts";
import { type SizedData, seedSized } from "./sizes-seed.ts";

// `npm run bench:writes -- --sizes 1,10`: the writes of issue 53's item 3 in the busy space of an organization at
// each size factor (sizes-seed.ts: 50 x factor pages): a page created in a change request, its content updated, an
// existing page's content updated, and the change request merged; per write the wall time, the SQL statements and
// the parameters they bind (what the process sends), through the app in this process, on PostgreSQL.
// `--seed FILE` seeds one size, keeps its database and writes where it is into FILE; `--data FILE` measures that
// database (so two versions of the code can be measured in turn on the same data); `--drop FILE` drops it.
const { values: flags } = parseArgs({
  options: {
    sizes: { type: "string", default: "1,10" },
    rounds: { type: "string", default: "5" },
    seed: { type: "string" },
    data: { type: "string" },
    drop: { type: "string" },
  },
});
const serverUrl = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const rounds = Number(flags.rounds);

interface Seeded {
  url: string;
  database: string;
  data: SizedData;
}

interface Sample {
  milliseconds: number;
  statements: number;
  parameters: number;
}

const writes = ["create a page in a change request", "update that page", "update a seeded page", "merge"] as const;

async function measure({ url, data }: Seeded): Promise<Map<string, Sample[]>> {
  const { db, app, close } = await inProcessApp(url);
  let parameters = 0;
  db.onStatement((_sql, params) => {
    parameters += params.length;
  });
  const samples = new Map<string, Sample[]>(writes.map((name) => [name, []]));
  const post = async (path: string, body: unknown, sample?: (typeof writes)[number]) => {
    const before = { statements: db.statementCount(), parameters, at: performance.now() };
    const response = await app.fetch(
      new Request(`http://bench.test/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${data.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
    if (sample) {
      samples.get(sample)?.push({
        milliseconds: performance.now() - before.at,
        statements: db.statementCount() - before.statements,
        parameters: parameters - before.parameters,
      });
    }
    return JSON.parse(text) as Record<string, unknown>;
  };
  try {
    const space = `/spaces/${data.spaceId}`;
    for (let round = 0; round < rounds; round++) {
      const changeRequest = await post(`${space}/change-requests`, { subject: `Bench ${round}` });
      const content = `${space}/change-requests/${changeRequest.id as string}/content`;
      const markdown = `## Round ${round}\n\nA page written by the write bench.\n`;
      const created = await post(
        content,
        { changes: [{ type: "insert", page: { title: `Bench page ${round}`, markdown } }] },
        "create a page in a change request",
      );
      const pageId = (created.inserted as { id: string }[])[0]?.id;
      await post(
        content,
        { changes: [{ type: "update", pageId, page: { markdown: `${markdown}\nUpdated.\n` } }] },
        "update that page",
      );
      await post(
        content,
        {
          changes: [{ type: "update", pageId: data.busyPageId, page: { markdown: `Rewritten in round ${round}.\n` } }],
        },
        "update a seeded page",
      );
      await post(`${space}/change-requests/${changeRequest.id as string}/merge`, {}, "merge");
    }
    return samples;
  } finally {
    await close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

function report(label: string, pages: number, samples: Map<string, Sample[]>) {
  for (const [name, list] of samples) {
    process.stdout.write(
      `${label} (${pages} pages) ${name}: median ${median(list.map((s) => s.milliseconds)).toFixed(1)} ms, min ${Math.min(...list.map((s) => s.milliseconds)).toFixed(1)} ms, ${median(list.map((s) => s.statements))} statements, ${median(list.map((s) => s.parameters))} parameters (load average ${(loadavg()[0] as number).toFixed(1)})\n`,
    );
  }
}

async function seed(factor: number): Promise<Seeded> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const bench = await createBenchDatabase(admin, serverUrl, { seed: (db) => seedSized(db, factor) });
    return { url: bench.url, database: new URL(bench.url).pathname.slice(1), data: bench.data };
  } finally {
    await admin.end();
  }
}

async function drop(seeded: Seeded) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${seeded.database} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

const readSeeded = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Seeded;

try {
  if (flags.drop) await drop(readSeeded(flags.drop));
  else if (flags.data) {
    const seeded = readSeeded(flags.data);
    report(`${seeded.data.factor}x`, seeded.data.factor * 50, await measure(seeded));
  } else {
    for (const factor of flags.sizes.split(",").map(Number)) {
      const seeded = await seed(factor);
      if (flags.seed) {
        writeFileSync(flags.seed, JSON.stringify(seeded));
        break;
      }
      try {
        report(`${factor}x`, factor * 50, await measure(seeded));
      } finally {
        await drop(seeded);
      }
    }
  }
  process.exit(0);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
}
