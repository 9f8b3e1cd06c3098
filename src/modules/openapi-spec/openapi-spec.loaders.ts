import type { Readable } from "../../auth/readable.ts";
import { type OpenAPISpec, Prisma, type Space } from "../../db/generated/client.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";

/** Specs by id, without access checks (callers reach them through a spec or version they may see). */
export const specByIdLoader = defineLoader<string, OpenAPISpec | null>("openAPISpecById", async (ctx, ids) => {
  const rows = await ctx.prisma.openAPISpec.findMany({ where: { id: { in: [...ids] } } });
  return byKeys(ids, rows, (row) => row.id);
});

/** A spec named by slug from a space's content: specs belong to the space's organization. */
interface SpaceSpecKey {
  spaceId: string;
  slug: string;
}

/**
 * The latest processed document of specs named from spaces' content (null: no such spec in the space's
 * organization, or not processed yet): one statement for every spec a read renders, whatever the number of pages.
 */
const spaceSpecDocumentLoader = defineLoader<SpaceSpecKey, unknown, string>(
  "spaceSpecDocument",
  async (ctx, keys) => {
    const rows = await ctx.prisma.$queryRaw<{ spaceId: string; slug: string; filesystem: Record<string, unknown> }[]>`
      SELECT space."id" AS "spaceId", spec."slug", version."filesystem"
      FROM "Space" space
      JOIN "OpenAPISpec" spec ON spec."organizationId" = space."organizationId"
      JOIN "OpenAPISpecVersion" version ON version."id" = spec."lastVersionId"
      WHERE space."id" IN (${Prisma.join([...new Set(keys.map((key) => key.spaceId))])})
        AND spec."slug" IN (${Prisma.join([...new Set(keys.map((key) => key.slug))])})`;
    const documents = new Map(
      rows.map((row) => [`${row.spaceId}/${row.slug}`, Object.values(row.filesystem ?? {})[0] ?? null]),
    );
    return keys.map((key) => documents.get(`${key.spaceId}/${key.slug}`) ?? null);
  },
  { cacheKeyFn: (key) => `${key.spaceId}/${key.slug}` },
);

/**
 * The latest processed document of the spec `slug` for a space the caller may read (a computed page's, rendered
 * with its page); null when the space's organization has no such spec or it is not processed yet.
 */
export function specDocumentFor(ctx: RequestContext, space: Readable<Pick<Space, "id">>, slug: string) {
  return spaceSpecDocumentLoader(ctx).load({ spaceId: space.id, slug });
}

/** The spec of a version the caller has read (its `spec` field): whoever reads a version may read its spec. */
export async function parentSpec(ctx: RequestContext, specId: string): Promise<OpenAPISpec> {
  const spec = await specByIdLoader(ctx).load(specId);
  if (!spec) throw new Error(`OpenAPI spec ${specId} is missing`);
  return spec;
}
