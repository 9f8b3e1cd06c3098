import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { listen, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ log: (line) => lines.push(line) });
});

describe("operations", () => {
  it("logs one JSON line per request with its request id, and never the token", async () => {
    const org = await seedOrganization(t.db, "Logged");
    lines.length = 0;
    const response = await t.app.fetch(
      new Request(`http://gateway.test/v1/orgs/${org.organizationId}?shareKey=secret-share-key`, {
        headers: { authorization: `Bearer ${org.members.admin.token}`, "x-request-id": "req-123" },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("req-123");
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0] as string);
    expect(Object.keys(entry)).toEqual([
      "level",
      "time",
      "requestId",
      "method",
      "path",
      "status",
      "durationMs",
      "message",
    ]);
    expect(entry).toMatchObject({
      level: "info",
      requestId: "req-123",
      method: "GET",
      path: `/v1/orgs/${org.organizationId}`,
      status: 200,
    });
    // The time is the wall clock's, in UTC ISO 8601 to the millisecond.
    expect(entry.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Math.abs(Date.parse(entry.time) - Date.now())).toBeLessThan(60_000);
    expect(lines.join("")).not.toContain(org.members.admin.token);
    expect(lines.join("")).not.toContain("secret-share-key");
  });

  it("answers JSON as UTF-8 with its byte length, multi-byte titles included", async () => {
    const org = await seedOrganization(t.db, "Encoded");
    const send = async (path: string, init: RequestInit = {}) => {
      const response = await t.app.fetch(
        new Request(`http://gateway.test${path}`, {
          ...init,
          headers: { authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/json" },
        }),
      );
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
      return JSON.parse(bytes.toString("utf8"));
    };
    const titles = ["Ünïcødé 📘 中文 one", "Ünïcødé 📘 中文 two", "Ünïcødé 📘 中文 three"];
    const created = [];
    for (const title of titles) {
      created.push(
        await send(`/v1/orgs/${org.organizationId}/spaces`, { method: "POST", body: JSON.stringify({ title }) }),
      );
    }
    expect(created.map((space) => space.title)).toEqual(titles);
    const listed = await send(`/v1/orgs/${org.organizationId}/spaces?limit=100`);
    expect(listed.items.map((space: { title: string }) => space.title)).toEqual(expect.arrayContaining(titles));
    expect((await send(`/v1/spaces/${created[0].id}`)).title).toBe(titles[0]);
    expect((await send(`/v1/orgs/${org.organizationId}`)).id).toBe(org.organizationId);
  });

  it("answers REST bodies with the document's fields in order, nulls left out unless the field keeps them", async () => {
    const org = await seedOrganization(t.db, "Shaped");
    const token = org.members.admin.token;
    const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token,
      body: { title: "Shaped", emoji: "📘" },
    });
    const patched = await t.rest("PATCH", `/spaces/${created.body.id}`, { token, body: { defaultLevel: null } });
    expect(patched.status).toBe(200);
    const text = async (path: string) =>
      (
        await t.app.fetch(
          new Request(`http://gateway.test/v1${path}`, { headers: { authorization: `Bearer ${token}` } }),
        )
      ).text();
    const spaceKeys = [
      "object",
      "id",
      "title",
      "emoji",
      "visibility",
      "createdAt",
      "updatedAt",
      "editMode",
      "mergeRules",
      "urls",
      "organization",
      "revision",
      "defaultLevel",
      "comments",
      "changeRequests",
      "changeRequestsOpen",
      "changeRequestsDraft",
      "permissions",
    ];
    const single = await text(`/spaces/${created.body.id}`);
    expect(Object.keys(JSON.parse(single))).toEqual(spaceKeys);
    // A space without a parent collection: `parent` is left out, `defaultLevel` is kept as null.
    expect(single).toContain('"defaultLevel":null');
    expect(single).not.toContain('"parent"');
    const listed = JSON.parse(await text(`/orgs/${org.organizationId}/spaces?limit=100`));
    expect(Object.keys(listed)).toEqual(["items", "count"]);
    expect(listed.items.map((space: object) => Object.keys(space))).toEqual(listed.items.map(() => spaceKeys));
  });

  it("answers /healthz without a token", async () => {
    const response = await t.app.fetch(new Request("http://gateway.test/healthz"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("refuses request bodies over 1 MiB with 413", async () => {
    const org = await seedOrganization(t.db, "Big bodies");
    const response = await t.rest("PATCH", `/orgs/${org.organizationId}`, {
      token: org.members.admin.token,
      rawBody: JSON.stringify({ title: "x".repeat(1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ error: { code: 413 } });
    // GraphQL requests pass the same guard (yoga's own body limit is off: the guard has read the body already).
    const graphql = await t.app.fetch(
      new Request("http://gateway.test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${org.members.admin.token}` },
        body: JSON.stringify({ query: "{ __typename }", variables: { padding: "x".repeat(1024 * 1024) } }),
      }),
    );
    expect(graphql.status).toBe(413);
    expect(await graphql.json()).toMatchObject({ error: { code: 413 } });
  });

  it("reads bodies from node's request stream on a real server: chunked, over the limit, or cut off", async () => {
    const org = await seedOrganization(t.db, "Streamed bodies");
    const server = await listen(t.app);
    /** Sends `chunks` as a chunked body (no content-length), or stops after them when `cutOff`. */
    const send = (path: string, chunks: string[], cutOff = false) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const outgoing = httpRequest(`${server.url}${path}`, {
          method: path === "/graphql" ? "POST" : "PATCH",
          headers: { "content-type": "application/json", authorization: `Bearer ${org.members.admin.token}` },
        });
        outgoing.on("response", (response) => {
          let body = "";
          response.on("data", (chunk) => {
            body += chunk;
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        });
        outgoing.on("error", (error) => (cutOff ? resolve({ status: 0, body: "" }) : reject(error)));
        for (const chunk of chunks) outgoing.write(chunk);
        if (cutOff) setImmediate(() => outgoing.destroy());
        else outgoing.end();
      });
    try {
      const query = JSON.stringify({
        query: "query Org($id: ID!) { organization(id: $id) { title } }",
        variables: { id: org.organizationId },
      });
      const split = await send("/graphql", [query.slice(0, 5), query.slice(5, 12), query.slice(12)]);
      expect(split.status).toBe(200);
      expect(JSON.parse(split.body)).toMatchObject({ data: { organization: { title: "Streamed bodies" } } });

      const megabyte = "x".repeat(512 * 1024);
      const tooLarge = await send(`/v1/orgs/${org.organizationId}`, ['{"title":"', megabyte, megabyte, '"}']);
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.body)).toMatchObject({ error: { code: 413 } });

      await send("/graphql", ['{"query":"{ organiz'], true);
      const after = await send("/graphql", [query]);
      expect(JSON.parse(after.body)).toMatchObject({ data: { organization: { title: "Streamed bodies" } } });
    } finally {
      await server.close();
    }
  });
});
