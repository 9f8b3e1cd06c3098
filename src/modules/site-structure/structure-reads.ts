import DataLoader from "dataloader";
import { checkedRead, type Readable } from "../../auth/readable.ts";
import type { Site, SiteSection, SiteSectionGroup, Space } from "../../db/generated/client.ts";
import { type KeyedSql, keyedText } from "../../db/sql.ts";
import { orderOf, type SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, loadedByKey } from "../../request/loaders.ts";
import { definePerRequest } from "../../request/request-state.ts";
import {
  type SpaceSummary,
  spaceByIdLoader,
  visibleSpaceLoader,
  visibleSpaceSummaryLoader,
} from "../space/space.public.ts";
import { publishedSiteShowsSpace } from "./site.policy.ts";
import type { SiteSpaceSettling, SpaceSettling } from "./structure-selection.ts";
import {
  liveSiteSpace,
  liveSiteSpacesByIdSql,
  type SiteSpaceRow,
  sectionGroupOrder,
  sectionsByIdSql,
  sectionsBySiteSql,
  siteSectionOrder,
  siteSpaceColumnsSql,
  siteSpaceDefaultsSql,
  siteSpaceOrder,
  siteSpacesBySiteSql,
  sitesByIdSql,
  sitesByOrganizationSql,
} from "./structure-sql.ts";
import { type StructureUrls, siteUrls, urlsUnder } from "./urls.ts";

type SiteSpacesBySection = Map<string | null, SiteSpaceRow[]>;

/**
 * The read boundary of the site structure (the nested read organization -> sites -> sections -> site spaces, and
 * every other read of a site's structure): per request, it owns the loaders and their statements
 * (structure-sql.ts), what a list settles for its rows so their fields answer at once, and the forgetting after a
 * write. Services ask it for rows and keep the rules; resolvers pass what their selection needs
 * (structure-selection.ts). Nothing here checks access: callers reach it through a checked site.
 */
class StructureReads {
  /** Sites by id. */
  readonly site: DataLoader<string, Site | null>;
  /** Sections by id. */
  readonly section: DataLoader<string, SiteSection | null>;
  /** Every section group of each site, in order. */
  readonly sectionGroups: DataLoader<string, SiteSectionGroup[]>;
  /** The default site space of every scope of each site (`siteSpaceDefaultsSql`). */
  readonly defaults: DataLoader<string, Set<string>>;
  /** Live site spaces per site (REST: `siteSpaces`). */
  readonly siteSpaceCount: DataLoader<string, number>;
  /** Sites opened as published content in this request: their site spaces show their spaces (`spaceOf`). */
  readonly openedAsPublished = new Set<string>();

  // Lists by parent, one loader per order (and select list): one statement for all parents of a nested read.
  private readonly sitesByOrganization = new Map<string, DataLoader<string, Site[]>>();
  private readonly sectionsBySite = new Map<string, DataLoader<string, SiteSection[]>>();
  private readonly siteSpacesBySite = new Map<string, DataLoader<string, SiteSpaceRow[]>>();
  private readonly siteSpacesBySection = new Map<SpaceSettling, DataLoader<string, SiteSpacesBySection>>();

  // What lists settled for their rows. Spaces by space id rather than by site space: 2000 site spaces show 200.
  private readonly publishedSpaces = new Map<string, Readable<Space>>();
  private readonly visibleSpaces = new Map<string, Readable<Space> | null>();
  private readonly visibleSummaries = new Map<string, Readable<SpaceSummary> | null>();
  private readonly defaultFlags = new Map<SiteSpaceRow, boolean>();
  private readonly urls = new Map<SiteSpaceRow, StructureUrls>();

  constructor(private readonly ctx: RequestContext) {
    this.site = this.byId(sitesByIdSql);
    this.section = this.byId(sectionsByIdSql);
    this.sectionGroups = new DataLoader(async (siteIds) => {
      const rows = await ctx.prisma.siteSectionGroup.findMany({
        where: { siteId: { in: [...siteIds] } },
        orderBy: sectionGroupOrder.map((key) => ({ [key.field]: key.direction })),
      });
      return grouped(siteIds, rows, (row) => row.siteId);
    });
    this.defaults = new DataLoader(async (siteIds) => {
      const rows = await this.rows<{ siteId: string; id: string }>(siteSpaceDefaultsSql, siteIds);
      const bySite = new Map<string, Set<string>>(siteIds.map((id) => [id, new Set()]));
      for (const row of rows) bySite.get(row.siteId)?.add(row.id);
      return siteIds.map((id) => bySite.get(id) ?? new Set());
    });
    this.siteSpaceCount = new DataLoader(async (siteIds) => {
      const rows = await ctx.prisma.siteSpace.groupBy({
        by: ["siteId"],
        where: { siteId: { in: [...siteIds] }, ...liveSiteSpace },
        _count: { _all: true },
      });
      const counts = new Map(rows.map((row) => [row.siteId, row._count._all]));
      return siteIds.map((id) => counts.get(id) ?? 0);
    });
  }

