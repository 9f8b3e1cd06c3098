import { afterAll, describe, expect, it } from "vitest";
import { createScratchDatabase, type ScratchPostgresDatabase } from "../helpers/database.ts";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

// compose.yaml starts `server` and `worker` together on one empty database: the start-up work that must happen once
// (migrations, the bootstrap admin and demo data, the job engine's queues and schedules) must not race.

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)(
  "instances started together on an empty PostgreSQL (skipped without TEST_DATABASE_URL)",
  {
    timeout: 180_000,
  },
  () => {
    let database: ScratchPostgresDatabase | undefined;
    const servers: ServerProcess[] = [];
    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()));
      await database?.drop();
    });

    it("both come up and serve, one of them having created the demo data once, and each says what it does", async () => {
      database = await createScratchDatabase(serverUrl as string);
      const env = { DATABASE_URL: database.url, BOOTSTRAP_ADMIN_TOKEN: "together-admin-token-0123456789" };
      const started = await Promise.all([
        startServerProcess({ ...env, RUN_JOBS: "false" }),
        startServerProcess({ ...env, RUN_JOBS: "true" }),
      ]);
      servers.push(...started);
      const [web, worker] = started as [ServerProcess, ServerProcess];
      for (const server of started) {
        const orgs = await fetch(`${server.url}/v1/orgs`, {
          headers: { authorization: `Bearer ${env.BOOTSTRAP_ADMIN_TOKEN}` },
        });
        expect(orgs.status).toBe(200);
        expect(((await orgs.json()) as { items: unknown[] }).items).toHaveLength(1);
      }
      expect(started.filter((server) => server.output().includes("Created the demo organization"))).toHaveLength(1);
      expect(await (await fetch(`${web.url}/readyz`)).json()).toEqual({
        status: "ready",
        instance: { serves: true, runsJobs: false, tracing: false },
      });
      expect(await (await fetch(`${worker.url}/readyz`)).json()).toMatchObject({ instance: { runsJobs: true } });
      expect(web.output()).toContain("Instance:  serves requests, runs no jobs (RUN_JOBS=false); tracing off");
      expect(worker.output()).toContain("Instance:  serves requests and runs jobs; tracing off");
    });
  },
);
