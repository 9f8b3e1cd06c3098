import type { Site, SiteSection, SiteSectionGroup, SiteSpace } from "../../db/generated/client.ts";
import { type KeyedSql, keyedSql, selectedColumns } from "../../db/sql.ts";
import { orderBySql, orderOf, type SortKey } from "../../paging/pagination.ts";

/*
 * The SQL of the site structure's reads (structure-reads.ts): its orders, columns and statements, written once per
 * order and kept, so a nested read builds no statement text per request.
 */

export const siteOrder: SortKey<Site>[] = [
  { field: "createdAt", direction: "asc" },
  { field: "id", direction: "asc" },
];

export const siteSectionOrder: SortKey<SiteSection>[] = [
  { field: "position", direction: "asc" },
  { field: "id", direction: "asc" },
];

export const sectionGroupOrder: SortKey<SiteSectionGroup>[] = [
  { field: "position", direction: "asc" },
  { field: "id", direction: "asc" },
];

/**
 * A site space as reads return it: `createdAt` only when the list's order or filter uses it. No field or REST body
 * shows it, and a timestamp costs a Date per row that lives as long as the request: on the nested read's 2000 site
 * spaces, a sixth of its CPU with the collector's share (measured beside `npm run bench`).
 */
export type SiteSpaceRow = Omit<SiteSpace, "createdAt"> & { createdAt?: Date };

export const siteSpaceOrder: SortKey<SiteSpaceRow>[] = [
  { field: "position", direction: "asc" },
  { field: "id", direction: "asc" },
];

const siteSpaceOrderSql = orderBySql(siteSpaceOrder, "t");

const columnsButCreatedAt = selectedColumns<Omit<SiteSpace, "createdAt">>("t", {
  id: true,
  siteId: true,
  sectionId: true,
  spaceId: true,
  path: true,
  title: true,
  condition: true,
  position: true,
});

/** The select list of a site-space read on `t`, in the given order, with `createdAt` when it or the filter uses it. */
export function siteSpaceColumnsSql(sort: readonly SortKey<SiteSpaceRow>[], filtersOnCreated: boolean): string {
  const withCreatedAt = filtersOnCreated || sort.some((key) => key.field === "createdAt");
  return withCreatedAt ? `${columnsButCreatedAt}, t."createdAt"` : columnsButCreatedAt;
}

/** Site spaces whose space is deleted are hidden everywhere: every read filters on the live space. */
export const liveSiteSpace = { space: { deletedAt: null } } as const;

/** `liveSiteSpace` for the hand-written reads, on the site space aliased `t`. */
const liveSiteSpaceSql = `EXISTS (SELECT 1 FROM "Space" s WHERE s.id = t."spaceId" AND s."deletedAt" IS NULL)`;

/**
 * The same check probing each row's space by its key, for reads of one site's site spaces (its list pages, their
 * count, its defaults, site spaces by id): `OFFSET 0` keeps PostgreSQL from turning the EXISTS into a join. As a
 * join it hashed the whole Space table, every tenant's spaces, for each statement, three statements per list request.
 * Probes grow with the rows read, the hash with the table, which pays for reads over many sites (the nested read's
 * 2000 site spaces). Both measured in docs/performance.md.
 */
export const liveSiteSpaceProbedSql = `EXISTS (SELECT 1 FROM "Space" s WHERE s.id = t."spaceId" AND s."deletedAt" IS NULL OFFSET 0)`;

/**
 * A read of live site spaces by site (`$1`), written once with where its sites match and its liveness check: for
 * one site its `= $1` text probes the spaces, for several its `= ANY($1)` text joins them (see above).
 */
function liveSiteSpacesBySiteSql(write: (sitesMatch: string, live: string) => string): KeyedSql {
  return { one: write("= $1", liveSiteSpaceProbedSql), many: write("= ANY($1)", liveSiteSpaceSql) };
}

export const sitesByIdSql = keyedSql((ids) => `SELECT * FROM "Site" WHERE id ${ids}`);

export const sectionsByIdSql = keyedSql((ids) => `SELECT * FROM "SiteSection" WHERE id ${ids}`);

export const liveSiteSpacesByIdSql = keyedSql(
  (ids) => `SELECT * FROM "SiteSpace" t WHERE t.id ${ids} AND ${liveSiteSpaceProbedSql}`,
);

/** Statement texts by a key of what varies (an order, a select list), each written the first time it is asked. */
function writtenOnce<Args extends unknown[]>(keyOf: (...args: Args) => string, write: (...args: Args) => KeyedSql) {
  const written = new Map<string, KeyedSql>();
  return (...args: Args): KeyedSql => {
    const key = keyOf(...args);
    let sql = written.get(key);
    if (!sql) {
      sql = write(...args);
      written.set(key, sql);
    }
    return sql;
  };
}

/** Every site of each organization, in the given order. */
export const sitesByOrganizationSql = writtenOnce(orderOf, (sort: readonly SortKey<Site>[]) =>
  keyedSql((ids) => `SELECT * FROM "Site" t WHERE t."organizationId" ${ids} ORDER BY ${orderBySql(sort, "t")}`),
);

/** Every section of each site, in the given order. */
export const sectionsBySiteSql = writtenOnce(orderOf, (sort: readonly SortKey<SiteSection>[]) =>
  keyedSql((ids) => `SELECT * FROM "SiteSection" t WHERE t."siteId" ${ids} ORDER BY ${orderBySql(sort, "t")}`),
);

/** Every live site space of each site (all scopes), in the given order, with the columns it needs. */
export const siteSpacesBySiteSql = writtenOnce(
  (sort: readonly SortKey<SiteSpaceRow>[], columns: string) => `${orderOf(sort)} ${columns}`,
  (sort: readonly SortKey<SiteSpaceRow>[], columns: string) =>
    liveSiteSpacesBySiteSql(
      (sites, live) => `SELECT ${columns} FROM "SiteSpace" t
        WHERE t."siteId" ${sites} AND ${live} ORDER BY ${orderBySql(sort, "t")}`,
    ),
);

// A pointer counts in its own scope only: the section's id, or the site's for its root.
export const siteSpaceDefaultsSql = liveSiteSpacesBySiteSql(
  (sites, live) => `WITH pointer AS (
       SELECT id AS scope, "defaultSiteSpaceId" AS id FROM "Site" WHERE id ${sites}
       UNION ALL SELECT id, "defaultSiteSpaceId" FROM "SiteSection" WHERE "siteId" ${sites}
     )
     SELECT DISTINCT ON (t."siteId", t."sectionId") t."siteId", t.id FROM "SiteSpace" t
     WHERE t."siteId" ${sites} AND ${live}
     ORDER BY t."siteId", t."sectionId",
       (COALESCE(t."sectionId", t."siteId"), t.id) IN (SELECT scope, id FROM pointer) DESC, ${siteSpaceOrderSql}`,
);
