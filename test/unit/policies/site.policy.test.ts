import { describe, expect, it } from "vitest";
import { readsOrganization } from "../../../src/auth/access.ts";
import type { Member, Role } from "../../../src/db/generated/client.ts";
import {
  canAdministerSite,
  canCreateSites,
  canReadSite,
  publishedSiteEntry,
  publishedSiteShowsSpace,
} from "../../../src/modules/site-structure/site.policy.ts";
import { expectOrganizationRole } from "./organization-viewers.ts";

/* Who reads a site's published content, and who reads an organization's structure, decided without a database. */

describe("publishedSiteEntry", () => {
  it("lets no one in through an unpublished site, whatever its visibility", () => {
    for (const visibility of ["public", "unlisted", "share-link", "visitor-auth"]) {
      expect(publishedSiteEntry({ published: false, visibility })).toBeNull();
    }
  });

  it("opens a published site by its visibility", () => {
    expect(publishedSiteEntry({ published: true, visibility: "public" })).toBe("open");
    expect(publishedSiteEntry({ published: true, visibility: "unlisted" })).toBe("open");
    expect(publishedSiteEntry({ published: true, visibility: "share-link" })).toBe("share-key");
    expect(publishedSiteEntry({ published: true, visibility: "visitor-auth" })).toBe("visitor-token");
  });

  it("keeps closed a visibility it does not know", () => {
    expect(publishedSiteEntry({ published: true, visibility: "private" })).toBeNull();
  });
});

describe("readsOrganization", () => {
  const membership = (role: Role | null, disabled = false) =>
    ({ organizationId: "org_1", userId: "user_1", role, disabled, sso: false }) as Member;

  it("admits enabled members with a role", () => {
    expect(readsOrganization(membership("read"))).toBe(true);
    expect(readsOrganization(membership("admin"))).toBe(true);
  });

  it("refuses guests, disabled members and non-members, and throws a failed load (no answer about access)", () => {
    expect(readsOrganization(membership(null))).toBe(false);
    expect(readsOrganization(membership("admin", true))).toBe(false);
    expect(readsOrganization(null)).toBe(false);
    expect(() => readsOrganization(new Error("load failed"))).toThrow("load failed");
  });
});

describe("site management", () => {
  it("lets members with a role read sites and their structure", () => expectOrganizationRole(canReadSite, "read"));
  it("needs the create role to create sites", () => expectOrganizationRole(canCreateSites, "create"));
  it("leaves settings, structure, share links and deletion to organization admins", () =>
    expectOrganizationRole(canAdministerSite, "admin"));
});

describe("publishedSiteShowsSpace", () => {
  it("shows a site space's space through a site opened as published content, and hides it otherwise", () => {
    expect(publishedSiteShowsSpace(true, { id: "space_1" }).allowed).toBe(true);
    expect(publishedSiteShowsSpace(false, { id: "space_1" })).toEqual({
      allowed: false,
      error: "not-found",
      message: "Space space_1 not found",
    });
  });
});
