import { createGatewayClient } from "@docs-management-gateway/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { editContent } from "../helpers/content.ts";
import { present } from "../helpers/present.ts";

// Ordinary use under the server's default limits: nothing here sets a limit. The test clock stands still unless a
// test moves it, so no bucket refills between calls: every burst below is as hard on the limits as it can be.
let t: TestApp;
let org: SeededOrganization;
let token: string;
let spaceId: string;
let pageIds: string[];

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Defaults Org");
  token = org.members.admin.token;
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token,
    body: { title: "Welcome space" },
  });
  spaceId = space.body.id;
  const paragraph = "Welcome to the handbook: how we work, write and ship, with links to [more](https://example.com).";
  const edit = await editContent(
    t,
    token,
    `/spaces/${spaceId}/content`,
    Array.from({ length: 12 }, (_, index) => ({
      type: "insert",
      page: {
        title: `Welcome ${index}`,
        markdown: `# Welcome ${index}\n\n${Array.from({ length: 20 }, () => paragraph).join("\n\n")}\n`,
      },
    })),
  );
  pageIds = edit.inserted.map((item) => item.id);
});

describe("the default limits serve ordinary use", () => {
  it("serves the REST searches, the largest page of a list and page reads in one burst", async () => {
    const calls = [
      `/orgs/${org.organizationId}/search?query=welcome`,
      `/spaces/${spaceId}/search?query=welcome`,
      "/orgs?limit=1000",
      `/spaces/${spaceId}/content/pages`,
      ...pageIds.map((pageId) => `/spaces/${spaceId}/content/page/${pageId}`),
    ];
    for (const path of calls) {
      const response = await t.rest("GET", path, { token });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(Number(response.headers.get("RateLimit-Remaining"))).toBeGreaterThan(0);
    }
  });

  it("reads a page a second for two minutes", async () => {
    for (let second = 0; second < 120; second++) {
      const pageId = pageIds[second % pageIds.length] as string;
      const page = await t.rest("GET", `/spaces/${spaceId}/content/page/${pageId}`, { token });
      expect({ second, status: page.status }).toEqual({ second, status: 200 });
      t.clock.advance(1000);
    }
  });

  it("runs every operation of the SDK and the nested site read", async () => {
    const server = await listen(t.app);
    afterAll(() => server.close());
    const site = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/sites`, {
      token,
      body: { title: "Handbook", spaces: [spaceId] },
    });
    const gateway = createGatewayClient(server.url, { token });
    await gateway.Viewer();
    await gateway.Organizations({ first: 10 });
    const structure = await gateway.SiteStructure({ organizationId: org.organizationId });
    expect(present(present(structure.organization).sites).nodes.map((node) => node.title)).toContain("Handbook");
    await gateway.OrganizationSites({ organizationId: org.organizationId, first: 100 });
    await gateway.SiteSections({ organizationId: org.organizationId, siteId: site.body.id });
    const other = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token,
      body: { title: "Reference" },
    });
    const added = await gateway.AddSpaceToSite({
      organizationId: org.organizationId,
      siteId: site.body.id,
      spaceId: other.body.id,
    });
    await gateway.DeleteSiteSpace({
      organizationId: org.organizationId,
      siteId: site.body.id,
      siteSpaceId: present(present(added.createSiteSpace).siteSpace).id,
    });
  });

  it("answers an out-of-range limit with 400 naming `limit`", async () => {
    for (const limit of ["5000", "1001", "-1", "2.5", ""]) {
      const response = await t.rest<{ error: { code: number; message: string } }>("GET", "/orgs", {
        token,
        query: { limit },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.message).toBe("Query parameter limit must be an integer between 0 and 1000");
    }
  });

  it("charges a call what it returned, not its estimate", async () => {
    const answer = (await t
      .graphql(token)
      .rawRequest(`query ($id: ID!) { organization(id: $id) { spaces(first: 1000) { nodes { id title } } } }`, {
        id: org.organizationId,
      })) as { extensions?: { cost: { requested: number; actual: number } } };
    const cost = present(answer.extensions).cost;
    expect(cost.requested).toBeGreaterThan(cost.actual);
    expect(cost.actual).toBe(1);
  });
});
