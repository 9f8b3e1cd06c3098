import { type ChildProcess, spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// The connect deadline of a source fetch (OPENAPI_FETCH_CONNECT_TIMEOUT_MS): a host that does not accept the
// connection may be down for a while, so the fetch is retried, unlike one that accepts and does not answer within
// the total deadline (test/rest/openapi-specs.test.ts).

let t: TestApp;
let org: SeededOrganization;
/** A process whose listening socket never accepts (its thread is blocked), and the connections filling its backlog. */
let unaccepting: ChildProcess;
let port: number;
const filling: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp({ env: { OPENAPI_FETCH_ALLOW_HOSTS: "127.0.0.1", OPENAPI_FETCH_TIMEOUT_MS: "60000" } });
  org = await seedOrganization(t.db, "Unaccepted");
  const listen = `const server = require("node:net").createServer().listen({ port: 0, host: "127.0.0.1", backlog: 1 },
    () => { process.stdout.write(server.address().port + "\\n"); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); });`;
  unaccepting = spawn(process.execPath, ["-e", listen]);
  port = Number(
    await new Promise<string>((resolve) => unaccepting.stdout?.once("data", (data) => resolve(String(data)))),
  );
  // The kernel completes connections into the backlog without the process: once it is full, a SYN gets no answer.
  for (let index = 0; index < 2; index++) {
    const socket = connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    filling.push(socket);
  }
});

afterAll(() => {
  for (const socket of filling) socket.destroy();
  unaccepting?.kill();
});

describe("OpenAPI source fetches: the connect deadline", () => {
  it("records a host that does not accept in time as FETCH_TIMEOUT, and retries it", async () => {
    const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/openapi`, {
      token: org.members.admin.token,
      body: { slug: "unaccepted", source: { url: `http://127.0.0.1:${port}/openapi.json` } },
    });
    expect(created.status).toBe(201);
    await t.runJobs({ ...t.config, openapiFetchConnectTimeoutMs: 200 });

    const spec = await t.rest<{ processingState: string; lastProcessErrorCode: string; lastProcessedErrors: [] }>(
      "GET",
      `/orgs/${org.organizationId}/openapi/unaccepted`,
      { token: org.members.admin.token },
    );
    expect(spec.body).toMatchObject({
      processingState: "pending",
      lastProcessErrorCode: "FETCH_TIMEOUT",
      lastProcessedErrors: [{ message: "The source did not accept a connection within 200 ms" }],
    });
    const job = await t.db.prisma.job.findFirstOrThrow({ where: { payload: { equals: { specId: created.body.id } } } });
    expect(job).toMatchObject({ status: "pending", attempts: 1 });
    const { rows } = await t.db.engineSql(`SELECT state FROM pgboss.job WHERE data->>'jobId' = $1`, [job.id]);
    expect(rows).toEqual([{ state: "retry" }]);
  });
});
