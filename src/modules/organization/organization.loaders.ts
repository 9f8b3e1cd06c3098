import type { Readable } from "../../auth/readable.ts";
import type { Organization } from "../../db/generated/client.ts";
import { keyedSql, keyedText } from "../../db/sql.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";

const organizationsByIdSql = keyedSql((ids) => `SELECT * FROM "Organization" WHERE id ${ids}`);

/**
 * Organizations by id, without access checks: services check membership before handing one out, and other modules
 * reach them only through `organizationOfReadable` and `organizationExists`.
 */
export const organizationByIdLoader = defineLoader<string, Organization | null>(
  "organizationById",
  async (ctx, ids) => {
    const { text, keys } = keyedText(organizationsByIdSql, ids);
    const rows = await ctx.sql.rows<Organization>(text, [keys]);
    return byKeys(ids, rows, (row) => row.id);
  },
);

/** Whether the viewer owns at least one team, per organization id. */
export const viewerOwnsTeamLoader = defineLoader<string, boolean>("viewerOwnsTeam", async (ctx, orgIds) => {
  const userId = ctx.viewer?.userId ?? "";
  const rows = await ctx.prisma.teamMember.findMany({
    where: { userId, role: "owner", organizationId: { in: [...orgIds] } },
    select: { organizationId: true },
    distinct: ["organizationId"],
  });
  const owned = new Set(rows.map((row) => row.organizationId));
  return orgIds.map((id) => owned.has(id));
});

/**
 * The organization of a row the caller has read (its parent field, `site.organization`): whoever may read a row of
 * an organization may read the organization itself, so no second check.
 */
export async function parentOrganization(ctx: RequestContext, organizationId: string): Promise<Organization> {
  const organization = await organizationByIdLoader(ctx).load(organizationId);
  if (!organization) throw new Error(`Organization ${organizationId} is missing`);
  return organization;
}

/** The organization of a row the viewer may read (a space, ...): readable with it, so no second check. */
export function organizationOfReadable(
  ctx: RequestContext,
  row: Readable<{ organizationId: string }>,
): Promise<Organization | null> {
  return organizationByIdLoader(ctx).load(row.organizationId);
}

/** Whether an organization exists: all a public page (its sign-in options) may learn of it without a token. */
export async function organizationExists(ctx: RequestContext, organizationId: string): Promise<boolean> {
  return (await organizationByIdLoader(ctx).load(organizationId)) !== null;
}
