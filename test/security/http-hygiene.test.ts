import { beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/platform/config.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

const allowed = "https://app.example.com";
const foreign = "https://evil.example.net";

let closed: TestApp;
let open: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  closed = await startTestApp();
  open = await startTestApp({ db: closed.db, env: { CORS_ORIGINS: `${allowed}, http://localhost:5173` } });
  org = await seedOrganization(closed.db, "Hygiene");
});

function call(t: TestApp, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  return t.app.fetch(
    new Request(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
}

const graphqlBody = (query: string) => ({ query });
const preflight = (origin: string) => ({
  origin,
  "access-control-request-method": "POST",
  "access-control-request-headers": "authorization, content-type",
});

function expectSecurityHeaders(response: Response, name = "") {
  expect(response.headers.get("x-content-type-options"), name).toBe("nosniff");
  expect(response.headers.get("x-frame-options"), name).toBe("DENY");
  expect(response.headers.get("referrer-policy"), name).toBe("no-referrer");
  expect(response.headers.get("content-security-policy"), name).toContain("frame-ancestors 'none'");
}

describe("CORS", () => {
  it("is off by default: no Access-Control-Allow-Origin for a foreign origin, and preflights are refused", async () => {
    const token = org.members.read.token;
    for (const path of ["/graphql", "/v1/orgs"]) {
      const refused = await call(closed, "OPTIONS", path, preflight(foreign));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: { code: 403, message: expect.any(String) } });
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
      expect(refused.headers.get("access-control-allow-credentials")).toBeNull();
    }
    const rest = await call(closed, "GET", "/v1/orgs", { origin: foreign, authorization: `Bearer ${token}` });
    expect(rest.status).toBe(200);
    const graphql = await call(
      closed,
      "POST",
      "/graphql",
      { origin: foreign, authorization: `Bearer ${token}` },
      graphqlBody("{ viewer { user { id } } }"),
    );
    expect(graphql.status).toBe(200);
    for (const response of [rest, graphql]) {
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("with CORS_ORIGINS, allows exactly those origins, on /graphql and /v1 alike", async () => {
    const token = org.members.read.token;
    for (const path of ["/graphql", "/v1/orgs"]) {
      const ok = await call(open, "OPTIONS", path, preflight(allowed));
      expect(ok.status).toBe(204);
      expect(ok.headers.get("access-control-allow-origin")).toBe(allowed);
      expect(ok.headers.get("access-control-allow-methods")).toContain("POST");
      expect(ok.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
      expect(ok.headers.get("vary")).toContain("Origin");
      const refused = await call(open, "OPTIONS", path, preflight(foreign));
      expect(refused.status).toBe(403);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    }
    const rest = await call(open, "GET", "/v1/orgs", { origin: allowed, authorization: `Bearer ${token}` });
    expect(rest.status).toBe(200);
    expect(rest.headers.get("access-control-allow-origin")).toBe(allowed);
    expect(rest.headers.get("access-control-expose-headers")).toContain("X-Request-Id");
    const graphql = await call(
      open,
      "POST",
      "/graphql",
      { origin: allowed, authorization: `Bearer ${token}` },
      graphqlBody("{ viewer { user { id } } }"),
    );
    expect(graphql.status).toBe(200);
    expect(graphql.headers.get("access-control-allow-origin")).toBe(allowed);
    // Errors are readable by the allowed page too (it must see the 401 to ask for a token).
    const unauthorized = await call(open, "GET", "/v1/orgs", { origin: allowed });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe(allowed);
    // A foreign origin still gets nothing, and nobody gets credentials (tokens are headers, not cookies).
    const other = await call(open, "GET", "/v1/orgs", { origin: foreign, authorization: `Bearer ${token}` });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(rest.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("refuses to start with a CORS_ORIGINS entry that is no exact origin", () => {
    for (const bad of ["*", "https://app.example.com/", "https://app.example.com/path", "app.example.com", "null"]) {
      expect(() => loadConfig({ CORS_ORIGINS: bad, SECRETS_KEY: "0".repeat(64) })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ CORS_ORIGINS: "*", SECRETS_KEY: "0".repeat(64) })).toThrow(/CORS_ORIGINS/);
  });
});

describe("security headers", () => {
  it("are on 200, 404 and 401 answers of REST and GraphQL, health, metrics and unknown paths", async () => {
    const token = org.members.read.token;
    const responses = {
      rest200: await call(closed, "GET", `/v1/orgs/${org.organizationId}`, { authorization: `Bearer ${token}` }),
      rest404: await call(closed, "GET", "/v1/orgs/org_doesnotexist", { authorization: `Bearer ${token}` }),
      rest401: await call(closed, "GET", "/v1/orgs", { authorization: "Bearer not-a-token" }),
      graphql200: await call(
        closed,
        "POST",
        "/graphql",
        { authorization: `Bearer ${token}` },
        graphqlBody("{ viewer { user { id } } }"),
      ),
      graphqlNotFound: await call(
        closed,
        "POST",
        "/graphql",
        { authorization: `Bearer ${token}` },
        graphqlBody(`{ organization(id: "org_doesnotexist") { id } }`),
      ),
      graphql401: await call(
        closed,
        "POST",
        "/graphql",
        { authorization: "Bearer not-a-token" },
        graphqlBody("{ viewer { user { id } } }"),
      ),
      healthz: await call(closed, "GET", "/healthz"),
      readyz: await call(closed, "GET", "/readyz"),
      metrics: await call(closed, "GET", "/metrics"),
      unknown: await call(closed, "GET", "/nothing-here"),
    };
    expect(responses.rest200.status).toBe(200);
    expect(responses.rest404.status).toBe(404);
    expect(responses.rest401.status).toBe(401);
    expect(responses.graphql200.status).toBe(200);
    expect(await responses.graphqlNotFound.json()).toMatchObject({ errors: [{ extensions: { code: "NOT_FOUND" } }] });
    expect(await responses.graphql401.json()).toMatchObject({ errors: [{ extensions: { code: "UNAUTHENTICATED" } }] });
    expect(responses.unknown.status).toBe(404);
    for (const [name, response] of Object.entries(responses)) {
      expectSecurityHeaders(response, name);
    }
  });

  it("give the GraphiQL page a policy that allows its one inline script by hash and its workers on this origin", async () => {
    const page = await call(closed, "GET", "/graphql", { accept: "text/html" });
    expect(page.status).toBe(200);
    expectSecurityHeaders(page);
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(policy).not.toContain("unsafe-eval");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("worker-src 'self'");
    const html = await page.text();
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    const digest = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(script))).toString(
      "base64",
    );
    expect(policy).toContain(`'sha256-${digest}'`);
  });
});

describe("Cache-Control", () => {
  it("is no-store on API answers, among them the one carrying a new API token", async () => {
    const token = org.members.read.token;
    const created = await call(
      closed,
      "POST",
      "/graphql",
      { authorization: `Bearer ${token}` },
      graphqlBody(`mutation { createAPIToken(input: { label: "ci" }) { token } }`),
    );
    const body = (await created.json()) as { data: { createAPIToken: { token: string } } };
    expect(body.data.createAPIToken.token).toEqual(expect.any(String));
    expect(created.headers.get("cache-control")).toBe("no-store");
    const rest = await call(closed, "GET", "/v1/orgs", { authorization: `Bearer ${token}` });
    expect(rest.headers.get("cache-control")).toBe("no-store");
    const refused = await call(closed, "GET", "/v1/orgs");
    expect(refused.headers.get("cache-control")).toBe("no-store");
  });
});