  /** Every site of each organization in the given order. */
  sitesOfOrganization(sort: readonly SortKey<Site>[]): DataLoader<string, Site[]> {
    return this.listLoader(
      this.sitesByOrganization,
      orderOf(sort),
      sitesByOrganizationSql(sort),
      (row) => row.organizationId,
    );
  }

  /** Every section of each site in the given order (the sections' own unless asked). */
  sectionsOfSite(sort: readonly SortKey<SiteSection>[] = siteSectionOrder): DataLoader<string, SiteSection[]> {
    return this.listLoader(this.sectionsBySite, orderOf(sort), sectionsBySiteSql(sort), (row) => row.siteId);
  }

  /**
   * Every live site space of each site (all scopes) in the given order (the site spaces' own unless asked), with
   * `createdAt` when the order or a filter reads it.
   */
  siteSpacesOfSite(
    sort: readonly SortKey<SiteSpaceRow>[] = siteSpaceOrder,
    filtersOnCreated = false,
  ): DataLoader<string, SiteSpaceRow[]> {
    const columns = siteSpaceColumnsSql(sort, filtersOnCreated);
    const sql = siteSpacesBySiteSql(sort, columns);
    return this.listLoader(this.siteSpacesBySite, `${orderOf(sort)} ${columns}`, sql, (row) => row.siteId);
  }

  /**
   * Each site's live site spaces by section, from the by-site read in the structure's order (by section ids,
   * PostgreSQL compared every site space of every site with each id), their spaces settled as `settling` asks.
   */
  siteSpacesBySectionOfSite(settling: SpaceSettling): DataLoader<string, SiteSpacesBySection> {
    let loader = this.siteSpacesBySection.get(settling);
    if (!loader) {
      loader = new DataLoader(async (siteIds) => {
        const lists = await this.siteSpacesOfSite().loadMany(siteIds);
        if (settling !== "none") {
          await this.settleSpaces(
            lists.flatMap((list) => (list instanceof Error ? [] : list)),
            settling,
          );
        }
        return lists.map((list) => (list instanceof Error ? list : bySection(list)));
      });
      this.siteSpacesBySection.set(settling, loader);
    }
    return loader;
  }

  /** The site of a row the caller has read (its parent field, `section.site`): readable wherever its rows are. */
  async parentSite(siteId: string): Promise<Site> {
    const site = await this.site.load(siteId);
    if (!site) throw new Error(`Site ${siteId} is missing`);
    return site;
  }

  /** The section a site space sits in (its `section` field); null at the site root. */
  parentSection(sectionId: string | null): Promise<SiteSection | null> | null {
    return sectionId ? this.section.load(sectionId) : null;
  }

  /** The group a section or group sits in (its `sectionGroup` field), from its site's groups; null when none. */
  async parentGroup(siteId: string, groupId: string | null): Promise<SiteSectionGroup | null> {
    if (!groupId) return null;
    const groups = await this.sectionGroups.load(siteId);
    return groups.find((group) => group.id === groupId) ?? null;
  }

  /** Live site spaces by id, in the order asked (null for missing or hidden ones). */
  async liveSiteSpaces(ids: readonly string[]): Promise<(SiteSpaceRow | null)[]> {
    return byKeys(ids, await this.rows<SiteSpaceRow>(liveSiteSpacesByIdSql, ids), (row) => row.id);
  }

  /**
   * Forgets what this request read of a site's structure (the site row holds default pointers): a write's result
   * is read back after the write, and the access check before it already read the site.
   */
  forget(siteId: string): void {
    this.site.clear(siteId);
    this.section.clearAll();
    for (const loader of this.sectionsBySite.values()) loader.clear(siteId);
    for (const loader of this.siteSpacesBySite.values()) loader.clear(siteId);
    for (const loader of this.siteSpacesBySection.values()) loader.clear(siteId);
    this.sectionGroups.clear(siteId);
    this.defaults.clear(siteId);
    this.siteSpaceCount.clear(siteId);
  }

