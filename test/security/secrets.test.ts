import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../src/db/generated/client.ts";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { commitFiles, createBareRepository, repositoryRoot, serveRepositories } from "../helpers/git-repo.ts";

const logLines: string[] = [];
let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp({ log: (line) => logLines.push(line) });
  org = await seedOrganization(t.db, "Secrets");
});

interface Exchange {
  label: string;
  status: number;
  text: string;
}

/**
 * One kind of secret: how it is created (the one response allowed to show it, and any responses meant for the
 * people who manage it), and the requests that carry it in every place a client may put it.
 */
interface SecretRow {
  /** `disclosedTo`: the responses meant to show the value (the first one does); none for a write-only secret. */
  plant(): Promise<{ value: string; disclosedTo: Exchange[] }>;
  carriers(value: string): { label: string; request: Request }[];
}

async function exchange(label: string, request: Request): Promise<Exchange> {
  const response = await t.app.fetch(request);
  return { label, status: response.status, text: await response.text() };
}

const graphqlRequest = (query: string, token?: string, headers: Record<string, string> = {}) =>
  new Request(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ query }),
  });

const rest = (path: string, init: RequestInit = {}) => new Request(`${baseUrl}/v1${path}`, init);

/**
 * Sends the request twice with one `Idempotency-Key`: the replay answers the same status and body, and the
 * caller's record of the key is kept (so the database dump below covers it).
 */
async function idempotent(label: string, request: (key: string) => Request): Promise<Exchange> {
  const key = `secrets-${label.replaceAll(" ", "-")}`;
  const first = await exchange(label, request(key));
  const response = await t.app.fetch(request(key));
  expect(response.headers.get("idempotent-replayed")).toBe("true");
  expect({ status: response.status, text: await response.text() }).toEqual({ status: first.status, text: first.text });
  const records = await t.db.prisma.idempotencyRecord.findMany({ where: { key } });
  expect(records.map((record) => record.state)).toEqual(["done"]);
  return first;
}

