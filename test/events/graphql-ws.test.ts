import { type Client, createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { enqueueJob } from "../../src/jobs/queue.ts";
import { defineJob } from "../../src/jobs/registry.ts";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { openChangeRequest } from "../helpers/content.ts";
import { type SseSubscription, subscribe } from "../helpers/sse.ts";

/*
 * GraphQL over WebSocket (`graphql-ws`) beside server-sent events, on the same listening server and path: the token
 * in `connectionParams`, the same access checks, events and per-person subscription cap.
 */

const StatusUpdates = `subscription Status($spaceId: ID!, $changeRequestId: ID!) {
  changeRequestUpdated(spaceId: $spaceId, changeRequestId: $changeRequestId) { changeRequestId status subject }
}`;
const JobProgress = `subscription($jobId: ID!) { jobProgress(jobId: $jobId) { id: jobId status } }`;

defineJob("graphql-ws-idle", { run: async () => {} });

let t: TestApp;
let org: SeededOrganization;
let server: { url: string; close(): Promise<void> };
const clients: ReturnType<typeof createClient>[] = [];

beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app);
  org = await seedOrganization(t.db, "Sockets");
});

afterAll(async () => {
  for (const client of clients) await client.dispose();
  await server.close();
});

/** A graphql-ws client of the server at `/graphql`, sending `token` as a front end does. */
function socketClient(token?: string) {
  const client = createClient({
    url: `${server.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
  clients.push(client);
  return client;
}

describe("subscriptions over graphql-ws", () => {
  it("sends a change request's state, then the change another caller made, to a reader of its space", async () => {
    const { spaceId, changeRequestId } = await openChangeRequest(t, org, "Watched over a socket");
    const events = socketClient(org.members.read.token).iterate<{ changeRequestUpdated: unknown }>({
      query: StatusUpdates,
      variables: { spaceId, changeRequestId },
    });
    expect((await events.next()).value).toEqual({
      data: { changeRequestUpdated: { changeRequestId, status: "OPEN", subject: "Watch me" } },
    });

    const renamed = await t.rest("PATCH", `/spaces/${spaceId}/change-requests/${changeRequestId}`, {
      token: org.members.edit.token,
      body: { subject: "Renamed" },
    });
    expect(renamed.status).toBe(200);
    expect((await events.next()).value).toEqual({
      data: { changeRequestUpdated: { changeRequestId, status: "OPEN", subject: "Renamed" } },
    });
    await events.return?.();
  });

  it("checks access as over HTTP: no token, or a token of another organization, opens nothing", async () => {
    const { spaceId, changeRequestId } = await openChangeRequest(t, org, "Watched over a socket");
    const outsider = await seedOrganization(t.db, "Socket outsiders");
    const callers = [
      { token: undefined, code: "UNAUTHENTICATED" },
      { token: outsider.members.admin.token, code: "NOT_FOUND" },
    ];
    for (const { token, code } of callers) {
      const events = socketClient(token).iterate({ query: StatusUpdates, variables: { spaceId, changeRequestId } });
      const first = await events.next();
      expect(first.value?.data ?? null).toBeNull();
      expect(first.value?.errors?.[0]?.extensions).toMatchObject({ code });
      expect((await events.next()).done).toBe(true);
    }
  });

  it("answers queries too, as the caller the token names", async () => {
    const result = await socketClient(org.members.admin.token)
      .iterate<{ organization: { id: string; viewerCanAdminister: boolean } }>({
        query: "query($id: ID!) { organization(id: $id) { id viewerCanAdminister } }",
        variables: { id: org.organizationId },
      })
      .next();
    expect(result.value).toMatchObject({
      data: { organization: { id: org.organizationId, viewerCanAdminister: true } },
    });
  });

  it("counts its subscriptions in the same per-person cap as server-sent events'", async () => {
    const job = await enqueueJob(t.db.prisma, "graphql-ws-idle", {}, t.clock.now(), org.organizationId);
    const token = org.members.comment.token;
    const max = t.config.maxSubscriptionsPerUser;
    expect(max).toBe(20);
    const overSse: SseSubscription[] = [];
    for (let index = 0; index < max / 2; index++) {
      const stream = await subscribe(fetch, `${server.url}/graphql`, token, JobProgress, { jobId: job.id });
      expect((await stream.next())?.data).toEqual({ jobProgress: { id: job.id, status: "PENDING" } });
      overSse.push(stream);
    }
    const client = socketClient(token);
    const overSocket = [];
    for (let index = 0; index < max / 2; index++) {
      const events = client.iterate({ query: JobProgress, variables: { jobId: job.id } });
      expect((await events.next()).value).toEqual({ data: { jobProgress: { id: job.id, status: "PENDING" } } });
      overSocket.push(events);
    }

    const refused = await client.iterate({ query: JobProgress, variables: { jobId: job.id } }).next();
    expect(refused.value?.errors?.[0]).toMatchObject({
      message: `At most ${max} subscriptions may be open per user; close one first`,
      extensions: { code: "TOO_MANY_SUBSCRIPTIONS" },
    });

    // A subscription completed over the socket frees its place at once.
    await overSocket.pop()?.return?.();
    const again = client.iterate({ query: JobProgress, variables: { jobId: job.id } });
    expect((await again.next()).value).toEqual({ data: { jobProgress: { id: job.id, status: "PENDING" } } });
    await again.return?.();
    for (const events of overSocket) await events.return?.();
    for (const stream of overSse) await stream.close();
  });

  it("serves WebSockets at /graphql only", async () => {
    const socket = new WebSocket(`${server.url.replace("http", "ws")}/v1/orgs`, "graphql-transport-ws");
    const status = await new Promise<number | undefined>((resolve) => {
      socket.on("unexpected-response", (_request, response) => resolve(response.statusCode));
      socket.on("error", () => resolve(undefined));
    });
    expect(status).toBe(404);
  });
});

/** A graphql-ws client connected at once: resolves when the server acknowledged it, or with how it closed it. */
function connect(url: string, token: string): Promise<{ client: Client; closed?: { code: number; reason: string } }> {
  return new Promise((resolve) => {
    const client = createClient({
      url: `${url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      lazy: false,
      retryAttempts: 0,
      onNonLazyError: () => {},
      on: {
        connected: () => resolve({ client }),
        closed: (event) => {
          const { code, reason } = event as { code: number; reason: string };
          resolve({ client, closed: { code, reason } });
        },
      },
    });
    clients.push(client);
  });
}

