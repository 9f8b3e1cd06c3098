import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GitBookAPI } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isForbiddenAddress } from "../../src/web/safe-fetch.ts";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

const petstore = {
  openapi: "3.0.3",
  info: { title: "Pets", version: "1.0.0" },
  paths: {
    "/pets": {
      get: {
        responses: {
          "200": {
            description: "The pets",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
          },
        },
      },
    },
  },
  components: { schemas: { Pet: { type: "object", properties: { name: { type: "string" } } } } },
};

const yamlSpec31 = `openapi: 3.1.0
info:
  title: From text
  version: "1"
paths:
  /health:
    get:
      responses:
        "200":
          description: ok
`;

const swagger2 = { swagger: "2.0", info: { title: "Old", version: "1" }, paths: {} };

const invalidSpec = {
  openapi: "3.0.0",
  info: { title: "No version" },
  paths: { "/a": { get: { responses: { "200": { $ref: "#/components/responses/Missing" } } } } },
};

interface SpecBody {
  id: string;
  slug: string;
  processingState: string;
  lastVersion?: string;
  lastProcessErrorCode?: string;
  lastProcessedErrors: { message: string; code?: string }[];
  visibility: string;
  urls: { location: string; published?: string };
}

interface VersionBody {
  id: string;
  url: string;
}

let t: TestApp;
let org: SeededOrganization;
let admin: string;
let source: { url: string; server: Server };
/** What the loopback server answers on /live.json (tests change it to make new versions). */
let liveDocument: object = petstore;

/** A loopback HTTP server standing in for the places specs are published. */
async function startSourceServer() {
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    if (path === "/petstore.json") return response.end(JSON.stringify(petstore));
    if (path === "/live.json") return response.end(JSON.stringify(liveDocument));
    if (path === "/swagger.json") return response.end(JSON.stringify(swagger2));
    if (path === "/invalid.json") return response.end(JSON.stringify(invalidSpec));
    if (path === "/big.json") return response.end(JSON.stringify({ ...petstore, padding: "x".repeat(64 * 1024) }));
    if (path === "/slow.json") return; // never answers
    if (path === "/moved.json") {
      response.writeHead(302, { location: "/petstore.json" });
      return response.end();
    }
    if (path === "/to-metadata") {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      return response.end();
    }
    if (path === "/to-private") {
      response.writeHead(307, { location: "http://10.1.2.3/spec.json" });
      return response.end();
    }
    response.writeHead(404);
    response.end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server };
}

beforeAll(async () => {
  t = await startTestApp({
    env: {
      OPENAPI_FETCH_ALLOW_HOSTS: "127.0.0.1",
      OPENAPI_FETCH_TIMEOUT_MS: "20000",
      OPENAPI_FETCH_MAX_BYTES: "32768",
    },
  });
  org = await seedOrganization(t.db, "Specs");
  admin = org.members.admin.token;
  source = await startSourceServer();
});

afterAll(async () => {
  source.server.closeAllConnections();
  await new Promise((resolve) => source.server.close(resolve));
});

const specPath = (slug = "") => `/orgs/${org.organizationId}/openapi${slug ? `/${slug}` : ""}`;

/** Runs the queued processing jobs with the app's configuration, or the one given. */
function processQueued(config = t.config) {
  return t.runJobs(config);
}

