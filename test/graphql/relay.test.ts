import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  type ConcreteRequest,
  ConnectionHandler,
  Environment,
  fetchQuery,
  type GraphQLResponse,
  Network,
  RecordSource,
  Store,
} from "relay-runtime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

/*
 * Relay as a front-end team runs it: relay-compiler over the committed schema.graphql (a Node interface, connections
 * with `@connection`, a `@refetchable` fragment paged through `node(id:)`), then relay-runtime's store against a
 * listening server with its default limits. Relay is the strictest of the clients about a schema's conventions.
 */

const require = createRequire(import.meta.url);
const run = promisify(execFile);

/** A screen listing an organization's sites two at a time, paged on with the next page merged by the handler. */
const screens = `
graphql\`
  query RelaySitesQuery($id: ID!) {
    organization(id: $id) {
      id
      title
      ...RelaySitesList_organization
    }
  }
\`;
graphql\`
  fragment RelaySitesList_organization on Organization
  @refetchable(queryName: "RelaySitesListPaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 2 }, cursor: { type: "String" }) {
    sites(first: $count, after: $cursor) @connection(key: "RelaySitesList_sites") {
      edges { node { id title } }
    }
  }
\`;
`;

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let org: SeededOrganization;
let project: string;
let compilerOutput: string;
const siteTitles = ["Docs", "API", "Guides", "Changelog", "Status"];

beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app);
  org = await seedOrganization(t.db, "Relay Org");
  for (const title of siteTitles) {
    // Sites list oldest first: each a second after the previous one (the test clock stands still otherwise).
    t.clock.advance(1000);
    const created = await t.rest("POST", `/orgs/${org.organizationId}/sites`, {
      token: org.members.admin.token,
      body: { title },
    });
    expect(created.status).toBe(201);
  }
  project = mkdtempSync(join(tmpdir(), "relay-project-"));
  mkdirSync(join(project, "src"));
  mkdirSync(join(project, "generated"));
  writeFileSync(join(project, "src", "screens.js"), screens);
  writeFileSync(
    join(project, "relay.config.json"),
    JSON.stringify({
      src: "./src",
      schema: join(process.cwd(), "schema.graphql"),
      language: "javascript",
      artifactDirectory: "./generated",
      eagerEsModules: false,
    }),
  );
  const compiled = await run(process.execPath, [require.resolve("relay-compiler/cli.js")], { cwd: project });
  compilerOutput = `${compiled.stdout}${compiled.stderr}`;
});

afterAll(async () => {
  await server.close();
  rmSync(project, { recursive: true, force: true });
});

/** A compiled artifact, as the screen's code imports it. */
const artifact = (name: string) => require(join(project, "generated", `${name}.graphql.js`)) as ConcreteRequest;

function relayEnvironment(token: string) {
  const network = Network.create(async (params, variables) => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ query: params.text, variables }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as GraphQLResponse & { errors?: unknown[] };
    expect(body.errors).toBeUndefined();
    return body;
  });
  return new Environment({ network, store: new Store(new RecordSource()) });
}

/** The connection's titles and page info, as the store holds them after the handler merged the pages. */
function storedSites(environment: Environment) {
  let stored: { titles: unknown[]; endCursor: unknown; hasNextPage: unknown } | undefined;
  environment.commitUpdate((store) => {
    const organization = store.get(org.organizationId);
    const connection = organization && ConnectionHandler.getConnection(organization, "RelaySitesList_sites");
    const pageInfo = connection?.getLinkedRecord("pageInfo");
    stored = {
      titles: (connection?.getLinkedRecords("edges") ?? []).map((edge) =>
        edge?.getLinkedRecord("node")?.getValue("title"),
      ),
      endCursor: pageInfo?.getValue("endCursor"),
      hasNextPage: pageInfo?.getValue("hasNextPage"),
    };
  });
  return stored;
}

describe("Relay", () => {
  it("compiles a screen's query, connection and refetchable fragment against schema.graphql without a warning", () => {
    expect(compilerOutput).toContain("Compilation completed.");
    expect(compilerOutput).not.toMatch(/WARN|ERROR/);
    expect(readdirSync(join(project, "generated")).sort()).toEqual([
      "RelaySitesListPaginationQuery.graphql.js",
      "RelaySitesList_organization.graphql.js",
      "RelaySitesQuery.graphql.js",
    ]);
  });

  it("pages a connection through node(id:) with the defaults, the pages merged in order, one record per id", async () => {
    const warnings = vi.spyOn(console, "warn");
    const errors = vi.spyOn(console, "error");
    try {
      const environment = relayEnvironment(org.members.read.token);
      await fetchQuery(environment, artifact("RelaySitesQuery"), { id: org.organizationId }).toPromise();
      expect(storedSites(environment)).toMatchObject({ titles: siteTitles.slice(0, 2), hasNextPage: true });

      const pagination = artifact("RelaySitesListPaginationQuery");
      for (const shown of [4, 5]) {
        const cursor = storedSites(environment)?.endCursor;
        await fetchQuery(environment, pagination, { id: org.organizationId, count: 2, cursor }).toPromise();
        expect(storedSites(environment)?.titles).toEqual(siteTitles.slice(0, shown));
      }
      expect(storedSites(environment)?.hasNextPage).toBe(false);

      // Every object with an id is stored under it: no two types share an id, and none lacks one.
      const source = environment.getStore().getSource();
      const sites = source.getRecordIDs().filter((id) => source.get(id)?.__typename === "Site");
      expect(sites).toHaveLength(siteTitles.length);
      for (const id of sites) expect(source.get(id)?.id).toBe(id);
      expect(warnings).not.toHaveBeenCalled();
      expect(errors).not.toHaveBeenCalled();
    } finally {
      warnings.mockRestore();
      errors.mockRestore();
    }
  });
});
