/**
 * npm run crash-test: runs concurrent space duplicates and transfers against a server on PostgreSQL, kills it with
 * SIGKILL at random moments, restarts it, and checks the invariants after every restart. Prints one JSON report.
 *
 * CRASH_DATABASE_URL (default the local server), CRASH_ROUNDS (default 15), CRASH_WORKERS (default 6), CRASH_SEED.
 * An operation is one entry of `operations`: duplicates, transfers, and merges of change requests.
 */
import pg from "pg";
import { createScratchDatabase } from "../helpers/database.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

const serverUrl = process.env.CRASH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const rounds = Number(process.env.CRASH_ROUNDS ?? 15);
const workers = Number(process.env.CRASH_WORKERS ?? 6);
const token = `crash-test-admin-${"t".repeat(16)}`;

/** A small seeded generator, so that a failing run can be replayed with its CRASH_SEED. */
let state = Number(process.env.CRASH_SEED ?? Date.now()) >>> 0;
const seed = state;
function random(): number {
  state = (state * 1664525 + 1013904223) >>> 0;
  return state / 2 ** 32;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

interface World {
  url: string;
  organizations: [string, string];
}

async function call(world: World, method: string, path: string, body?: unknown) {
  const response = await fetch(`${world.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function spacesOf(world: World, organizationId: string): Promise<string[]> {
  const list = await call(world, "GET", `/orgs/${organizationId}/spaces`, undefined);
  return (list.body?.items ?? []).map((space: { id: string }) => space.id);
}

/** Each operation picks its own target; a request cut by the kill counts as interrupted. */
const operations: Record<string, (world: World) => Promise<number>> = {
  async duplicate(world) {
    const organizationId = pick(world.organizations);
    const spaces = await spacesOf(world, organizationId);
    // The first page holds up to 100: stop copying there so that the lists stay one page.
    if (spaces.length === 0 || spaces.length >= 100) return 0;
    return (await call(world, "POST", `/spaces/${pick(spaces)}/duplicate`)).status;
  },
  async transfer(world) {
    const from = pick([0, 1] as const);
    const spaces = await spacesOf(world, world.organizations[from]);
    if (spaces.length === 0) return 0;
    const organization = world.organizations[from === 0 ? 1 : 0];
    return (await call(world, "POST", `/spaces/${pick(spaces)}/transfer`, { organization })).status;
  },
  /** Opens a change request, writes a page into it and merges it: three requests a kill may cut anywhere. */
  async merge(world) {
    const spaces = await spacesOf(world, pick(world.organizations));
    if (spaces.length === 0) return 0;
    const spaceId = pick(spaces);
    const opened = await call(world, "POST", `/spaces/${spaceId}/change-requests`, { subject: "Crash merge" });
    if (opened.status !== 201) return opened.status;
    const base = `/spaces/${spaceId}/change-requests/${opened.body.id}`;
    const written = await call(world, "POST", `${base}/content`, {
      changes: [{ type: "insert", page: { title: `Page ${Math.floor(random() * 1e9)}`, markdown: "Written.\n" } }],
    });
    if (written.status !== 200) return written.status;
    return (await call(world, "POST", `${base}/merge`)).status;
  },
};

const counts = {
  rounds: 0,
  kills: 0,
  restarts: 0,
  started: {} as Record<string, number>,
  succeeded: {} as Record<string, number>,
  refused: {} as Record<string, number>,
  interrupted: {} as Record<string, number>,
  /** Jobs a kill left claimed: the runner claims them again once their lock (5 minutes) expires. */
  jobsLeftRunning: 0,
  violations: [] as string[],
};

function bump(bucket: Record<string, number>, name: string) {
  bucket[name] = (bucket[name] ?? 0) + 1;
}

async function worker(world: World, stopped: () => boolean) {
  while (!stopped()) {
    const name = pick(Object.keys(operations));
    bump(counts.started, name);
    try {
      const status = await (operations[name] as (world: World) => Promise<number>)(world);
      if (status >= 200 && status < 300) bump(counts.succeeded, name);
      else if (status >= 500) counts.violations.push(`${name} answered ${status}`);
      else bump(counts.refused, name);
    } catch {
      bump(counts.interrupted, name);
      return;
    }
  }
}

/** Invariants checked in SQL after every restart. */
async function checkInvariants(databaseUrl: string, world: World, round: number) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const problems: [string, string][] = [
      [
        "a space without any grant (a half-copied duplicate)",
        `SELECT s.id FROM "Space" s WHERE NOT EXISTS (SELECT 1 FROM "SpacePermission" p WHERE p."spaceId" = s.id)`,
      ],
      [
        "a space whose parent collection is in another organization (a half transfer)",
        `SELECT s.id FROM "Space" s JOIN "Collection" c ON c.id = s."parentId" WHERE c."organizationId" <> s."organizationId"`,
      ],
      [
        "a site space of a site in another organization than its space (a half transfer)",
        `SELECT ss.id FROM "SiteSpace" ss JOIN "Site" si ON si.id = ss."siteId" JOIN "Space" s ON s.id = ss."spaceId"
          WHERE si."organizationId" <> s."organizationId"`,
      ],
      [
        "a team grant on a space of another organization (a half transfer)",
        `SELECT p.id FROM "SpacePermission" p JOIN "Team" t ON t.id = p."teamId" JOIN "Space" s ON s.id = p."spaceId"
          WHERE t."organizationId" <> s."organizationId"`,
      ],
      [
        "a space whose active revision is missing or another space's (a broken revision chain)",
        `SELECT s.id FROM "Space" s LEFT JOIN "Revision" r ON r.id = s."revisionId" AND r."spaceId" = s.id
          WHERE r.id IS NULL`,
      ],
      [
        "a revision whose parent is missing (a broken revision chain)",
        `SELECT r.id FROM "Revision" r, unnest(r.parents) AS parent
          WHERE NOT EXISTS (SELECT 1 FROM "Revision" p WHERE p.id = parent)`,
      ],
      [
        "a change request whose revision is missing",
        `SELECT c.id FROM "ChangeRequest" c LEFT JOIN "Revision" r ON r.id = c."revisionId" WHERE r.id IS NULL`,
      ],
      [
        "a merged change request whose merge revision is not in the space's history",
        `SELECT c.id FROM "ChangeRequest" c WHERE c.status = 'merged'
          AND NOT EXISTS (SELECT 1 FROM "Revision" r WHERE r.id = c."revisionMerged" AND r."spaceId" = c."spaceId")`,
      ],
      [
        "a space whose change request counters differ from its change requests",
        `SELECT s.id FROM "Space" s WHERE s."changeRequests" <> (SELECT count(*) FROM "ChangeRequest" c WHERE c."spaceId" = s.id)
          OR s."changeRequestsOpen" <> (SELECT count(*) FROM "ChangeRequest" c WHERE c."spaceId" = s.id AND c.status = 'open')
          OR s."changeRequestsDraft" <> (SELECT count(*) FROM "ChangeRequest" c WHERE c."spaceId" = s.id AND c.status = 'draft')
          OR s."changeRequestNumber" <> (SELECT count(*) FROM "ChangeRequest" c WHERE c."spaceId" = s.id)`,
      ],
      ["a failed job", `SELECT id FROM "Job" WHERE status = 'failed'`],
      [
        "a recurring job scheduled more than once",
        `SELECT type FROM "Job" WHERE id LIKE 'job_recurring_%' GROUP BY type HAVING count(*) > 1`,
      ],
    ];
    for (const [description, sql] of problems) {
      const { rows } = await db.query(sql);
      for (const row of rows) counts.violations.push(`round ${round}: ${description}: ${JSON.stringify(row)}`);
    }
    const running = await db.query(`SELECT count(*)::int AS n FROM "Job" WHERE status = 'running'`);
    counts.jobsLeftRunning += running.rows[0].n as number;
    // Counters: the lists' `count` equals the rows it counts.
    for (const organizationId of world.organizations) {
      const api = await call(world, "GET", `/orgs/${organizationId}/spaces`, undefined);
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM "Space" WHERE "organizationId" = $1 AND "deletedAt" IS NULL`,
        [organizationId],
      );
      if (api.body?.count !== rows[0].n) {
        counts.violations.push(`round ${round}: ${organizationId} lists ${api.body?.count} spaces, has ${rows[0].n}`);
      }
    }
  } finally {
    await db.end();
  }
}

