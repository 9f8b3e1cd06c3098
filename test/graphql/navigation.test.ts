import { beforeAll, describe, expect, it } from "vitest";
import { createSite } from "../factories.ts";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

const Parents = graphql(`
  query NavigationParents($id: ID!) {
    organization(id: $id) {
      teams(first: 100) { nodes { organizationId organization { id title } } }
      sites(first: 100) {
        nodes { organization { id } siteSpaces(first: 100) { nodes { siteId site { id organization { id } } } } }
      }
    }
  }
`);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

/** An organization with `count` teams and `count` sites of one space each. */
async function seeded(count: number): Promise<SeededOrganization> {
  const org = await seedOrganization(t.db, `Navigation ${count}`);
  const token = org.members.admin.token;
  for (let i = 0; i < count; i++) {
    const team = await t.rest("PUT", `/orgs/${org.organizationId}/teams`, { token, body: { title: `Team ${i}` } });
    expect(team.status).toBe(201);
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token,
      body: { title: `Space ${i}` },
    });
    await createSite(t, org, { title: `Site ${i}`, spaces: [space.body.id] });
  }
  return org;
}

async function measure(org: SeededOrganization) {
  const before = t.db.statementCount();
  const data = await t.graphql(org.members.read.token).request(Parents, { id: org.organizationId });
  return { statements: t.db.statementCount() - before, data };
}

describe("every node reaches its parents", () => {
  it("answers teams', sites' and site spaces' parents in the same number of statements for 1x and 4x", async () => {
    const small = await measure(await seeded(1));
    const largeOrg = await seeded(4);
    const large = await measure(largeOrg);
    expect(large.statements).toBe(small.statements);

    const organization = large.data.organization;
    expect(organization?.teams.nodes).toHaveLength(4);
    expect(organization?.sites.nodes).toHaveLength(4);
    for (const team of organization?.teams.nodes ?? []) {
      expect(team).toEqual({
        organizationId: largeOrg.organizationId,
        organization: { id: largeOrg.organizationId, title: "Navigation 4" },
      });
    }
    for (const site of organization?.sites.nodes ?? []) {
      expect(site.organization.id).toBe(largeOrg.organizationId);
      const [siteSpace] = site.siteSpaces.nodes;
      expect(siteSpace?.site.id).toBe(siteSpace?.siteId);
      expect(siteSpace?.site.organization.id).toBe(largeOrg.organizationId);
    }
  });
});
