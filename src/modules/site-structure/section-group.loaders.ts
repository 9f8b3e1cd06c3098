import type { SiteSectionGroup } from "../../db/generated/client.ts";
import type { SortKey } from "../../paging/pagination.ts";
import type { RequestContext } from "../../request/context.ts";
import { defineLoader } from "../../request/loaders.ts";

export const sectionGroupOrder: SortKey<SiteSectionGroup>[] = [
  { field: "position", direction: "asc" },
  { field: "id", direction: "asc" },
];

/** Every section group of each site, in order: one statement for all sites of a nested read. */
export const sectionGroupsBySiteLoader = defineLoader<string, SiteSectionGroup[]>(
  "sectionGroupsBySite",
  async (ctx, siteIds) => {
    const rows = await ctx.prisma.siteSectionGroup.findMany({
      where: { siteId: { in: [...siteIds] } },
      orderBy: sectionGroupOrder.map((key) => ({ [key.field]: key.direction })),
    });
    const bySite = new Map<string, SiteSectionGroup[]>(siteIds.map((id) => [id, []]));
    for (const row of rows) bySite.get(row.siteId)?.push(row);
    return siteIds.map((id) => bySite.get(id) ?? []);
  },
);

/** The group a section or group sits in (its `sectionGroup` field), from its site's groups; null when none. */
export async function parentSectionGroup(
  ctx: RequestContext,
  siteId: string,
  groupId: string | null,
): Promise<SiteSectionGroup | null> {
  if (!groupId) return null;
  const groups = await sectionGroupsBySiteLoader(ctx).load(siteId);
  return groups.find((group) => group.id === groupId) ?? null;
}
