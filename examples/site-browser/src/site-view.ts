import type { SiteSectionsQuery, SiteSpaceItemFragment } from "@docs-management-gateway/sdk";

type Organization = NonNullable<SiteSectionsQuery["organization"]>;

/** An opened site: its sections with their site spaces, the site spaces at its root, and the spaces one may add. */
export interface SiteView {
  id: string;
  title: string;
  sections: { id: string; title: string; path: string; siteSpaces: SiteSpaceItemFragment[] }[];
  rootSiteSpaces: SiteSpaceItemFragment[];
  spaces: NonNullable<Organization["spaces"]>["nodes"];
}

export function siteViewOf(organization: Organization): SiteView | null {
  const site = organization.site;
  if (!site) return null;
  return {
    id: site.id,
    title: site.title,
    // Lists are null only beside an error, which the SDK throws: `?? []` only satisfies the types.
    sections: (site.sections?.nodes ?? []).map((section) => ({
      ...section,
      siteSpaces: section.siteSpaces?.nodes ?? [],
    })),
    rootSiteSpaces: (site.siteSpaces?.nodes ?? []).filter((siteSpace) => siteSpace.sectionId === null),
    spaces: organization.spaces?.nodes ?? [],
  };
}

// The two updates below apply a mutation's answer to what is shown, so that the list is not read again.

/** The site with the site space `createSiteSpace` returned, at the end of the section it names (or the root). */
export function withSiteSpace(view: SiteView, added: SiteSpaceItemFragment): SiteView {
  if (added.sectionId === null) return { ...view, rootSiteSpaces: [...view.rootSiteSpaces, added] };
  return {
    ...view,
    sections: view.sections.map((section) =>
      section.id === added.sectionId ? { ...section, siteSpaces: [...section.siteSpaces, added] } : section,
    ),
  };
}

/** The site without the site space whose id `deleteSiteSpace` answered (`deletedId`). */
export function withoutSiteSpace(view: SiteView, deletedId: string): SiteView {
  const keep = (siteSpace: SiteSpaceItemFragment) => siteSpace.id !== deletedId;
  return {
    ...view,
    rootSiteSpaces: view.rootSiteSpaces.filter(keep),
    sections: view.sections.map((section) => ({ ...section, siteSpaces: section.siteSpaces.filter(keep) })),
  };
}
