import { builder } from "../../graphql/builder.ts";
import { typeOfId } from "../../platform/ids.ts";
import type { GroupNode, SectionNode } from "./site-section.service.ts";
import { SiteSpaceRef } from "./site-space.graphql.ts";

/*
 * The references of the structure's item types, declared apart from their fields: a group's fields list sections
 * and a section's structure lists groups, so both field files import these instead of each other.
 */
export const SiteSectionRef = builder.objectRef<SectionNode>("SiteSection");
export const SiteSectionGroupRef = builder.objectRef<GroupNode>("SiteSectionGroup");

/** Sections, groups and site spaces carry their type in their id prefix. */
export const SiteStructureItemRef = builder.unionType("SiteStructureItem", {
  description: "One item of a site's structure: a section, a section group or a site space.",
  types: [SiteSectionRef, SiteSectionGroupRef, SiteSpaceRef],
  resolveType: (item) => {
    const type = typeOfId(item.id);
    if (type === "SiteSection") return SiteSectionRef;
    if (type === "SiteSectionGroup") return SiteSectionGroupRef;
    return SiteSpaceRef;
  },
});
