import { builder } from "../../graphql/builder.ts";
import type { FieldCost } from "../../lib/query-cost.ts";
import { OrganizationRef } from "../organization/organization.public.ts";
import { SpaceRef } from "../space/space.public.ts";
import {
  defaultSearchPageSize,
  maxQueryLength,
  maxSearchPageSize,
  pagesPerSpace,
  type SearchPageHit,
  type SearchSectionHit,
  type SearchSpaceHit,
  searchHitSections,
  searchOrganizationContent,
  searchSpaceContent,
} from "./search.service.ts";

/** A full-text query over a space's pages (estimateCost units: a plain field is 1). */
const spaceSearchCost: FieldCost = { weight: 2_000, listSize: defaultSearchPageSize };
/** A full-text query over every space of an organization the viewer may read. */
const organizationSearchCost: FieldCost = { weight: 10_000, listSize: defaultSearchPageSize };
/** Splitting a hit's page into sections parses its markdown (about as much work as its document). */
const sectionsCost: FieldCost = { weight: 20_000, listSize: 5 };
const pagesPerSpaceCost: FieldCost = { listSize: pagesPerSpace };

const SearchUrlsRef = builder.objectRef<{ app: string }>("SearchResultURLs").implement({
  description: "Addresses of a search result.",
  fields: (t) => ({
    app: t.expose("app", { type: "URL", description: "The page (or its section) on this server's API." }),
  }),
});

const scoreDescription = "Relevance: higher is better; a match of the whole query in the title adds 1.";

const SearchSectionResultRef = builder.objectRef<SearchSectionHit>("SearchSectionResult").implement({
  description: "A section of a page (the text under one heading) that matches a search.",
  fields: (t) => ({
    anchor: t.exposeID("id", { description: "The heading's anchor; the page id for the text before any heading." }),
    title: t.exposeString("title", {
      description: "The heading's text; the page title for the text before any heading.",
    }),
    path: t.exposeString("path", { description: "The page's path, then `#` and the anchor." }),
    body: t.exposeString("body", { description: "The section's plain text." }),
    score: t.exposeFloat("score", { description: scoreDescription }),
    urls: t.field({ type: SearchUrlsRef, description: "Where the section is.", resolve: (section) => section.urls }),
  }),
});

const SearchPageResultRef = builder.objectRef<SearchPageHit>("SearchPageResult").implement({
  description: "A page of a space's current content that matches a search.",
  fields: (t) => ({
    pageId: t.exposeID("id", { description: "The page's id." }),
    title: t.exposeString("title", { description: "The page's title." }),
    path: t.exposeString("path", { description: "The page's path in the content." }),
    score: t.exposeFloat("score", { description: scoreDescription }),
    sections: t.field({
      type: [SearchSectionResultRef],
      description: "The sections that match, best first.",
      extensions: { cost: sectionsCost },
      resolve: (hit, _args, ctx) => searchHitSections(ctx, hit),
    }),
    ancestors: t.field({
      type: [
        builder.objectRef<{ title: string }>("SearchPageAncestor").implement({
          description: "A parent page of a search result.",
          fields: (a) => ({ title: a.exposeString("title", { description: "The parent page's title." }) }),
        }),
      ],
      description: "The parent pages, from the root to the direct parent.",
      resolve: (hit) => hit.ancestors,
    }),
    urls: t.field({ type: SearchUrlsRef, description: "Where the page is.", resolve: (hit) => hit.urls }),
  }),
});

const SearchSpaceResultRef = builder.objectRef<SearchSpaceHit>("SearchSpaceResult").implement({
  description: "A space with pages that match a search.",
  fields: (t) => ({
    type: t.exposeString("type", { description: "Always space." }),
    spaceId: t.exposeID("id", { description: "The space's id." }),
    title: t.exposeString("title", { description: "The space's title." }),
    score: t.exposeFloat("score", { description: "The score of the space's best page." }),
    pages: t.field({
      type: [SearchPageResultRef],
      description: `The space's best matching pages (at most ${pagesPerSpace}), best first.`,
      extensions: { cost: pagesPerSpaceCost },
      resolve: (hit) => hit.pages,
    }),
  }),
});

/** A search's connection says whether its count is exact (`SearchResultsPage.countIsExact`). */
const totalCountIsExact = {
  description:
    "Whether totalCount counts every match. False when the query matches more pages than a search ranks (its most recently edited title matches and its most recently edited matches, SEARCH_CANDIDATES of each): the results are those of the pages ranked, and totalCount counts them.",
  resolve: (connection: object) => !("countIsExact" in connection) || connection.countIsExact !== false,
};

const queryDescription = `Words to find (1..${maxQueryLength} characters, not only spaces): quoted phrases, \`or\` and \`-word\` are understood.`;

builder.objectFields(SpaceRef, (t) => ({
  searchSpaceContent: t.connection(
    {
      type: SearchPageResultRef,
      description: `Pages of the space's current content that match, best first of those ranked (see totalCountIsExact) (searchSpaceContent). Forward paging only; first: ${defaultSearchPageSize} by default, at most ${maxSearchPageSize}.`,
      extensions: { cost: spaceSearchCost },
      args: { query: t.arg.string({ required: true, description: queryDescription }) },
      resolve: (space, args, ctx) => searchSpaceContent(ctx, space.id, args.query, args),
    },
    { fields: (c) => ({ totalCountIsExact: c.boolean(totalCountIsExact) }) },
  ),
}));

builder.objectFields(OrganizationRef, (t) => ({
  searchOrganizationContent: t.connection(
    {
      type: SearchSpaceResultRef,
      description: `The spaces the viewer may read with pages that match, best first of those ranked (see totalCountIsExact) (searchOrganizationContent). Forward paging only; first: ${defaultSearchPageSize} by default, at most ${maxSearchPageSize}.`,
      extensions: { cost: organizationSearchCost },
      args: { query: t.arg.string({ required: true, description: queryDescription }) },
      resolve: (organization, args, ctx) => searchOrganizationContent(ctx, organization.id, args.query, args),
    },
    { fields: (c) => ({ totalCountIsExact: c.boolean(totalCountIsExact) }) },
  ),
}));
