import { GitBookAPI, SiteVisibility } from "@gitbook/api";
import { beforeAll, describe, expect, it } from "vitest";
import type { SeededOrganization } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { type OfficialClientSetup, startOfficialClient } from "../helpers/official-client.ts";

// The public API's official client, unchanged, driving the site endpoints of a listening server.
let server: OfficialClientSetup["server"];
let org: SeededOrganization;
let api: GitBookAPI;

beforeAll(async () => {
  ({ server, org, api } = await startOfficialClient("Client Sites Org"));
});

describe("@gitbook/api GitBookAPI sites", () => {
  it("creates, publishes, shares, reads and deletes a site", async () => {
    const orgId = org.organizationId;
    const created = await api.orgs.createSite(orgId, { title: "Client docs", visibility: SiteVisibility.ShareLink });
    expect(created.status).toBe(201);
    expectMatchesSpec("createSite", 201, created.data);
    const siteId = created.data.id;

    const list = await api.orgs.listSites(orgId, { title: "client" });
    expectMatchesSpec("listSites", list.status, list.data);
    expect(list.data.items.map((site) => site.id)).toEqual([siteId]);

    const updated = await api.orgs.updateSiteById(orgId, siteId, {
      basename: "client",
      adaptiveContent: { enabled: true },
    });
    expectMatchesSpec("updateSiteById", updated.status, updated.data);
    expect(updated.data).toMatchObject({ basename: "client", adaptiveContent: { enabled: true } });

    const published = await api.orgs.publishSite(orgId, siteId);
    expectMatchesSpec("publishSite", published.status, published.data);
    expect(published.data).toMatchObject({ published: true });

    const link = await api.orgs.createSiteShareLink(orgId, siteId, { name: "Client" });
    expect(link.status).toBe(201);
    expectMatchesSpec("createSiteShareLink", 201, link.data);
    const links = await api.orgs.listSiteShareLinks(orgId, siteId);
    expectMatchesSpec("listSiteShareLinks", links.status, links.data);
    expect(links.data.items.map((item) => item.id)).toEqual([link.data.id]);

    const shareKey = new URL(link.data.urls.published ?? "").searchParams.get("shareKey") ?? "";
    const visitor = new GitBookAPI({ endpoint: server.url });
    const content = await visitor.orgs.getPublishedContentSite(orgId, siteId, { shareKey });
    expectMatchesSpec("getPublishedContentSite", content.status, content.data);
    expect(content.data.site.id).toBe(siteId);
    await expect(visitor.orgs.getPublishedContentSite(orgId, siteId, { shareKey: "nope" })).rejects.toMatchObject({
      code: 404,
    });

    const schema = await api.orgs.updateSiteAdaptiveSchema(orgId, siteId, {
      jsonSchema: {
        type: "object",
        properties: { beta: { type: "boolean", description: "Beta testers" } },
        additionalProperties: false,
      },
    });
    expectMatchesSpec("updateSiteAdaptiveSchema", schema.status, schema.data);

    const unpublished = await api.orgs.unpublishSite(orgId, siteId);
    expectMatchesSpec("unpublishSite", unpublished.status, unpublished.data);
    expect(unpublished.data.published).toBe(false);

    const removed = await api.orgs.deleteSiteById(orgId, siteId);
    expect(removed.status).toBe(204);
    await expect(api.orgs.getSiteById(orgId, siteId)).rejects.toMatchObject({ code: 404 });
  });
});