async function main() {
  const database = await createScratchDatabase(serverUrl);
  const env = { DATABASE_URL: database.url, BOOTSTRAP_ADMIN_TOKEN: token, RATE_LIMIT_TOKEN: "0", LOG_LEVEL: "silent" };
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess(env);
    const bootstrap: World = { url: server.url, organizations: ["", ""] };
    const orgs = await call(bootstrap, "GET", "/orgs");
    const first = orgs.body.items[0].id as string;
    const second = (await call(bootstrap, "POST", "/orgs", { title: "Crash target" })).body.id as string;
    const world: World = { url: server.url, organizations: [first, second] };
    for (let i = 0; i < 6; i++)
      await call(world, "POST", `/orgs/${pick(world.organizations)}/spaces`, { title: `Seed ${i}` });

    for (let round = 1; round <= rounds; round++) {
      world.url = server.url;
      let stopped = false;
      const running = Array.from({ length: workers }, () => worker(world, () => stopped));
      // Kill at a random moment: some requests are mid-transaction, some between statements.
      await new Promise((resolve) => setTimeout(resolve, 200 + random() * 1800));
      server.child.kill("SIGKILL");
      await server.exited;
      stopped = true;
      counts.kills += 1;
      await Promise.all(running);
      server = await startServerProcess(env);
      counts.restarts += 1;
      world.url = server.url;
      await checkInvariants(database.url, world, round);
      counts.rounds = round;
    }
    const spaces = await Promise.all(world.organizations.map((id) => spacesOf(world, id)));
    process.stdout.write(
      `${JSON.stringify({ seed, ...counts, spacesAtEnd: spaces.map((list) => list.length) }, null, 2)}\n`,
    );
    process.exitCode = counts.violations.length === 0 ? 0 : 1;
  } finally {
    await server?.stop("SIGKILL");
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
