import { beforeAll, describe, expect, it } from "vitest";
import { createSite, createSpace } from "../factories.ts";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

const OrganizationSpecs = graphql(`
  query NullableAbsenceSpecs($id: ID!) {
    organization(id: $id) { openAPISpecs(first: 10) { nodes { slug latestVersion { id } } } }
  }
`);

const SpaceGitInfo = graphql(`
  query NullableAbsenceGitInfo($id: ID!) { space(id: $id) { title gitInfo { repoName } } }
`);

const SiteAdaptiveSchema = graphql(`
  query NullableAbsenceAdaptiveSchema($organizationId: ID!, $siteId: ID!) {
    organization(id: $organizationId) { site(id: $siteId) { title adaptiveSchema { jsonSchema } } }
  }
`);

const specText = `openapi: 3.0.3
info:
  title: Unprocessed
  version: "1"
paths: {}
`;

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Nullable absence");
});

describe("things that do not exist yet answer null, not an error", () => {
  it("lists an organization's specs while one is unprocessed; REST still answers its 404", async () => {
    const created = await t.rest("POST", `/orgs/${org.organizationId}/openapi`, {
      token: org.members.admin.token,
      body: { slug: "unprocessed", source: { text: specText } },
    });
    expect(created.status).toBe(201);

    const data = await t.graphql(org.members.read.token).request(OrganizationSpecs, { id: org.organizationId });
    expect(data.organization?.openAPISpecs?.nodes).toEqual([{ slug: "unprocessed", latestVersion: null }]);

    const latest = await t.rest("GET", `/orgs/${org.organizationId}/openapi/unprocessed/versions/latest`, {
      token: org.members.read.token,
    });
    expect({ status: latest.status, body: latest.body }).toEqual({
      status: 404,
      body: { error: { code: 404, message: "OpenAPI specification unprocessed has no version yet" } },
    });
    const content = await t.rest("GET", `/orgs/${org.organizationId}/openapi/unprocessed/versions/latest/content`, {
      token: org.members.read.token,
    });
    expect(content.body).toEqual(latest.body);
  });

  it("answers a space without Git sync with gitInfo null; REST still answers its 404", async () => {
    const space = await createSpace(t, org);
    const data = await t.graphql(org.members.read.token).request(SpaceGitInfo, { id: space.id });
    expect(data.space).toEqual({ title: "A space", gitInfo: null });

    const info = await t.rest("GET", `/spaces/${space.id}/git/info`, { token: org.members.read.token });
    expect({ status: info.status, body: info.body }).toEqual({
      status: 404,
      body: { error: { code: 404, message: `No Git repository is set up on space ${space.id}` } },
    });
  });

  it("answers a site without an adaptive schema with null; REST still answers its 404", async () => {
    const site = await createSite<{ id: string; title: string }>(t, org, { title: "Adaptive" });
    const data = await t
      .graphql(org.members.read.token)
      .request(SiteAdaptiveSchema, { organizationId: org.organizationId, siteId: site.id });
    expect(data.organization?.site).toEqual({ title: "Adaptive", adaptiveSchema: null });

    const schema = await t.rest("GET", `/orgs/${org.organizationId}/sites/${site.id}/adaptive-schema`, {
      token: org.members.read.token,
    });
    expect({ status: schema.status, body: schema.body }).toEqual({
      status: 404,
      body: { error: { code: 404, message: `Site ${site.id} has no adaptive schema` } },
    });
  });
});