  /** Settles what a page's items select (`SiteSpaceSettling`), so their fields answer at once. */
  async settle(rows: readonly SiteSpaceRow[], settling: SiteSpaceSettling): Promise<void> {
    await Promise.all([
      settling.spaces !== "none" && this.settleSpaces(rows, settling.spaces),
      settling.defaults && this.settleDefaultFlags(rows),
      settling.urls && this.settleUrls(rows),
    ]);
  }

  /**
   * The space a site space shows. Through published content (a site in `openedAsPublished`) it is shown, as the
   * published site shows it to every visitor; management reads show it only to a caller who may read the space
   * (the site's readers do not all; null otherwise). A space settled with its list comes back without a promise.
   */
  spaceOf(siteSpace: SiteSpaceRow): Promise<Readable<Space> | null> | Readable<Space> | null {
    if (this.openedAsPublished.has(siteSpace.siteId)) {
      return this.publishedSpaces.get(siteSpace.spaceId) ?? this.loadPublishedSpace(siteSpace);
    }
    if (!this.ctx.viewer) return null;
    const full = this.visibleSpaces.get(siteSpace.spaceId);
    // A summary is settled only for lists whose items select nothing of the space a summary lacks.
    const settled =
      full !== undefined ? full : (this.visibleSummaries.get(siteSpace.spaceId) as Readable<Space> | null);
    return settled !== undefined ? settled : visibleSpaceLoader(this.ctx).load(siteSpace.spaceId);
  }

  /** Whether a site space is the default of its scope (its section, or the site root); batched over sites. */
  isDefault(siteSpace: SiteSpaceRow): Promise<boolean> | boolean {
    const settled = this.defaultFlags.get(siteSpace);
    if (settled !== undefined) return settled;
    return this.defaults.load(siteSpace.siteId).then((defaults) => defaults.has(siteSpace.id));
  }

  /** A site space's URLs: at once when its list settled them. */
  urlsOf(siteSpace: SiteSpaceRow): Promise<StructureUrls> | StructureUrls {
    return this.urls.get(siteSpace) ?? this.loadUrls(siteSpace);
  }

  /** A section's URLs: where a visitor finds it. */
  async sectionUrls(section: SiteSection): Promise<StructureUrls> {
    return urlsUnder(await this.publishedBase(section.siteId), [section.path]);
  }

  private byId<Row extends { id: string }>(sql: KeyedSql): DataLoader<string, Row | null> {
    return new DataLoader(async (ids) => byKeys(ids, await this.rows<Row>(sql, ids), (row) => row.id));
  }

  private listLoader<Row>(
    family: Map<string, DataLoader<string, Row[]>>,
    key: string,
    sql: KeyedSql,
    parentOf: (row: Row) => string,
  ): DataLoader<string, Row[]> {
    let loader = family.get(key);
    if (!loader) {
      loader = new DataLoader(async (parentIds) => grouped(parentIds, await this.rows<Row>(sql, parentIds), parentOf));
      family.set(key, loader);
    }
    return loader;
  }

  private rows<Row>(sql: KeyedSql, keys: readonly unknown[]): Promise<Row[]> {
    const { text, keys: bound } = keyedText(sql, keys);
    return this.ctx.sql.rows<Row>(text, [bound]);
  }

  private async loadPublishedSpace(siteSpace: SiteSpaceRow): Promise<Readable<Space>> {
    // Reads only reach site spaces of live spaces, so the space is there.
    const space = await spaceByIdLoader(this.ctx).load(siteSpace.spaceId);
    if (!space) throw new Error(`Space ${siteSpace.spaceId} of site space ${siteSpace.id} is missing`);
    return checkedRead(space, publishedSiteShowsSpace(this.openedAsPublished.has(siteSpace.siteId), space));
  }