async function createFromUrl(slug: string, path: string) {
  const created = await t.rest<SpecBody>("POST", specPath(), {
    token: admin,
    body: { slug, source: { url: `${source.url}${path}` } },
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function getSpec(slug: string) {
  const response = await t.rest<SpecBody>("GET", specPath(slug), { token: admin });
  expect(response.status).toBe(200);
  expectMatchesSpec("getOpenAPISpecBySlug", 200, response.body);
  return response.body;
}

describe("OpenAPI specs from URLs", () => {
  it("fetches a loopback URL through the allow-list, and refuses the same URL without it", async () => {
    const created = await createFromUrl("loopback", "/petstore.json");
    expectMatchesSpec("createOpenAPISpec", 201, created);
    expect(created).toMatchObject({ object: "openapi-spec", slug: "loopback", processingState: "pending" });

    await processQueued({ ...t.config, openapiFetchAllowHosts: [] });
    const refused = await getSpec("loopback");
    expect(refused).toMatchObject({ processingState: "complete", lastProcessErrorCode: "FETCH_ERROR" });
    expect(refused.lastProcessedErrors[0]?.message).toMatch(/cannot be fetched/);
    expect(refused.lastVersion).toBeUndefined();
    expect((await t.rest("GET", `${specPath("loopback")}/versions/latest`, { token: admin })).status).toBe(404);

    const again = await t.rest("PUT", specPath("loopback"), {
      token: admin,
      body: { source: { url: `${source.url}/petstore.json` } },
    });
    expect(again.status).toBe(200);
    await processQueued();
    const fetched = await getSpec("loopback");
    expect(fetched).toMatchObject({ processingState: "complete" });
    expect(fetched.lastProcessErrorCode).toBeUndefined();
    expect(fetched.lastProcessedErrors).toEqual([]);

    const latest = await t.rest<VersionBody>("GET", `${specPath("loopback")}/versions/latest`, { token: admin });
    expectMatchesSpec("getLatestOpenAPISpecVersion", 200, latest.body);
    expect(latest.body.id).toBe(fetched.lastVersion);
    const content = await t.rest<{ filesystem: Record<string, unknown>; url: string }>(
      "GET",
      `${specPath("loopback")}/versions/latest/content`,
      { token: admin },
    );
    expectMatchesSpec("getLatestOpenAPISpecVersionContent", 200, content.body);
    expect(content.body.filesystem).toEqual({ "petstore.json": petstore });
    expect(content.body.url).toBe(latest.body.url);
  });

  it("follows redirects, and refuses one into a private or metadata address", async () => {
    await createFromUrl("moved", "/moved.json");
    await createFromUrl("to-metadata", "/to-metadata");
    await createFromUrl("to-private", "/to-private");
    await processQueued();
    expect(await getSpec("moved")).toMatchObject({ processingState: "complete" });
    expect((await getSpec("moved")).lastVersion).toBeDefined();
    for (const slug of ["to-metadata", "to-private"]) {
      const spec = await getSpec(slug);
      expect(spec).toMatchObject({ processingState: "complete", lastProcessErrorCode: "FETCH_ERROR" });
      expect(spec.lastVersion).toBeUndefined();
    }
  });

  it("gives up on sources over the size limit", async () => {
    await createFromUrl("too-big", "/big.json");
    await processQueued();
    const big = await getSpec("too-big");
    expect(big).toMatchObject({ processingState: "complete", lastProcessErrorCode: "FETCH_ERROR" });
    expect(big.lastProcessedErrors[0]?.message).toMatch(/larger than 32768 bytes/);
  });

  it("gives up on sources that do not answer in time, for good: a source this slow is not retried", async () => {
    await createFromUrl("too-slow", "/slow.json");
    // Only this run gets a short limit: the server never answers /slow.json.
    await processQueued({ ...t.config, openapiFetchTimeoutMs: 200 });
    const slow = await getSpec("too-slow");
    expect(slow).toMatchObject({ processingState: "complete", lastProcessErrorCode: "FETCH_TIMEOUT" });
    expect(slow.lastProcessedErrors[0]?.message).toMatch(/within 200 ms/);
    const job = await t.db.prisma.job.findFirstOrThrow({ where: { payload: { equals: { specId: slow.id } } } });
    expect(job).toMatchObject({ status: "done", attempts: 1 });
    // The engine holds no retry of it: each attempt would hold a worker for the whole limit again.
    const { rows } = await t.db.engineSql(`SELECT state FROM pgboss.job WHERE data->>'jobId' = $1`, [job.id]);
    expect(rows).toEqual([{ state: "completed" }]);
    expect((await t.rest("DELETE", specPath("too-slow"), { token: admin })).status).toBe(204);
  });

  it("does not retry a source that answers 4xx", async () => {
    await createFromUrl("not-found", "/not-found.json");
    await processQueued();
    const missing = await getSpec("not-found");
    expect(missing).toMatchObject({ processingState: "complete", lastProcessErrorCode: "FETCH_ERROR" });
    expect(missing.lastProcessedErrors[0]?.message).toMatch(/HTTP 404/);
    const job = await t.db.prisma.job.findFirstOrThrow({ where: { payload: { equals: { specId: missing.id } } } });
    expect(job).toMatchObject({ status: "done", attempts: 1 });
  });

  it("makes a new version only when the content changed, and keeps the last one when processing fails", async () => {
    liveDocument = petstore;
    await createFromUrl("live", "/live.json");
    await processQueued();
    const first = await getSpec("live");

    await t.rest("PUT", specPath("live"), { token: admin, body: { source: { url: `${source.url}/live.json` } } });
    await processQueued();
    expect((await getSpec("live")).lastVersion).toBe(first.lastVersion);

    liveDocument = { ...petstore, info: { title: "Pets", version: "2.0.0" } };
    await t.rest("PUT", specPath("live"), { token: admin, body: { source: { url: `${source.url}/live.json` } } });
    t.clock.advance(1000);
    await processQueued();
    const second = await getSpec("live");
    expect(second.lastVersion).not.toBe(first.lastVersion);

    liveDocument = invalidSpec;
    await t.rest("PUT", specPath("live"), { token: admin, body: { source: { url: `${source.url}/live.json` } } });
    await processQueued();
    const failed = await getSpec("live");
    expect(failed).toMatchObject({ lastProcessErrorCode: "PARSE_ERROR", lastVersion: second.lastVersion });
    expect(failed.lastProcessedErrors.length).toBeGreaterThan(0);

    const versions = await t.rest<{ items: VersionBody[]; count: number }>("GET", `${specPath("live")}/versions`, {
      token: admin,
    });
    expectMatchesSpec("listOpenAPISpecVersions", 200, versions.body);
    expect(versions.body.items.map((version) => version.id)).toEqual([second.lastVersion, first.lastVersion]);
    const old = await t.rest<{ filesystem: Record<string, { info: { version: string } }> }>(
      "GET",
      `${specPath("live")}/versions/${first.lastVersion}/content`,
      { token: admin },
    );
    expectMatchesSpec("getOpenAPISpecVersionContentById", 200, old.body);
    expect(old.body.filesystem["live.json"]?.info.version).toBe("1.0.0");
  });

  it("resumes the processing of a worker that crashed mid-way, once the engine's expiry takes the job back", async () => {
    const created = await createFromUrl("crashed", "/petstore.json");
    // As a worker that took the job and died leaves it: the row running, the spec in progress, the engine's job
    // active past its expiry (JOB_TIMEOUT_SECONDS and a margin); its retry is made immediate here.
    const job = await t.db.prisma.job.findFirstOrThrow({ where: { payload: { equals: { specId: created.id } } } });
    await t.db.prisma.job.update({ where: { id: job.id }, data: { status: "running", attempts: 1 } });
    await t.db.prisma.openAPISpec.update({ where: { id: created.id }, data: { processingState: "progress" } });
    await t.db.engineSql(
      `UPDATE pgboss.job SET state = 'active', started_on = now() - interval '1 hour', retry_delay = 0,
         retry_backoff = false WHERE data->>'jobId' = $1`,
      [job.id],
    );
    expect(await processQueued()).toBe(1);
    const resumed = await getSpec("crashed");
    expect(resumed).toMatchObject({ processingState: "complete" });
    expect(resumed.lastVersion).toBeDefined();
    expect(await t.db.prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
      status: "done",
      attempts: 2,
    });
  });

  it("processes Swagger 2.0 too", async () => {
    await createFromUrl("swagger", "/swagger.json");
    await processQueued();
    expect((await getSpec("swagger")).lastVersion).toBeDefined();
  });
});

describe("OpenAPI specs: rules", () => {
  it("validates slugs and sources, and refuses a taken slug", async () => {
    const bad = [
      { slug: "-bad", source: { text: "openapi: 3.1.0" } },
      { slug: "a".repeat(101), source: { text: "x" } },
      { slug: "ok", source: { url: "ftp://example.com/spec.json" } },
      { slug: "ok", source: { url: "https://example.com/a.json", text: "both" } },
      { slug: "ok", source: {} },
      { slug: "ok" },
      { slug: "ok", source: { text: "" } },
      { slug: "ok", source: { text: "x" }, extra: true },
    ];
    for (const body of bad) {
      const response = await t.rest("POST", specPath(), { token: admin, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({ error: { code: 400 } });
    }
    expect(
      (await t.rest("POST", specPath(), { token: admin, body: { slug: "dup", source: { text: "a" } } })).status,
    ).toBe(201);
    const taken = await t.rest("POST", specPath(), { token: admin, body: { slug: "dup", source: { text: "a" } } });
    expect(taken.status).toBe(409);
    expect((await t.rest("PATCH", specPath("dup"), { token: admin, body: { visibility: "everyone" } })).status).toBe(
      400,
    );
    expect(
      (await t.rest("PUT", specPath("not_a_slug"), { token: admin, body: { source: { text: "a" } } })).status,
    ).toBe(400);
  });

  it("lets readers read, creators write, and hides specs from other organizations", async () => {
    const reader = org.members.read.token;
    expect(
      (await t.rest("POST", specPath(), { token: reader, body: { slug: "r", source: { text: "a" } } })).status,
    ).toBe(403);
    const byCreator = await t.rest<SpecBody>("POST", specPath(), {
      token: org.members.create.token,
      body: { slug: "by-creator", source: { text: yamlSpec31 } },
    });
    expect(byCreator.status).toBe(201);
    const read = await t.rest<{ permissions: { view: boolean; edit: boolean } }>("GET", specPath("by-creator"), {
      token: reader,
    });
    expect(read.body.permissions).toEqual({ view: true, edit: false });

    const other = await seedOrganization(t.db, "Other");
    const foreign = await t.rest("GET", specPath("by-creator"), { token: other.members.admin.token });
    expect(foreign.status).toBe(404);
    expect((await t.rest("GET", specPath("missing"), { token: admin })).status).toBe(404);
    expect((await t.rest("GET", `${specPath("missing")}/versions`, { token: admin })).status).toBe(404);
    expect((await t.rest("GET", `${specPath("by-creator")}/versions/oasv_nope`, { token: admin })).status).toBe(404);
  });

  it("serves a version's source without a token only while the spec is public", async () => {
    await t.rest("POST", specPath(), { token: admin, body: { slug: "shared", source: { text: yamlSpec31 } } });
    await processQueued();
    const spec = await getSpec("shared");
    const version = await t.rest<VersionBody>("GET", `${specPath("shared")}/versions/${spec.lastVersion}`, {
      token: admin,
    });
    expectMatchesSpec("getOpenAPISpecVersionById", 200, version.body);
    const sourceUrl = version.body.url;
    expect((await t.app.fetch(new Request(sourceUrl))).status).toBe(401);
    const stranger = (await seedOrganization(t.db, "Strangers")).members.admin.token;
    const foreign = await t.app.fetch(new Request(sourceUrl, { headers: { authorization: `Bearer ${stranger}` } }));
    expect(foreign.status).toBe(404);
    const withToken = await t.app.fetch(new Request(sourceUrl, { headers: { authorization: `Bearer ${admin}` } }));
    expect(withToken.status).toBe(200);
    expect(await withToken.text()).toBe(yamlSpec31);

    const patched = await t.rest<SpecBody>("PATCH", specPath("shared"), {
      token: admin,
      body: { visibility: "public" },
    });
    expectMatchesSpec("updateOpenAPISpecBySlug", 200, patched.body);
    expect(patched.body).toMatchObject({ visibility: "public", urls: { published: sourceUrl } });
    const open = await t.app.fetch(new Request(sourceUrl));
    expect(open.status).toBe(200);
    expect(open.headers.get("content-type")).toMatch(/yaml/);
    expect(await open.text()).toBe(yamlSpec31);
  });

  it("PUT answers 201 when it creates and 200 when it updates; DELETE answers 204 even when missing", async () => {
    const created = await t.rest("PUT", specPath("put-me"), { token: admin, body: { source: { text: yamlSpec31 } } });
    expect(created.status).toBe(201);
    expectMatchesSpec("createOrUpdateOpenAPISpecBySlug", 201, created.body);
    const updated = await t.rest("PUT", specPath("put-me"), { token: admin, body: { source: { text: yamlSpec31 } } });
    expect(updated.status).toBe(200);
    expectMatchesSpec("createOrUpdateOpenAPISpecBySlug", 200, updated.body);
    for (let i = 0; i < 2; i++) {
      const deleted = await t.rest("DELETE", specPath("put-me"), { token: admin });
      expect(deleted.status).toBe(204);
      expectMatchesSpec("deleteOpenAPISpecBySlug", 204, deleted.body);
    }
    expect((await t.rest("GET", specPath("put-me"), { token: admin })).status).toBe(404);
  });
});

describe("OpenAPI specs through the official client", () => {
  it("creates, lists, processes and reads a spec given as text", async () => {
    const server = await listen(t.app);
    afterAll(() => server.close());
    const api = new GitBookAPI({ endpoint: server.url, authToken: admin });
    const orgId = org.organizationId;
    const created = await api.orgs.createOpenApiSpec(orgId, { slug: "client-spec", source: { text: yamlSpec31 } });
    expect(created.status).toBe(201);
    await processQueued();
    const list = await api.orgs.listOpenApiSpecs(orgId, { limit: 1000 });
    expectMatchesSpec("listOpenAPISpecs", 200, list.data);
    expect(list.data.items.map((spec) => spec.slug)).toContain("client-spec");
    const got = await api.orgs.getOpenApiSpecBySlug(orgId, "client-spec");
    expect(got.data).toMatchObject({ processingState: "complete" });
    const versions = await api.orgs.listOpenApiSpecVersions(orgId, "client-spec");
    expect(versions.data.items).toHaveLength(1);
    const latest = await api.orgs.getLatestOpenApiSpecVersion(orgId, "client-spec");
    const byId = await api.orgs.getOpenApiSpecVersionById(orgId, "client-spec", latest.data.id);
    expect(byId.data.id).toBe(latest.data.id);
    const content = await api.orgs.getOpenApiSpecVersionContentById(orgId, "client-spec", latest.data.id);
    expect(content.data.filesystem).toMatchObject({ "openapi.yaml": { openapi: "3.1.0" } });
    const latestContent = await api.orgs.getLatestOpenApiSpecVersionContent(orgId, "client-spec");
    expect(latestContent.data.filesystem).toEqual(content.data.filesystem);
    const put = await api.orgs.createOrUpdateOpenApiSpecBySlug(orgId, "client-spec", { source: { text: yamlSpec31 } });
    expect(put.status).toBe(200);
    const patched = await api.orgs.updateOpenApiSpecBySlug(orgId, "client-spec", { visibility: "public" as never });
    expect(patched.data.visibility).toBe("public");
    const deleted = await api.orgs.deleteOpenApiSpecBySlug(orgId, "client-spec");
    expect(deleted.status).toBe(204);
  });
});

describe("addresses a fetch refuses", () => {
  it("refuses loopback, private, link-local, CGNAT, metadata and IPv4-in-IPv6 forms, and accepts public ones", () => {
    for (const address of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fd00:ec2::254",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "64:ff9b::a00:1",
      "not-an-ip",
    ]) {
      expect(isForbiddenAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111"]) {
      expect(isForbiddenAddress(address), address).toBe(false);
    }
  });
});
