import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

// `npm start` runs a bundle with most packages compiled in (scripts/build.mjs); the rest of the suite runs src/.
// This file drives the bundle through what loads packages in their own ways: GraphiQL's page (imported on first
// request), markdown conversion (bundled), the OpenAPI document, the nested read, on the embedded database.
let server: ServerProcess;
let token = "";
const dataDir = mkdtempSync(join(tmpdir(), "server-bundle-"));

beforeAll(async () => {
  server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: "", RUN_JOBS: "false" });
  const deadline = Date.now() + 60_000;
  while (!/Admin token \(shown once\): (dmt_\S+)/.test(server.output()) && Date.now() < deadline) {
    await new Promise((resolve) => server.child.stdout?.once("data", resolve));
  }
  token = /Admin token \(shown once\): (dmt_\S+)/.exec(server.output())?.[1] ?? "";
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });

describe("the server bundle npm start runs", () => {
  it("serves GraphiQL's page", async () => {
    const response = await get("/graphql", { accept: "text/html" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("GraphiQL");
  });

  it("answers the nested site structure in one request", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ organizations(first: 1) { nodes { sites(first: 5) { nodes { title
          sections(first: 5) { nodes { siteSpaces { nodes { path space { title } } } } } } } } } }`,
      }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    const sites = body.data.organizations.nodes[0].sites.nodes;
    expect(sites.length).toBeGreaterThan(0);
    const siteSpaces = sites.flatMap((site: { sections: { nodes: { siteSpaces: { nodes: unknown[] } }[] } }) =>
      site.sections.nodes.flatMap((section) => section.siteSpaces.nodes),
    );
    expect(siteSpaces.length).toBeGreaterThan(0);
    expect(siteSpaces[0]).toMatchObject({ space: { title: expect.any(String) } });
  });

  it("converts a page's markdown and serves the OpenAPI document", async () => {
    const send = (method: string, path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const orgs = await (await get("/v1/orgs")).json();
    const space = await (await send("POST", `/v1/orgs/${orgs.items[0].id}/spaces`, { title: "Bundle" })).json();
    const markdown = "# Install\n\n- **fast** builds\n\n| a | b |\n| - | - |\n| 1 | 2 |\n";
    const inserted = await send("POST", `/v1/spaces/${space.id}/content`, {
      changes: [{ type: "insert", page: { title: "Install", markdown } }],
    });
    expect(inserted.status).toBe(200);
    const pageId = (await inserted.json()).inserted[0].id;
    const page = await (await get(`/v1/spaces/${space.id}/content/page/${pageId}?format=document`)).json();
    expect(JSON.stringify(page.document)).toContain('"type":"table"');
    const openApi = await get("/v1/openapi.json");
    expect(Object.keys((await openApi.json()).paths).length).toBeGreaterThan(100);
  });
});
