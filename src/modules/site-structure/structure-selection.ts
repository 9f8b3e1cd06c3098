import type { GraphQLResolveInfo } from "graphql";
import { itemsSelectAny, itemsSelectWithin } from "../../graphql/selection.ts";
import { spaceSummaryFields } from "../space/space.public.ts";

/*
 * What a list of site spaces settles for its items (structure-reads.ts), read once from the GraphQL selection:
 * the boundary's look-ahead, so resolvers pass `info` through and services never read a selection.
 */

/**
 * How a list settles its site spaces' spaces: not at all, as summaries (when its items select only
 * `spaceSummaryFields` of them), or in full.
 */
export type SpaceSettling = "none" | "summaries" | "full";

/** What a page of site spaces settles for its items: each item's `space` (and `title`), `default` and `urls`. */
export interface SiteSpaceSettling {
  spaces: SpaceSettling;
  defaults: boolean;
  urls: boolean;
}

/** The site-space fields that read its space: a list settles the spaces of its items when one is selected. */
const siteSpaceFieldsReadingSpace: ReadonlySet<string> = new Set(["space", "title"]);
const defaultField: ReadonlySet<string> = new Set(["default"]);
const urlsField: ReadonlySet<string> = new Set(["urls"]);

/** How a list of site spaces settles their spaces, by what its items select. */
export function spaceSettlingOf(info: GraphQLResolveInfo): SpaceSettling {
  if (!itemsSelectAny(info, siteSpaceFieldsReadingSpace)) return "none";
  return itemsSelectWithin(info, "space", spaceSummaryFields) ? "summaries" : "full";
}

/** What a page of site spaces settles, by what its items select. */
export function siteSpaceSettlingOf(info: GraphQLResolveInfo): SiteSpaceSettling {
  return {
    spaces: spaceSettlingOf(info),
    defaults: itemsSelectAny(info, defaultField),
    urls: itemsSelectAny(info, urlsField),
  };
}
