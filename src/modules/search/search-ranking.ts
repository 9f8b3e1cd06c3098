import { Prisma } from "../../db/generated/client.ts";

/*
 * The ranking of a search, bounded. Exact ranking by `ts_rank` reads the vector of every match, and a word in every
 * page matches every page: at 100x that is a million vectors per search. So a search ranks candidates only: the
 * query's `bound` most recently edited title matches and its `bound` most recently edited matches, each read in that
 * order through an index (`SearchPage`'s (organization | space, updatedAt desc, ids) b-tree, filtered by the match,
 * when the word is common; its GIN indexes, then a sort of the few matches, when it is rare: the planner picks by the
 * word's frequency), so PostgreSQL stops after `bound` rows. A query with at most `bound` matches ranks them all,
 * exactly as before; one with more ranks its most recent ones and its title matches, and says so (`complete`).
 */

/** The matching pages of `scope` (and of `also`) in the order candidates are taken, at most `limit` of them. */
function matchesInOrder(text: string, scope: Prisma.Sql, limit: number, also: Prisma.Sql = Prisma.sql`TRUE`) {
  // The tsquery is written inline (not joined from a CTE): PostgreSQL folds it into a constant and plans with the
  // word's frequency in the column's statistics, which decides between the GIN index and the ordered b-tree.
  // Each candidate carries what its ranking reads: reading it again by key cost more than the ranking.
  return Prisma.sql`
    SELECT sp."spaceId", sp."pageId", sp."updatedAt", sp."searchVector", sp."titleVector",
      s."title" AS "spaceTitle", s."revisionId"
    FROM "SearchPage" AS sp JOIN "Space" AS s ON s."id" = sp."spaceId"
    WHERE ${scope} AND sp."searchVector" @@ websearch_to_tsquery('english', ${text}) AND ${also}
    ORDER BY sp."updatedAt" DESC, sp."spaceId", sp."pageId"
    LIMIT ${limit}`;
}

/**
 * Common table expressions (after `WITH`) ending in `ranked`: the candidates of `text` in `scope` (which narrows the
 * rows of `sp`, "SearchPage", and `s`, their space), each with its space's title and revision and its score. A match
 * of the whole query in the title (weight A) adds 1 to the score, so title matches rank first. `recent` holds one
 * match past the bound when there are more: `completeSql` reads it.
 */
export function rankedCandidatesSql(text: string, scope: Prisma.Sql, bound: number): Prisma.Sql {
  // Title matches are matches (a `-word` in the body excludes a page whose title matches), so they are read only
  // when `recent` does not hold every match: a rare word's are in it (a one-time filter, not run per row).
  const titleMatch = Prisma.sql`sp."titleVector" @@ websearch_to_tsquery('english', ${text})
    AND NOT ${completeSql(bound)}`;
  return Prisma.sql`
    recent AS MATERIALIZED (${matchesInOrder(text, scope, bound + 1)}),
    titled AS (${matchesInOrder(text, scope, bound, titleMatch)}),
    kept AS (SELECT * FROM recent ORDER BY "updatedAt" DESC, "spaceId", "pageId" LIMIT ${bound}),
    candidates AS (
      SELECT * FROM kept
      UNION ALL
      SELECT * FROM titled AS t WHERE NOT EXISTS (
        SELECT 1 FROM kept AS k WHERE k."spaceId" = t."spaceId" AND k."pageId" = t."pageId"
      )
    ),
    ranked AS (
      SELECT c."spaceId", c."spaceTitle", c."revisionId", c."pageId",
        (ts_rank(c."searchVector", q.query) + CASE WHEN c."titleVector" @@ q.query THEN 1 ELSE 0 END)::float8
          AS "score"
      FROM candidates AS c, websearch_to_tsquery('english', ${text}) AS q(query)
    )`;
}

/** Whether `ranked` holds every match: false when the query matches more pages than the bound. */
export function completeSql(bound: number): Prisma.Sql {
  return Prisma.sql`((SELECT count(*) FROM recent) <= ${bound})`;
}
