import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// Attacks on admission with the server's defaults: bodies that never finish arriving, lists of ids without end.
let t: TestApp;
let server: { url: string; close(): Promise<void> };
let org: SeededOrganization;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app);
  org = await seedOrganization(t.db, "Slow Org");
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await server.close();
});

/** A POST whose body announces 100 bytes and sends one; resolves with the status of the answer, if any comes. */
function slowUpload(url: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
      );
    });
    sockets.push(socket);
    socket.on("data", (chunk) => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(chunk.toString())?.[1])));
    socket.on("error", () => undefined);
  });
}

describe("admission after the body", () => {
  it("holds 40 slow uploads without a token to their address's 8 body slots, and serves a person with a token", async () => {
    const uploads = Array.from({ length: 40 }, () => slowUpload(server.url));
    // Past the address's 8 bodies in progress, each further upload is refused at once, before its body arrives.
    const refusedAtOnce = await Promise.all(uploads.slice(8));
    expect(refusedAtOnce).toEqual(Array.from({ length: 32 }, () => 429));
    // The 8 still sending hold no place in flight: a person with a token is served.
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${org.members.read.token}` },
      body: JSON.stringify({ query: "{ viewer { user { id } } }" }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
  });
});

describe("large bodies", () => {
  /** Large bodies waiting for their turn, as /metrics shows them. */
  async function largeBodiesWaiting(): Promise<number> {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return Number(/^http_large_bodies_waiting (\d+)$/m.exec(text)?.[1]);
  }

  /** A small GraphQL read padded with spaces to `bytes`, which JSON allows after a value. */
  const paddedRead = (bytes: number) => {
    const text = JSON.stringify({ query: "{ viewer { user { id } } }" });
    return text + " ".repeat(bytes - text.length);
  };

  /** A GraphQL read of `bytes` whose first byte is sent; `finish` sends the rest. */
  async function partialUpload(token: string, bytes: number) {
    const { hostname, port } = new URL(server.url);
    const body = paddedRead(bytes);
    const socket = connect(Number(port), hostname);
    sockets.push(socket);
    const answer = new Promise<string>((resolve) => socket.on("data", (chunk) => resolve(chunk.toString())));
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}` +
        `\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 1)}`,
    );
    return { answer, finish: () => socket.write(body.slice(1)) };
  }

  it("arrive one at a time, while small requests pass", async () => {
    const uploads = [
      await partialUpload(org.members.admin.token, 200_000),
      await partialUpload(org.members.read.token, 100_000),
    ];
    // One of them arrives, the other waits for it: without turns, both would be arriving and none waiting.
    let polls = 0;
    while ((await largeBodiesWaiting()) !== 1 && polls < 500) polls++;
    expect(await largeBodiesWaiting()).toBe(1);
    // A small request passes both.
    const small = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${org.members.edit.token}` },
      body: JSON.stringify({ query: "{ viewer { user { id } } }" }),
    });
    expect(small.status).toBe(200);
    for (const upload of uploads) upload.finish();
    for (const upload of uploads) expect(await upload.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(await largeBodiesWaiting()).toBe(0);
  });
});

describe("nodes(ids:)", () => {
  const nodesQuery = "query ($ids: [ID!]!) { nodes(ids: $ids) { id } }";

  it("refuses more than 100 ids before the operation runs, and reads 100", async () => {
    const client = t.graphql(org.members.admin.token);
    const many = Array.from({ length: 34_000 }, () => org.organizationId);
    const refused = await t.app.fetch(
      new Request("http://gateway.test/graphql", {
        method: "POST",
        headers: {
          authorization: `Bearer ${org.members.admin.token}`,
          "content-type": "application/json",
          accept: "application/graphql-response+json",
        },
        body: JSON.stringify({ query: nodesQuery, variables: { ids: many } }),
      }),
    );
    // No `data`: refused by the estimate, before any resolver decoded an id.
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body).toMatchObject({
      errors: [{ message: "ids must list at most 100 ids; 34000 were sent", extensions: { code: "BAD_USER_INPUT" } }],
    });
    expect(body).not.toHaveProperty("data");
    const hundred = (await client.request(nodesQuery, { ids: many.slice(0, 100) })) as { nodes: { id: string }[] };
    expect(hundred.nodes).toHaveLength(100);
  });

  it("estimates each id listed as a read of the selection", async () => {
    const client = t.graphql(org.members.admin.token);
    const cost = async (count: number) => {
      const answer = await client.rawRequest(nodesQuery, {
        ids: Array.from({ length: count }, () => org.organizationId),
      });
      return (answer.extensions as { cost: { nodeCount: number } }).cost.nodeCount;
    };
    expect(await cost(50)).toBe(2 * (await cost(25)) - 1);
  });
});

describe("answers bounded in size", () => {
  it("does not send an answer past MAX_ANSWER_NODES, over GraphQL or REST", async () => {
    const small = await startTestApp({ db: t.db, env: { MAX_ANSWER_NODES: "10" } });
    const read = (await small
      .graphql(org.members.admin.token)
      .rawRequest("query ($id: ID!) { organization(id: $id) { members(first: 20) { nodes { id role } } } }", {
        id: org.organizationId,
      })
      .catch(
        (error: { response: { errors: { message: string; extensions: { code: string } }[] } }) => error.response,
      )) as {
      errors?: { message: string; extensions: { code: string } }[];
    };
    expect(read.errors?.[0]?.extensions.code).toBe("COST_LIMIT_EXCEEDED");
    expect(read.errors?.[0]?.message).toMatch(/more than the 10 one operation may return/);
    const listed = await small.rest<{ error: { code: number } }>("GET", `/orgs/${org.organizationId}/members`, {
      token: org.members.admin.token,
    });
    expect(listed.status).toBe(400);
  });
});
