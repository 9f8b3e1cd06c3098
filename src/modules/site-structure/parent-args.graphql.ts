import { builder } from "../../graphql/builder.ts";

/**
 * The parent ids of a mutation on one item of a site (a section, group, site space or share link): optional, since
 * the item's own id names its site and organization (`requireItemSite`). They stay accepted because REST paths carry
 * them, and a given one still scopes the call as before.
 */
export function siteParentArgs(item: string) {
  return builder.args((t) => ({
    organizationId: t.id({
      description: `The organization's id. Optional: the ${item} names it; when given and not its organization, NOT_FOUND.`,
    }),
    siteId: t.id({
      description: `The site's id. Optional: the ${item} names it; when given and not its site, NOT_FOUND.`,
    }),
  }));
}

/**
 * The ids of a mutation on a site itself, or one that adds to it: the site's, and its organization's, optional since
 * the site names it (`siteOrganizationId`). REST paths still pass it, and a given one still scopes the call.
 */
export const siteByIdArgs = builder.args((t) => ({
  organizationId: t.id({
    description: "The organization's id. Optional: the site names it; when given and not its organization, NOT_FOUND.",
  }),
  siteId: t.id({ required: true, description: "The site's id." }),
}));
