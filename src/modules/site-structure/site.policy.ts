import { allow, type Decision, hide, type OrganizationPolicy, organizationRole } from "../../auth/policy.ts";
import type { Site, Space } from "../../db/generated/client.ts";

/*
 * Who may read and change a site and its structure (access.md): organization roles for management; for published
 * content, what the site's visibility opens to callers who are not reading members. Pure: site.access.ts reads the
 * facts.
 */

/** Sites, their structure (sections, section groups, site spaces), as management reads. */
export const canReadSite: OrganizationPolicy = organizationRole("read");

export const canCreateSites: OrganizationPolicy = organizationRole("create");

/** A site's settings, structure, share links, publishing, visitor key and deletion. */
export const canAdministerSite: OrganizationPolicy = organizationRole("admin");

/**
 * What lets a caller who is not a reading member into a site's published content: nothing while it is unpublished
 * (null: 404), else its visibility: open to all, or to the key of an active share link, or to a visitor JWT.
 */
export function publishedSiteEntry(
  site: Pick<Site, "published" | "visibility">,
): "open" | "share-key" | "visitor-token" | null {
  if (!site.published) return null;
  switch (site.visibility) {
    case "public":
    case "unlisted":
      return "open";
    case "share-link":
      return "share-key";
    case "visitor-auth":
      return "visitor-token";
    default:
      return null;
  }
}

/**
 * A site opened as published content in this request shows the spaces of its site spaces to the caller, as the
 * published site shows them to every visitor; otherwise a space is shown only to who may read it (space policy).
 */
export function publishedSiteShowsSpace(openedAsPublished: boolean, space: Pick<Space, "id">): Decision {
  return openedAsPublished ? allow : hide(`Space ${space.id} not found`);
}
