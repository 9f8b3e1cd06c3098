import type { GitBookAPI } from "@gitbook/api";
import { beforeAll, describe, expect, it } from "vitest";
import type { SeededOrganization } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { startOfficialClient } from "../helpers/official-client.ts";

// The official client, unchanged, driving the site structure endpoints on a listening server.
let org: SeededOrganization;
let api: GitBookAPI;

beforeAll(async () => {
  ({ org, api } = await startOfficialClient("Structure Client Org"));
});

describe("@gitbook/api GitBookAPI: site sections, section groups and site spaces", () => {
  it("builds and reorganizes a site's structure", async () => {
    const orgId = org.organizationId;
    const guide = await api.orgs.createSpace(orgId, { title: "Guide" });
    const reference = await api.orgs.createSpace(orgId, { title: "Reference" });
    const site = await api.orgs.createSite(orgId, { title: "Client site" });
    const siteId = site.data.id;

    const first = await api.orgs.addSectionToSite(orgId, siteId, { spaceId: guide.data.id });
    expect(first.status).toBe(201);
    expectMatchesSpec("addSectionToSite", first.status, first.data);
    const second = await api.orgs.addSectionToSite(orgId, siteId, { spaceId: reference.data.id, title: "API" });
    expectMatchesSpec("addSectionToSite", second.status, second.data);

    const variant = await api.orgs.addSpaceToSite(orgId, siteId, {
      spaceId: reference.data.id,
      sectionId: first.data.id,
    });
    expect(variant.status).toBe(201);
    expectMatchesSpec("addSpaceToSite", variant.status, variant.data);

    const patched = await api.orgs.updateSiteSpaceById(orgId, siteId, variant.data.id, {
      path: "reference",
      condition: "visitor.claims.beta == true",
    });
    expectMatchesSpec("updateSiteSpaceById", patched.status, patched.data);
    expect(patched.data).toMatchObject({ path: "reference", condition: "visitor.claims.beta == true" });

    const section = await api.orgs.updateSiteSectionById(orgId, siteId, first.data.id, {
      defaultSiteSpace: variant.data.id,
      description: "Start here",
    });
    expectMatchesSpec("updateSiteSectionById", section.status, section.data);

    const spaces = await api.orgs.listSiteSpaces(orgId, siteId, { default: true });
    expectMatchesSpec("listSiteSpaces", spaces.status, spaces.data);
    expect(spaces.data.items.map((item) => item.id).sort()).toEqual(
      [variant.data.id, second.data.siteSpaces[0]?.id].sort(),
    );

    const group = await api.orgs.addSectionGroupToSite(orgId, siteId, { title: "Docs", sections: [second.data.id] });
    expect(group.status).toBe(201);
    expectMatchesSpec("addSectionGroupToSite", group.status, group.data);
    const groups = await api.orgs.listSiteSectionGroups(orgId, siteId);
    expectMatchesSpec("listSiteSectionGroups", groups.status, groups.data);

    const sorted = await api.orgs.sortSiteStructure(orgId, siteId, {
      item: { type: "site-section-group", id: group.data.id },
      position: { before: { type: "site-section", id: first.data.id } },
    });
    expectMatchesSpec("sortSiteStructure", sorted.status, sorted.data);
    const structure = await api.orgs.getSiteStructure(orgId, siteId);
    expectMatchesSpec("getSiteStructure", structure.status, structure.data);
    expect(structure.data.structure.map((item) => item.id)).toEqual([group.data.id, first.data.id]);

    const sections = await api.orgs.listSiteSections(orgId, siteId);
    expectMatchesSpec("listSiteSections", sections.status, sections.data);
    expect(sections.data.items).toHaveLength(2);

    const removed = await api.orgs.removeSectionFromGroup(orgId, siteId, group.data.id, second.data.id);
    expect(removed.status).toBe(204);
    expect((await api.orgs.deleteSiteSectionGroupById(orgId, siteId, group.data.id)).status).toBe(204);
    expect((await api.orgs.deleteSiteSpaceById(orgId, siteId, variant.data.id)).status).toBe(204);
    expect((await api.orgs.deleteSiteSectionById(orgId, siteId, second.data.id)).status).toBe(204);
    const left = await api.orgs.listSiteSections(orgId, siteId);
    expect(left.data.items.map((item) => [item.id, item.default])).toEqual([[first.data.id, true]]);
  });
});
