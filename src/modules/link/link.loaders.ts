import type { PageVersionLink } from "../../db/generated/client.ts";
import { defineLoader } from "../../request/loaders.ts";
import { pageVersionLinkRows } from "../content/content.public.ts";

/**
 * The links of page versions, in order: one statement for any number of versions, plus one to find versions
 * written before links were extracted. Those are extracted here once and stored (concurrent readers storing the
 * same rows skip each other's), so later reads find them.
 */
export const pageVersionLinksLoader = defineLoader<string, PageVersionLink[]>(
  "pageVersionLinks",
  async (ctx, versionIds) => {
    const ids = [...versionIds];
    const [stored, unextracted] = await Promise.all([
      ctx.prisma.pageVersionLink.findMany({ where: { pageVersionId: { in: ids } }, orderBy: { ordinal: "asc" } }),
      ctx.prisma.pageVersion.findMany({
        where: { id: { in: ids }, linksExtracted: false },
        select: { id: true, type: true, markdown: true, href: true },
      }),
    ]);
    const extracted = unextracted.flatMap((version) => pageVersionLinkRows(version.id, version));
    if (unextracted.length > 0) {
      await ctx.prisma.$transaction([
        ctx.prisma.pageVersionLink.createMany({ data: extracted, skipDuplicates: true }),
        ctx.prisma.pageVersion.updateMany({
          where: { id: { in: unextracted.map((version) => version.id) } },
          data: { linksExtracted: true },
        }),
      ]);
    }
    const byVersion = new Map<string, PageVersionLink[]>(ids.map((id) => [id, []]));
    for (const link of [...stored, ...extracted]) byVersion.get(link.pageVersionId)?.push(link);
    return ids.map((id) => byVersion.get(id) ?? []);
  },
);
