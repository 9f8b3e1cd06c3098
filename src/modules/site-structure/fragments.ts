import { spaceFields } from "../space/space.public.ts";

/** REST shapes of the site structure, shared by the site-section, site-space and section-group routes. */
export const siteSpaceFields = /* GraphQL */ `
  fragment SiteSpaceFields on SiteSpace {
    object: __typename id path section: sectionId space { ...SpaceFields } title default condition hasAdvancedCustomizationFeature
    urls { published }
  }
  ${spaceFields}
`;

export const siteSectionFields = /* GraphQL */ `
  fragment SiteSectionFields on SiteSection {
    object: __typename id title description default path condition sectionGroup: sectionGroupId icon urls { published }
    siteSpaces: siteSpaceList { ...SiteSpaceFields }
  }
  ${siteSpaceFields}
`;

/**
 * Groups nest one level, so two levels of `children` cover every structure. REST bodies hold whole lists: the `...List`
 * fields, where GraphQL pages the connection of the same name.
 */
export const siteSectionGroupFields = /* GraphQL */ `
  fragment SiteSectionGroupFields on SiteSectionGroup {
    object: __typename id title sectionGroup: sectionGroupId icon
    sections: sectionList { ...SiteSectionFields }
    children: childList {
      ... on SiteSection { ...SiteSectionFields }
      ... on SiteSectionGroup {
        object: __typename id title sectionGroup: sectionGroupId icon
        sections: sectionList { ...SiteSectionFields }
        children: childList { ... on SiteSection { ...SiteSectionFields } }
      }
    }
  }
  ${siteSectionFields}
`;

/** Any item of a structure (`getSiteStructure`, `sortSiteStructure`, the published site). */
export const siteStructureItemFields = /* GraphQL */ `
  fragment SiteStructureItemFields on SiteStructureItem {
    ... on SiteSpace { ...SiteSpaceFields }
    ... on SiteSection { ...SiteSectionFields }
    ... on SiteSectionGroup { ...SiteSectionGroupFields }
  }
  ${siteSectionGroupFields}
`;
