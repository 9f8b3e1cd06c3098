import { Prisma } from "../../db/generated/client.ts";
import { InvalidInputError } from "../../lib/errors.ts";
import { pageFromRows } from "../../paging/memory-pagination.ts";
import { cursorValues, mapNodes, type Page, type PageArgs, pageSize, type SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { defineLoader } from "../../request/loaders.ts";
import {
  anchoredSections,
  locatedPages,
  type MarkdownSection,
  type PageNode,
  pageAppUrl,
  pageMarkdown,
} from "../content/content.public.ts";
import { getSpace, visibleSpacesSql } from "../space/space.public.ts";
import { completeSql, rankedCandidatesSql } from "./search-ranking.ts";

/** The public API's limit on a search query. */
export const maxQueryLength = 512;
/** Pages listed under each space of an organization search (its best ones). */
export const pagesPerSpace = 10;
/**
 * Hits a page of results holds by default and at most: each hit's sections parse its page's markdown, the most
 * expensive reads of the API, so pages of results stay small.
 */
export const defaultSearchPageSize = 20;
export const maxSearchPageSize = 50;

export interface SearchSectionHit {
  id: string;
  title: string;
  path: string;
  body: string;
  score: number;
  urls: { app: string };
}

export interface SearchPageHit {
  spaceId: string;
  id: string;
  title: string;
  path: string;
  score: number;
  ancestors: { title: string }[];
  urls: { app: string };
  /** The search text and the page: its matching sections are found only when a read asks for them. */
  text: string;
  node: PageNode;
}

export interface SearchSpaceHit {
  type: "space";
  id: string;
  title: string;
  score: number;
  pages: SearchPageHit[];
}

/** A matching page of a space's current revision, as ranked in SQL. */
interface PageMatch {
  spaceId: string;
  revisionId: string;
  pageId: string;
  score: number;
}

interface SpaceMatch {
  spaceId: string;
  title: string;
  score: number;
}

const pageOrder: SortKey<PageMatch>[] = [
  { field: "score", direction: "desc" },
  { field: "pageId", direction: "asc" },
];
const spaceOrder: SortKey<SpaceMatch>[] = [
  { field: "score", direction: "desc" },
  { field: "spaceId", direction: "asc" },
];

function searchText(query: string): string {
  const text = query.trim();
  if (!text) throw new InvalidInputError("query must not be empty");
  if (query.length > maxQueryLength) throw new InvalidInputError(`query must be at most ${maxQueryLength} characters`);
  if (text.includes("\u0000")) throw new InvalidInputError("query must not contain the NUL character");
  return text;
}

/**
 * Results are ranked, so a page of them continues after the last one seen: there is no way back. Returns the
 * arguments with their page size settled within the search's bounds (`first` 0..1000 as on every list).
 */
function forwardOnly(args: PageArgs): PageArgs & { first: number } {
  if (args.last !== null && args.last !== undefined) throw new InvalidInputError("search results page forward only");
  if (args.before) throw new InvalidInputError("search results page forward only");
  // Larger pages are served as pages of the maximum: clients that ask for more page on with the next cursor.
  return { ...args, first: Math.min(pageSize(args.first ?? defaultSearchPageSize), maxSearchPageSize) };
}

/** The SQL name of a sort key's column (a constant of this module, never user input). */
function column<Row>(key: SortKey<Row> | undefined): Prisma.Sql {
  return Prisma.raw(`"${key?.field}"`);
}

/** The keyset position after a cursor of (score desc, id asc); a cursor of other types is the caller's error. */
function after<Row>(sort: SortKey<Row>[], cursor: string | null | undefined): Prisma.Sql {
  if (!cursor) return Prisma.sql`TRUE`;
  const [score, id] = cursorValues(sort, cursor);
  if (typeof score !== "number" || typeof id !== "string") throw new InvalidInputError("Invalid page cursor");
  const idColumn = column(sort[1]);
  return Prisma.sql`("score" < ${score}::float8 OR ("score" = ${score}::float8 AND ${idColumn} > ${id}))`;
}

/**
 * A page of results whose count may be bounded: `countIsExact` is false when the query matched more pages than a
 * search ranks (`SEARCH_CANDIDATES`), and then `totalCount` counts the results among those it ranked.
 */
export type SearchResultsPage<Node> = Page<Node> & { countIsExact: boolean };

/** The page of `rows` (at most first + 1, after the cursor) with the count its statement answered. */
function resultsPage<Row>(
  args: PageArgs,
  sort: SortKey<Row>[],
  rows: Row[],
  count: { total: number; complete: boolean },
): SearchResultsPage<Row> {
  return { ...pageFromRows(args, sort, rows, count.total), countIsExact: count.complete };
}

/**
 * A page's sections, split once per request whatever the queries that hit it: splitting parses the page's markdown,
 * so it is charged to the request's budget.
 */
const pageSectionsLoader = defineLoader<PageNode, MarkdownSection[], string>(
  "pageSections",
  async (ctx, nodes) => {
    const sections: MarkdownSection[][] = [];
    for (const node of nodes) sections.push(await ctx.budget.convert("sections", await pageMarkdown(ctx, node)));
    return sections;
  },
  { cacheKeyFn: (node) => `${node.revisionId}/${node.page.id}` },
);

/** A section of a hit page that matches its query, as ranked in SQL. */
interface SectionMatch {
  /** The hit's index among those the loader was given. */
  hit: number;
  anchor: string | null;
  title: string;
  body: string;
  score: number;
}

/** A matching section as a search result: the text before the first heading is shown as the page itself. */
function sectionHit(ctx: RequestContext, { node }: SearchPageHit, match: SectionMatch): SearchSectionHit {
  const url = pageAppUrl(ctx, node.spaceId, node.page.id);
  const { anchor, title, body, score } = match;
  if (anchor === null) return { id: node.page.id, title, path: node.path, body, score, urls: { app: url } };
  return { id: anchor, title, path: `${node.path}#${anchor}`, body, score, urls: { app: `${url}#${anchor}` } };
}

/**
 * The matching sections of hits whose versions have their sections stored (written with the version): ranked by
 * their stored vectors, nothing parsed. Hits whose versions have none stored get no rows (`split` finds theirs); a
 * hit with stored sections of which none matches gets one row of nulls.
 */
async function storedSectionMatches(ctx: RequestContext, hits: readonly SearchPageHit[]) {
  const rows = await ctx.prisma.$queryRaw<
    { hit: number; anchor: string | null; title: string | null; body: string | null; score: number | null }[]
  >`
    WITH h AS MATERIALIZED (
      SELECT (u.ordinality - 1)::int AS "hit", u."versionId", websearch_to_tsquery('english', u.text) AS query
      FROM unnest(${hits.map((hit) => hit.node.page.versionId)}::text[], ${hits.map((hit) => hit.text)}::text[])
        WITH ORDINALITY AS u("versionId", text, ordinality)
      WHERE EXISTS (SELECT 1 FROM "PageVersionSection" AS s WHERE s."versionId" = u."versionId")
    )
    SELECT h."hit", m."anchor", m."title", m."body", m."score"
    FROM h LEFT JOIN LATERAL (
      SELECT s."ordinal", s."anchor", s."title", s."body", ts_rank(s."searchVector", h.query)::float8 AS "score"
      FROM "PageVersionSection" AS s
      WHERE s."versionId" = h."versionId" AND s."searchVector" @@ h.query
    ) AS m ON TRUE
    ORDER BY m."score" DESC, h."hit", m."ordinal"`;
  const stored = new Set(rows.map((row) => row.hit));
  const matches = rows.flatMap(({ hit, anchor, title, body, score }): SectionMatch[] =>
    score === null ? [] : [{ hit, anchor, title: title ?? "", body: body ?? "", score }],
  );
  return { stored, matches };
}

/**
 * The matching sections of hits whose versions have no sections stored (written before sections were, or by a
 * writer that does not split them): their markdown is split, once per request, and each section's vector computed
 * in one statement for all of them.
 */
async function splitSectionMatches(ctx: RequestContext, hits: readonly SearchPageHit[], indexes: readonly number[]) {
  const candidates: (Omit<SectionMatch, "score"> & { text: string })[] = [];
  const sections = await pageSectionsLoader(ctx).loadMany(indexes.map((index) => (hits[index] as SearchPageHit).node));
  for (const [position, hit] of indexes.entries()) {
    const { node, text } = hits[hit] as SearchPageHit;
    const split = sections[position];
    if (split instanceof Error) throw split;
    for (const section of anchoredSections(node.page.title, split ?? [])) candidates.push({ hit, ...section, text });
  }
  if (candidates.length === 0) return [];
  // Each section's vector is computed once (a materialized CTE: inlined, the vector would be computed for the
  // match and again for the rank) and each distinct query parsed once, not once per section.
  const queries = [...new Set(candidates.map((c) => c.text))];
  const queryIndex = new Map(queries.map((text, index) => [text, index + 1]));
  const ranked = await ctx.prisma.$queryRaw<{ index: number; score: number }[]>`
    WITH q AS MATERIALIZED (
      SELECT u.ordinality AS "queryIndex", websearch_to_tsquery('english', u.text) AS query
      FROM unnest(${queries}::text[]) WITH ORDINALITY AS u(text, ordinality)
    ), sections AS MATERIALIZED (
      SELECT (u.ordinality - 1)::int AS "index", u."queryIndex",
        setweight(to_tsvector('english', u.title), 'A') || setweight(to_tsvector('english', u.body), 'C') AS vector
      FROM unnest(${candidates.map((c) => c.title)}::text[], ${candidates.map((c) => c.body)}::text[],
          ${candidates.map((c) => queryIndex.get(c.text) ?? 0)}::int[])
        WITH ORDINALITY AS u(title, body, "queryIndex", ordinality)
    )
    SELECT s."index", ts_rank(s.vector, q.query)::float8 AS "score"
    FROM sections AS s JOIN q ON q."queryIndex" = s."queryIndex"
    WHERE s.vector @@ q.query
    ORDER BY "score" DESC, s."index"`;
  return ranked.flatMap(({ index, score }) => {
    const candidate = candidates[index];
    return candidate ? [{ ...candidate, score }] : [];
  });
}

/**
 * The sections of hit pages that match their query, best first (by score, then in page order): stored sections in
 * one statement, and those of versions without stored sections split and ranked in one more.
 */
const searchSectionsLoader = defineLoader<SearchPageHit, SearchSectionHit[], string>(
  "searchSections",
  async (ctx, hits) => {
    const { stored, matches } = await storedSectionMatches(ctx, hits);
    const unstored = hits.flatMap((_hit, index) => (stored.has(index) ? [] : [index]));
    const split = unstored.length === 0 ? [] : await splitSectionMatches(ctx, hits, unstored);
    const found: SearchSectionHit[][] = hits.map(() => []);
    for (const match of [...matches, ...split]) {
      found[match.hit]?.push(sectionHit(ctx, hits[match.hit] as SearchPageHit, match));
    }
    return found;
  },
  { cacheKeyFn: (hit) => `${hit.node.revisionId}/${hit.id}\n${hit.text}` },
);

/** A hit's sections that match its query (computed only for the reads that select them). */
export function searchHitSections(ctx: RequestContext, hit: SearchPageHit): Promise<SearchSectionHit[]> {
  return searchSectionsLoader(ctx).load(hit);
}

/** Hits for ranked matches, with their page's path and ancestors: the hit pages alone are read, not their trees. */
async function pageHits(ctx: RequestContext, text: string, matches: PageMatch[]): Promise<SearchPageHit[]> {
  const located = await locatedPages(ctx, matches);
  return matches.flatMap((match, index) => {
    const page = located[index];
    if (!page) return [];
    const { node } = page;
    return [
      {
        spaceId: node.spaceId,
        id: node.page.id,
        title: node.page.title,
        path: node.path,
        score: match.score,
        ancestors: page.ancestors.map((ancestor) => ({ title: ancestor.title })),
        urls: { app: pageAppUrl(ctx, node.spaceId, node.page.id) },
        text,
        node,
      },
    ];
  });
}

/** searchSpaceContent: the pages of the space's current revision that match, best first (of those ranked). */
export async function searchSpaceContent(
  ctx: RequestContext,
  spaceId: string,
  query: string,
  args: PageArgs,
): Promise<SearchResultsPage<SearchPageHit>> {
  const space = await getSpace(ctx, spaceId);
  const text = searchText(query);
  const bounded = forwardOnly(args);
  const bound = ctx.config.searchCandidates;
  // The count comes with the page (a LEFT JOIN keeps it when the page is empty: one row of nulls), in one statement.
  const rows = await ctx.prisma.$queryRaw<(NullableRow<PageMatch> & ResultsCount)[]>`
    WITH ${rankedCandidatesSql(text, Prisma.sql`sp."spaceId" = ${space.id}`, bound)}
    SELECT r.*, c."total", c."complete"
    FROM (SELECT count(*)::int AS "total", ${completeSql(bound)} AS "complete" FROM ranked) AS c
    LEFT JOIN LATERAL (
      SELECT "spaceId", "revisionId", "pageId", "score" FROM ranked WHERE ${after(pageOrder, bounded.after)}
      ORDER BY "score" DESC, "pageId" LIMIT ${bounded.first + 1}
    ) AS r ON TRUE`;
  const matches = rows.flatMap(({ spaceId, revisionId, pageId, score }) =>
    spaceId === null || revisionId === null || pageId === null || score === null
      ? []
      : [{ spaceId, revisionId, pageId, score }],
  );
  const page = resultsPage(bounded, pageOrder, matches, countOf(rows));
  const hits = await pageHits(
    ctx,
    text,
    page.edges.map((edge) => edge.node),
  );
  return { ...mapNodes(page, (_match, index) => hits[index] as SearchPageHit), countIsExact: page.countIsExact };
}

/** Every column of a row, null in the row of nulls a LEFT JOIN answers when there is none. */
type NullableRow<Row> = { [Key in keyof Row]: Row[Key] | null };
type ResultsCount = { total: number; complete: boolean };

function countOf(rows: ResultsCount[]): ResultsCount {
  return { total: rows[0]?.total ?? 0, complete: rows[0]?.complete ?? true };
}

/**
 * searchOrganizationContent: the matching pages of every space the viewer may read (never deleted ones), grouped by
 * space; spaces are ranked by their best page and list their best `pagesPerSpace` pages, of the pages ranked. Which
 * spaces the viewer may read is decided in the statement that ranks them: no list of spaces goes through the server.
 * The page of spaces, their pages and the count come in one statement.
 */
export async function searchOrganizationContent(
  ctx: RequestContext,
  organizationId: string,
  query: string,
  args: PageArgs,
): Promise<SearchResultsPage<SearchSpaceHit>> {
  const visible = await visibleSpacesSql(ctx, organizationId);
  const text = searchText(query);
  const bounded = forwardOnly(args);
  const bound = ctx.config.searchCandidates;
  const scope = Prisma.sql`sp."organizationId" = ${organizationId} AND ${visible}`;
  // One row per listed page, its space's columns repeated; one row of nulls but the count when no space is listed.
  const rows = await ctx.prisma.$queryRaw<
    (NullableRow<SpaceMatch> &
      NullableRow<Omit<PageMatch, "spaceId" | "score">> & { pageScore: number | null } & ResultsCount)[]
  >`
    WITH ${rankedCandidatesSql(text, scope, bound)},
    spaces AS (SELECT "spaceId", min("spaceTitle") AS "title", max("score") AS "score" FROM ranked GROUP BY "spaceId"),
    listed AS (
      SELECT * FROM spaces WHERE ${after(spaceOrder, bounded.after)}
      ORDER BY "score" DESC, "spaceId" LIMIT ${bounded.first + 1}
    ),
    pages AS (
      SELECT r."spaceId", r."revisionId", r."pageId", r."score" AS "pageScore",
        row_number() OVER (PARTITION BY r."spaceId" ORDER BY r."score" DESC, r."pageId") AS "rank"
      FROM ranked AS r WHERE r."spaceId" IN (SELECT "spaceId" FROM listed)
    )
    SELECT j."spaceId", j."title", j."score", j."revisionId", j."pageId", j."pageScore", c."total", c."complete"
    FROM (SELECT count(*)::int AS "total", ${completeSql(bound)} AS "complete" FROM spaces) AS c
    LEFT JOIN LATERAL (
      SELECT * FROM listed JOIN pages USING ("spaceId") WHERE pages."rank" <= ${pagesPerSpace}
    ) AS j ON TRUE
    ORDER BY j."score" DESC, j."spaceId", j."pageScore" DESC, j."pageId"`;
  const spaces = new Map<string, SpaceMatch>();
  const matches: PageMatch[] = [];
  for (const { spaceId, title, score, revisionId, pageId, pageScore } of rows) {
    if (spaceId === null || title === null || score === null) continue;
    if (!spaces.has(spaceId)) spaces.set(spaceId, { spaceId, title, score });
    if (revisionId !== null && pageId !== null && pageScore !== null) {
      matches.push({ spaceId, revisionId, pageId, score: pageScore });
    }
  }
  const page = resultsPage(bounded, spaceOrder, [...spaces.values()], countOf(rows));
  const hits = await pageHits(ctx, text, matches);
  const mapped = mapNodes(page, (match) => ({
    type: "space" as const,
    id: match.spaceId,
    title: match.title,
    score: match.score,
    pages: hits.filter((hit) => hit.spaceId === match.spaceId),
  }));
  return { ...mapped, countIsExact: page.countIsExact };
}