  /**
   * Loads the spaces of a list of site spaces (once per distinct space, batched with the request's other lists)
   * and keeps them by id, so that `spaceOf` answers each row at once: a nested read's 2000 site spaces otherwise
   * cost a promise each and the executor's slower path for asynchronous fields. Spaces that fail to load are left
   * for `spaceOf` to load, and fail, on its own.
   */
  private async settleSpaces(siteSpaces: readonly SiteSpaceRow[], settling: Exclude<SpaceSettling, "none">) {
    const published = new Set<string>();
    const visible = new Set<string>();
    for (const siteSpace of siteSpaces) {
      if (this.openedAsPublished.has(siteSpace.siteId)) published.add(siteSpace.spaceId);
      else if (this.ctx.viewer) visible.add(siteSpace.spaceId);
    }
    const publishedIds = [...published];
    const visibleIds = [...visible];
    const visibleLoader = settling === "summaries" ? visibleSpaceSummaryLoader : visibleSpaceLoader;
    const settledVisible = settling === "summaries" ? this.visibleSummaries : this.visibleSpaces;
    const [publishedSpaces, visibleSpaces] = await Promise.all([
      publishedIds.length ? spaceByIdLoader(this.ctx).loadMany(publishedIds) : [],
      visibleIds.length ? visibleLoader(this.ctx).loadMany(visibleIds) : [],
    ]);
    for (const [id, space] of loadedByKey(publishedIds, publishedSpaces)) {
      if (space) this.publishedSpaces.set(id, checkedRead(space, publishedSiteShowsSpace(true, space)));
    }
    for (const [id, space] of loadedByKey(visibleIds, visibleSpaces)) settledVisible.set(id, space);
  }

  private async settleDefaultFlags(siteSpaces: readonly SiteSpaceRow[]): Promise<void> {
    const siteIds = [...new Set(siteSpaces.map((siteSpace) => siteSpace.siteId))];
    const bySite = loadedByKey(siteIds, await this.defaults.loadMany(siteIds));
    for (const siteSpace of siteSpaces) {
      const defaults = bySite.get(siteSpace.siteId);
      if (defaults) this.defaultFlags.set(siteSpace, defaults.has(siteSpace.id));
    }
  }

  /** The site's published URL, or null while it is not published. */
  private async publishedBase(siteId: string): Promise<string | null> {
    const site = await this.site.load(siteId);
    return site ? siteUrls(this.ctx, site).published : null;
  }

  private async loadUrls(siteSpace: SiteSpaceRow): Promise<StructureUrls> {
    const base = await this.publishedBase(siteSpace.siteId);
    // The section's path matters only under a published URL: lists of unpublished sites skip reading sections.
    const section = base && siteSpace.sectionId ? await this.section.load(siteSpace.sectionId) : null;
    return urlsUnder(base, section ? [section.path, siteSpace.path] : [siteSpace.path]);
  }

  /** Settles the URLs of a list's site spaces: each site's published URL once, and sections only under one. */
  private async settleUrls(siteSpaces: readonly SiteSpaceRow[]): Promise<void> {
    const siteIds = [...new Set(siteSpaces.map((siteSpace) => siteSpace.siteId))];
    const bases = new Map(await Promise.all(siteIds.map(async (id) => [id, await this.publishedBase(id)] as const)));
    const sectionIds = new Set<string>();
    for (const { siteId, sectionId } of siteSpaces) if (bases.get(siteId) && sectionId) sectionIds.add(sectionId);
    const ids = [...sectionIds];
    const sections = loadedByKey(ids, await this.section.loadMany(ids));
    for (const siteSpace of siteSpaces) {
      const base = bases.get(siteSpace.siteId) ?? null;
      const sectionId = base ? siteSpace.sectionId : null;
      // A section that failed to load leaves its site spaces' URLs to their field.
      if (sectionId !== null && !sections.has(sectionId)) continue;
      const section = sectionId === null ? null : sections.get(sectionId);
      this.urls.set(siteSpace, urlsUnder(base, section ? [section.path, siteSpace.path] : [siteSpace.path]));
    }
  }
}

/** The request's structure reads, created on first use. */
export const structureReads = definePerRequest("site structure reads", (ctx) => new StructureReads(ctx));

/** Rows grouped by parent in their read order: one list per parent asked, empty when it has none. */
function grouped<Row>(parentIds: readonly string[], rows: readonly Row[], parentOf: (row: Row) => string): Row[][] {
  const byParent = new Map<string, Row[]>(parentIds.map((id) => [id, []]));
  for (const row of rows) byParent.get(parentOf(row))?.push(row);
  return parentIds.map((id) => byParent.get(id) ?? []);
}

function bySection(siteSpaces: readonly SiteSpaceRow[]): SiteSpacesBySection {
  const sections: SiteSpacesBySection = new Map();
  for (const siteSpace of siteSpaces) {
    const list = sections.get(siteSpace.sectionId);
    if (list) list.push(siteSpace);
    else sections.set(siteSpace.sectionId, [siteSpace]);
  }
  return sections;
}
