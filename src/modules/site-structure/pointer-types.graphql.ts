import { publicEnum } from "../../graphql/enums.ts";

/**
 * What a pointer into a site's structure names. Every structure pointer takes it; each one's service check narrows it
 * to the kinds that pointer allows (a section's sibling is a section), with the service's wording.
 */
export const SiteStructureItemTypeEnum = publicEnum<string>(
  "SiteStructureItemType",
  "A kind of item in a site's structure, as a pointer names it.",
  {
    "site-space": "A site space.",
    "site-section": "A section.",
    "site-section-group": "A section group.",
  },
);