const adminHeaders = () => ({ authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/json" });

/** A new published site of the organization with this visibility; its REST path. */
async function publishedSite(title: string, visibility: string): Promise<{ siteId: string; sitePath: string }> {
  const site = await exchange(
    "createSite",
    rest(`/orgs/${org.organizationId}/sites`, {
      method: "POST",
      headers: adminHeaders(),
      body: JSON.stringify({ title, visibility }),
    }),
  );
  const siteId = JSON.parse(site.text).id as string;
  const sitePath = `/orgs/${org.organizationId}/sites/${siteId}`;
  await t.app.fetch(rest(`${sitePath}/publish`, { method: "POST", headers: adminHeaders() }));
  return { siteId, sitePath };
}

const shareKeyOf = (publishedUrl: string) => new URL(publishedUrl).searchParams.get("shareKey") as string;

const secrets: Record<string, SecretRow> = {
  "API token": {
    async plant() {
      const created = await exchange(
        "createAPIToken",
        graphqlRequest('mutation { createAPIToken(input: { label: "marker" }) { token } }', org.members.edit.token),
      );
      return { value: JSON.parse(created.text).data.createAPIToken.token, disclosedTo: [created] };
    },
    carriers: (token) => {
      const bearer = { authorization: `Bearer ${token}` };
      return [
        { label: "GET /orgs", request: rest("/orgs", { headers: bearer }) },
        { label: "missing object", request: rest("/orgs/org_missing", { headers: bearer }) },
        {
          label: "forbidden write",
          request: rest(`/orgs/${org.organizationId}`, { method: "PATCH", headers: bearer, body: "{}" }),
        },
        {
          label: "malformed body",
          request: rest(`/orgs/${org.organizationId}/spaces`, { method: "POST", headers: bearer, body: "{" }),
        },
        { label: "token in the query string", request: rest(`/orgs?token=${token}&access_token=${token}`) },
        {
          label: "token as a basic credential",
          request: rest("/orgs", { headers: { authorization: `Basic ${token}` } }),
        },
        { label: "GraphQL error", request: graphqlRequest(`{ organization(id: "org_missing") { id } }`, token) },
        {
          label: "GraphQL viewer tokens",
          request: graphqlRequest("{ viewer { apiTokens { nodes { id label } } } }", token),
        },
        { label: "GraphQL syntax error", request: graphqlRequest(`{ viewer ${token} `, token) },
      ];
    },
  },
  "share-link key": {
    async plant() {
      const admin = { authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/json" };
      const site = await exchange(
        "createSite",
        rest(`/orgs/${org.organizationId}/sites`, { method: "POST", headers: admin, body: '{"title":"Secret site"}' }),
      );
      const siteId = JSON.parse(site.text).id as string;
      const sitePath = `/orgs/${org.organizationId}/sites/${siteId}`;
      await t.app.fetch(rest(sitePath, { method: "PATCH", headers: admin, body: '{"visibility":"share-link"}' }));
      await t.app.fetch(rest(`${sitePath}/publish`, { method: "POST", headers: admin }));
      const created = await exchange(
        "createSiteShareLink",
        rest(`${sitePath}/share-links`, { method: "POST", headers: admin, body: '{"name":"marker"}' }),
      );
      const listed = await exchange("listSiteShareLinks", rest(`${sitePath}/share-links`, { headers: admin }));
      const value = new URL(JSON.parse(created.text).urls.published).searchParams.get("shareKey") as string;
      sitePathOfKey.set(value, sitePath);
      return { value, disclosedTo: [created, listed] };
    },
    carriers: (key) => {
      const sitePath = sitePathOfKey.get(key) as string;
      const [, , organizationId, , siteId] = sitePath.split("/");
      return [
        { label: "published content", request: rest(`${sitePath}/published?shareKey=${key}`) },
        { label: "sections", request: rest(`${sitePath}/sections?shareKey=${key}&limit=5000`) },
        { label: "site spaces with a bad page", request: rest(`${sitePath}/site-spaces?shareKey=${key}&page=@@`) },
        { label: "another site", request: rest(`/orgs/${organizationId}/sites/site_other/published?shareKey=${key}`) },
        { label: "wrong key", request: rest(`${sitePath}/published?shareKey=${key}x`) },
        { label: "no route", request: rest(`/nowhere?shareKey=${key}`) },
        { label: "member listing", request: rest(`/orgs/${organizationId}/members?shareKey=${key}`) },
        {
          label: "GraphQL published",
          request: graphqlRequest(
            `{ publishedContentSite(organizationId: "${organizationId}", siteId: "${siteId}", shareKey: "${key}x") { site { id } } }`,
          ),
        },
      ];
    },
  },
  "Git URL password": {
    async plant() {
      const password = "git-marker-Pw-31337";
      const user = { name: "marker-bot", password };
      const root = repositoryRoot();
      commitFiles(createBareRepository(root, "secret"), "main", { "README.md": "# Secret docs\n" }, "Docs");
      const server = await serveRepositories(root, user);
      const admin = { authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/json" };
      const space = await exchange(
        "createSpace",
        rest(`/orgs/${org.organizationId}/spaces`, { method: "POST", headers: admin, body: '{"title":"Git"}' }),
      );
      const spaceId = JSON.parse(space.text).id as string;
      gitSpaceOfPassword.set(password, { spaceId, url: server.url("secret", user) });
      const git = (direction: string, body: object) =>
        exchange(
          `git ${direction}`,
          rest(`/spaces/${spaceId}/git/${direction}`, { method: "POST", headers: admin, body: JSON.stringify(body) }),
        );
      const imported = await git("import", { url: server.url("secret", user), ref: "refs/heads/main" });
      expect(imported.status).toBe(204);
      await runLoggedJobs();
      // Used: the Git server received it, and the import landed.
      const basic = `Basic ${Buffer.from(`${user.name}:${password}`).toString("base64")}`;
      expect(server.authorizations).toContain(basic);
      expect(await t.db.prisma.revision.count({ where: { spaceId, git: { not: Prisma.DbNull } } })).toBe(1);
      // A failing export (nothing listens on port 1) puts the URL in git's error, a job failure and a log line.
      const failing = await git("export", {
        url: `http://${user.name}:${password}@127.0.0.1:1/secret.git`,
        ref: "refs/heads/main",
        commitMessage: "Fails",
      });
      expect(failing.status).toBe(204);
      await runLoggedJobs();
      expect(logLines.some((line) => line.includes("git ls-remote failed"))).toBe(true);
      return { value: password, disclosedTo: [] };
    },
    carriers: (password) => {
      const { spaceId, url } = gitSpaceOfPassword.get(password) as { spaceId: string; url: string };
      const admin = { authorization: `Bearer ${org.members.admin.token}`, "content-type": "application/json" };
      const post = (label: string, body: object) => ({
        label,
        request: rest(`/spaces/${spaceId}/git/import`, { method: "POST", headers: admin, body: JSON.stringify(body) }),
      });
      return [
        { label: "git info", request: rest(`/spaces/${spaceId}/git/info`, { headers: admin }) },
        { label: "space", request: rest(`/spaces/${spaceId}`, { headers: admin }) },
        { label: "content", request: rest(`/spaces/${spaceId}/content`, { headers: admin }) },
        post("bad ref", { url, ref: "main" }),
        post("bad scheme", { url: url.replace("http:", "ftp:"), ref: "refs/heads/main" }),
        post("unknown field", { url, ref: "refs/heads/main", password }),
        {
          label: "GraphQL gitSync",
          request: graphqlRequest(
            `{ space(id: "${spaceId}") { gitSync { url repoName operation { error state } } } }`,
            org.members.admin.token,
          ),
        },
      ];
    },
  },
  "API token created with an Idempotency-Key": {
    async plant() {
      const created = await idempotent("createAPIToken", (key) =>
        graphqlRequest('mutation { createAPIToken(input: { label: "replayed" }) { token } }', org.members.edit.token, {
          "idempotency-key": key,
        }),
      );
      return { value: JSON.parse(created.text).data.createAPIToken.token, disclosedTo: [created] };
    },
    carriers: (token) => secrets["API token"]?.carriers(token) ?? [],
  },
  "share-link key created with an Idempotency-Key (REST)": {
    async plant() {
      const { sitePath } = await publishedSite("Replayed REST", "share-link");
      const created = await idempotent("createSiteShareLink REST", (key) =>
        rest(`${sitePath}/share-links`, {
          method: "POST",
          headers: { ...adminHeaders(), "idempotency-key": key },
          body: '{"name":"replayed"}',
        }),
      );
      const value = shareKeyOf(JSON.parse(created.text).urls.published);
      sitePathOfKey.set(value, sitePath);
      return { value, disclosedTo: [created] };
    },
    carriers: (key) => secrets["share-link key"]?.carriers(key) ?? [],
  },
  "share-link key created with an Idempotency-Key (GraphQL)": {
    async plant() {
      const { siteId, sitePath } = await publishedSite("Replayed GraphQL", "share-link");
      const created = await idempotent("createSiteShareLink GraphQL", (key) =>
        graphqlRequest(
          `mutation { createSiteShareLink(input: { organizationId: "${org.organizationId}", siteId: "${siteId}", name: "replayed" }) { shareLink { urls { published } } } }`,
          org.members.admin.token,
          { "idempotency-key": key },
        ),
      );
      const value = shareKeyOf(JSON.parse(created.text).data.createSiteShareLink.shareLink.urls.published);
      sitePathOfKey.set(value, sitePath);
      return { value, disclosedTo: [created] };
    },
    carriers: (key) => secrets["share-link key"]?.carriers(key) ?? [],
  },
  "visitor-auth key": {
    async plant() {
      const { siteId, sitePath } = await publishedSite("Visitor site", "visitor-auth");
      const read = await exchange(
        "visitorAuthKey",
        graphqlRequest(
          `{ organization(id: "${org.organizationId}") { site(id: "${siteId}") { visitorAuthKey } } }`,
          org.members.admin.token,
        ),
      );
      const value = JSON.parse(read.text).data.organization.site.visitorAuthKey as string;
      expect(value).toMatch(/^[0-9A-Za-z]{43}$/);
      const jwt = await new SignJWT({ plan: "pro" })
        .setProtectedHeader({ alg: "HS256" })
        .setExpirationTime(new Date("2099-01-01T00:00:00Z"))
        .sign(new TextEncoder().encode(value));
      // Used: a JWT it signs opens the published site.
      const opened = await t.app.fetch(rest(`${sitePath}/published`, { headers: { authorization: `Bearer ${jwt}` } }));
      expect(opened.status).toBe(200);
      visitorSiteOfKey.set(value, { sitePath, jwt });
      return { value, disclosedTo: [read] };
    },
    carriers: (key) => {
      const { sitePath, jwt } = visitorSiteOfKey.get(key) as { sitePath: string; jwt: string };
      return [
        {
          label: "published with a JWT",
          request: rest(`${sitePath}/published`, { headers: { authorization: `Bearer ${jwt}` } }),
        },
        {
          label: "the key as the bearer",
          request: rest(`${sitePath}/published`, { headers: { authorization: `Bearer ${key}` } }),
        },
        { label: "site", request: rest(sitePath, { headers: adminHeaders() }) },
        { label: "sites", request: rest(`/orgs/${org.organizationId}/sites`, { headers: adminHeaders() }) },
      ];
    },
  },
};
const sitePathOfKey = new Map<string, string>();
const visitorSiteOfKey = new Map<string, { sitePath: string; jwt: string }>();

/** Runs the queued jobs (the app's logger collects the test's log lines). */
const runLoggedJobs = () => t.runJobs();
const gitSpaceOfPassword = new Map<string, { spaceId: string; url: string }>();

async function databaseText(): Promise<string> {
  return t.db.withRawConnection(async (connection) => {
    const tables = await connection.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    const rows: string[] = [];
    for (const { table_name } of tables) {
      const dump = await connection.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`);
      rows.push(...dump.map((entry) => `${table_name}: ${entry.row}`));
    }
    return rows.join("\n");
  });
}

describe("planted secrets", () => {
  it.each(
    Object.entries(secrets),
  )("%s: never in a response it is not meant for, a log line or the database", async (_, row) => {
    const { value, disclosedTo } = await row.plant();
    for (const disclosure of disclosedTo.slice(0, 1)) expect(disclosure.text).toContain(value);
    const exchanges: Exchange[] = [];
    for (const carrier of row.carriers(value)) exchanges.push(await exchange(carrier.label, carrier.request));
    expect(exchanges.filter((entry) => entry.status >= 500)).toEqual([]);
    expect(exchanges.filter((entry) => entry.text.includes(value)).map((entry) => entry.label)).toEqual([]);
    expect(logLines.filter((line) => line.includes(value))).toEqual([]);
    expect(logLines.length).toBeGreaterThan(exchanges.length);
    const stored = await databaseText();
    expect(stored.length).toBeGreaterThan(0);
    // The tables of the rows that hold it (none): names the culprit on failure, not the whole dump.
    const holders = stored.split("\n").filter((line) => line.includes(value));
    expect(holders.map((line) => line.slice(0, line.indexOf(":")))).toEqual([]);
  });
});
