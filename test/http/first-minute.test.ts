import { request as httpRequest } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import {
  baseUrl,
  listen,
  type SeededOrganization,
  seedOrganization,
  startTestApp,
  type TestApp,
} from "../helpers/app.ts";

let t: TestApp;
let org: SeededOrganization;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  t = await startTestApp({ log: (line) => logLines.push(JSON.parse(line)), logLevel: "debug" });
  org = await seedOrganization(t.db, "First Minute Org");
});

const call = (method: string, path: string, headers: Record<string, string> = {}) =>
  t.app.fetch(new Request(`${baseUrl}${path}`, { method, headers }));

describe("/", () => {
  it("sends a browser to GraphiQL", async () => {
    const browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
    for (const method of ["GET", "HEAD"]) {
      const response = await call(method, "/", { accept: browserAccept });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/graphql");
    }
    const graphiql = await call("GET", "/graphql", { accept: browserAccept });
    expect(await graphiql.text()).toContain("YogaGraphiQL");
  });

  it("answers an API client with the service's links", async () => {
    for (const accept of ["application/json", "*/*", ""]) {
      const response = await call("GET", "/", accept ? { accept } : {});
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(await response.json()).toEqual({
        links: {
          graphql: `${baseUrl}/graphql`,
          graphiql: `${baseUrl}/graphql`,
          rest: `${baseUrl}/v1`,
          openapi: `${baseUrl}/v1/openapi.json`,
          health: { live: `${baseUrl}/livez`, ready: `${baseUrl}/readyz` },
          metrics: `${baseUrl}/metrics`,
        },
      });
    }
    const openapi = await call("GET", "/v1/openapi.json");
    expect(openapi.status).toBe(200);
  });
});

describe("HEAD", () => {
  it("answers with GET's status and headers and no body, wherever GET answers", async () => {
    const authorization = `Bearer ${org.members.admin.token}`;
    const cases: [string, Record<string, string>][] = [
      ["/", { accept: "application/json" }],
      ["/graphql", { accept: "text/html" }],
      ["/graphql?query=%7B__typename%7D", { accept: "application/json" }],
      ["/graphql", { accept: "application/json" }],
      [`/v1/orgs/${org.organizationId}`, { authorization }],
      [`/v1/orgs/${org.organizationId}/spaces`, { authorization }],
      [`/v1/orgs/${org.organizationId}`, {}],
      ["/v1/orgs/unknown-org", { authorization }],
      ["/v1/openapi.json", {}],
      ["/livez", {}],
      ["/readyz", {}],
      ["/healthz", {}],
      ["/metrics", {}],
      ["/no-such-path", {}],
    ];
    for (const [path, headers] of cases) {
      const get = await call("GET", path, headers);
      await get.arrayBuffer();
      const head = await call("HEAD", path, headers);
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get("content-type"), path).toBe(get.headers.get("content-type"));
      expect(head.headers.get("vary"), path).toBe(get.headers.get("vary"));
      if (!path.startsWith("/metrics")) {
        expect(head.headers.get("content-length"), path).toBe(get.headers.get("content-length"));
      }
      expect(await head.text(), path).toBe("");
    }
    expect((await call("HEAD", "/graphql", { accept: "text/html" })).status).toBe(200);
    expect((await call("HEAD", `/v1/orgs/${org.organizationId}`, { authorization })).status).toBe(200);
  });

  it("is answered over a real connection without a body", async () => {
    const server = await listen(t.app);
    try {
      const { status, body } = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
        const request = httpRequest(`${server.url}/graphql`, { method: "HEAD", headers: { accept: "text/html" } });
        request.on("response", (response) => {
          let body = "";
          response.on("data", (chunk) => {
            body += chunk;
          });
          response.on("end", () => resolve({ status: response.statusCode, body }));
        });
        request.on("error", reject);
        request.end();
      });
      expect(status).toBe(200);
      expect(body).toBe("");
    } finally {
      await server.close();
    }
  });
});

describe("health probes in the log", () => {
  it("are logged at debug level, other requests at info", async () => {
    logLines.length = 0;
    for (const path of ["/livez", "/healthz", "/readyz", "/metrics"]) {
      expect((await call("GET", path)).status).toBe(200);
    }
    expect((await call("GET", `/v1/orgs/${org.organizationId}`)).status).toBe(401);
    const requests = logLines.filter((line) => line.message === "request");
    const levelOf = (path: string) => requests.filter((line) => line.path === path).map((line) => line.level);
    for (const path of ["/livez", "/healthz", "/readyz", "/metrics"]) expect(levelOf(path), path).toEqual(["debug"]);
    expect(levelOf(`/v1/orgs/${org.organizationId}`)).toEqual(["info"]);
  });
});