/** The value of one sample line (`name{labels} value`) of the server's `/metrics`, 0 when the series does not exist. */
async function metric(url: string, series: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("the WebSockets' limits", () => {
  it("closes a client address's socket past MAX_WEBSOCKETS_PER_ADDRESS with 1008, and /metrics counts them", async () => {
    const limited = await startTestApp({ db: t.db, env: { MAX_WEBSOCKETS_PER_ADDRESS: "2" } });
    const served = await listen(limited.app);
    try {
      const token = org.members.read.token;
      const first = await connect(served.url, token);
      const second = await connect(served.url, org.members.admin.token);
      expect([first.closed, second.closed]).toEqual([undefined, undefined]);

      // Another person's token does not help: the sockets are counted by client address.
      const third = await connect(served.url, org.members.edit.token);
      expect(third.closed).toEqual({ code: 1008, reason: "At most 2 WebSockets may be open per client address" });

      const job = await enqueueJob(t.db.prisma, "graphql-ws-idle", {}, t.clock.now(), org.organizationId);
      const events = first.client.iterate({ query: JobProgress, variables: { jobId: job.id } });
      expect((await events.next()).value).toEqual({ data: { jobProgress: { id: job.id, status: "PENDING" } } });
      expect(await metric(served.url, "graphql_websockets_open")).toBe(2);
      expect(await metric(served.url, "graphql_websocket_subscriptions_open")).toBe(1);
      expect(await metric(served.url, `graphql_websockets_refused_total{reason="address_limit"}`)).toBe(1);
      expect(await metric(served.url, `graphql_websockets_refused_total{reason="overloaded"}`)).toBe(0);
      await events.return?.();
    } finally {
      await served.close();
    }
  });

  it("refuses a new socket (1013) and a new operation (503) while the server sheds requests, as over HTTP", async () => {
    const busy = await startTestApp({ db: t.db, env: { SHED_MAX_IN_FLIGHT: "1" } });
    const served = await listen(busy.app);
    const admin = org.members.admin.token;
    const editor = org.members.edit.token;
    try {
      // Both tokens verified once, so that neither caller's admission needs the database held below.
      const open = await connect(served.url, editor);
      expect(open.closed).toBeUndefined();
      expect((await busy.rest("GET", `/orgs/${org.organizationId}`, { token: admin })).status).toBe(200);

      // The admin's request is admitted, then waits for the organization's row (PGlite: for the database).
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const transaction = t.db.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM "Organization" WHERE id = ${org.organizationId} FOR UPDATE`;
        locked();
        await held;
      });
      await isLocked;
      // Admitted within the turn it is sent (its steps before the handler await no I/O), before any socket's message.
      const renamed = busy.rest("PATCH", `/orgs/${org.organizationId}`, { token: admin, body: { title: "Busy" } });

      const refused = await connect(served.url, editor);
      expect(refused.closed).toEqual({ code: 1013, reason: "The server is overloaded; retry shortly" });
      // Refused before it runs: graphql-ws sends an `error` message, which its client throws.
      const operation = open.client
        .iterate({ query: "query($id: ID!) { organization(id: $id) { id } }", variables: { id: org.organizationId } })
        .next();
      await expect(operation).rejects.toEqual([
        expect.objectContaining({
          message: "The server is overloaded; retry shortly",
          extensions: { code: "SERVICE_UNAVAILABLE", status: 503 },
        }),
      ]);

      release();
      await transaction;
      expect((await renamed).status).toBe(200);
      // Answered, the request leaves the requests in flight: the editor's socket is admitted again.
      expect((await connect(served.url, editor)).closed).toBeUndefined();
      expect(await metric(served.url, `graphql_websockets_refused_total{reason="overloaded"}`)).toBe(1);
    } finally {
      await served.close();
    }
  });
});
