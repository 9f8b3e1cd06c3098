// Through the package's `exports` entry, as a user of the package imports it.
import { createGatewayClient, type SiteStructureQuery } from "@docs-management-gateway/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { present } from "../helpers/present.ts";

let t: TestApp;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app);
});

afterAll(() => server.close());

describe("the typed SDK (@docs-management-gateway/sdk)", () => {
  it("reads the viewer, organizations and the nested site structure from a listening server", async () => {
    const org = await seedOrganization(t.db, "SDK Org");
    const token = org.members.admin.token;
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token,
      body: { title: "Reference" },
    });
    await t.rest("POST", `/orgs/${org.organizationId}/sites`, {
      token,
      body: { title: "SDK Docs", spaces: [space.body.id] },
    });

    const gateway = createGatewayClient(server.url, { token });
    const { viewer } = await gateway.Viewer();
    expect(viewer.user.id).toBe(org.members.admin.id);

    const { organizations } = await gateway.Organizations({ first: 10 });
    expect(organizations?.nodes.map((node) => node.id)).toContain(org.organizationId);

    const structure: SiteStructureQuery = await gateway.SiteStructure({ organizationId: org.organizationId });
    const site = present(present(structure.organization).sites).nodes[0];
    expect(site?.title).toBe("SDK Docs");
    expect(site?.siteSpaces?.nodes.map((siteSpace) => siteSpace.space?.title)).toEqual(["Reference"]);
  });

  it("rejects with the GraphQL error when the token is missing", async () => {
    await expect(createGatewayClient(server.url).Viewer()).rejects.toThrow(/UNAUTHENTICATED|token/i);
  });
});
