import { readFileSync } from "node:fs";
import { buildSchema, getNamedType, isObjectType } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { createSite, sitePath } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { graphqlAnswer } from "../helpers/graphql-answer.ts";

/*
 * Addresses are typed `URL` (graphql-scalars), so generated client types and caches know them as URLs; their values
 * stay the strings REST answers.
 */

const published = buildSchema(readFileSync("schema.graphql", "utf8"));

/** Fields outside the `...URLs` objects whose value is an absolute URL the server builds or validated. */
const otherUrlFields = [
  "ChangeRequestPDF.url",
  "OpenAPISpec.sourceURL",
  "OpenAPISpecContent.url",
  "OpenAPISpecVersion.url",
  "OrganizationURLs.logo",
  "RevisionFile.downloadURL",
  "SAMLServiceProvider.acsURL",
  "SAMLServiceProvider.startURL",
  "SSOProviderLogin.startURL",
  "SiteProxy.target",
];

describe("the URL scalar in schema.graphql", () => {
  it("types every field of the ...URLs objects, and the other absolute URLs, as URL", () => {
    const fields = Object.values(published.getTypeMap()).flatMap((type) =>
      isObjectType(type) && !type.name.startsWith("__")
        ? Object.values(type.getFields())
            .filter((field) => field.name !== "id")
            .map((field) => ({
              coordinate: `${type.name}.${field.name}`,
              urlsObject: type.name.endsWith("URLs"),
              type: getNamedType(field.type).name,
            }))
        : [],
    );
    const expected = fields.filter((field) => field.urlsObject || otherUrlFields.includes(field.coordinate));
    expect(expected.length).toBeGreaterThanOrEqual(30);
    expect(expected.filter((field) => field.type !== "URL")).toEqual([]);
    expect(published.getType("URL")?.description).toMatch(/RFC3986/);
  });
});

describe("URL values over HTTP", () => {
  let t: TestApp;
  let org: SeededOrganization;

  beforeAll(async () => {
    t = await startTestApp();
    org = await seedOrganization(t.db, "URL Scalar Org");
  });

  it("answers absolute URLs that parse, equal to the REST body's strings", async () => {
    const site = await createSite(t, org, { title: "Addresses" });
    const publish = await t.rest("POST", `${sitePath(org, site.id)}/publish`, { token: org.members.admin.token });
    expect(publish.status).toBe(200);
    const answer = await graphqlAnswer(
      t,
      org.members.admin.token,
      `query($id: ID!, $siteId: ID!) {
        organization(id: $id) {
          urls { app location }
          site(id: $siteId) { urls { app location published } }
        }
        type: __type(name: "SiteURLs") { fields { name type { name ofType { name } } } }
      }`,
      { id: org.organizationId, siteId: site.id },
    );
    expect(answer.errors).toBeUndefined();
    const data = answer.data as {
      organization: { urls: Record<string, string>; site: { urls: Record<string, string> } };
      type: { fields: { name: string; type: { name: string | null; ofType: { name: string } | null } }[] };
    };
    const typed = data.type.fields.map((field) => [field.name, field.type.name ?? field.type.ofType?.name]);
    expect(typed.sort()).toEqual([
      ["app", "URL"],
      ["id", "ID"],
      ["location", "URL"],
      ["published", "URL"],
    ]);
    const values = [...Object.values(data.organization.urls), ...Object.values(data.organization.site.urls)];
    expect(values).toHaveLength(5);
    for (const value of values) expect(new URL(value).protocol).toMatch(/^https?:$/);

    const rest = await t.rest<{ urls: Record<string, string> }>("GET", sitePath(org, site.id), {
      token: org.members.admin.token,
    });
    expect(rest.body.urls).toEqual(data.organization.site.urls);
  });
});
