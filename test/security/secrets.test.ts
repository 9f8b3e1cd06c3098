import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

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
  plant(): Promise<{ value: string; disclosedTo: Exchange[] }>;
  carriers(value: string): { label: string; request: Request }[];
}

async function exchange(label: string, request: Request): Promise<Exchange> {
  const response = await t.app.fetch(request);
  return { label, status: response.status, text: await response.text() };
}

const graphqlRequest = (query: string, token?: string) =>
  new Request(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });

const rest = (path: string, init: RequestInit = {}) => new Request(`${baseUrl}/v1${path}`, init);

const secrets: Record<string, SecretRow> = {
  "API token": {
    async plant() {
      const created = await exchange(
        "createApiToken",
        graphqlRequest('mutation { createApiToken(input: { label: "marker" }) { token } }', org.members.edit.token),
      );
      return { value: JSON.parse(created.text).data.createApiToken.token, disclosedTo: [created] };
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
};
const sitePathOfKey = new Map<string, string>();

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
    expect(disclosedTo[0]?.text).toContain(value);
    const exchanges: Exchange[] = [];
    for (const carrier of row.carriers(value)) exchanges.push(await exchange(carrier.label, carrier.request));
    expect(exchanges.filter((entry) => entry.status >= 500)).toEqual([]);
    expect(exchanges.filter((entry) => entry.text.includes(value)).map((entry) => entry.label)).toEqual([]);
    expect(logLines.filter((line) => line.includes(value))).toEqual([]);
    expect(logLines.length).toBeGreaterThan(exchanges.length);
    const stored = await databaseText();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored).not.toContain(value);
  });
});
