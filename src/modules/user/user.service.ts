import { z } from "zod";
import { requireViewer } from "../../auth/access.ts";
import { authorizeInOrganization } from "../../auth/authorize.ts";
import { announceRevokedTokens } from "../../auth/token-cache.ts";
import { issueToken, tokenFromValue } from "../../auth/tokens.ts";
import type { PrismaExecutor } from "../../db/database.ts";
import type { ApiToken, PrismaClient, Role, User } from "../../db/generated/client.ts";
import { keyedSql, keyedText, type SqlReader } from "../../db/sql.ts";
import type { EventBus } from "../../events/bus.ts";
import { ConflictError, LimitReachedError, NotFoundError } from "../../lib/errors.ts";
import { parseInput, roleSchema } from "../../lib/validation.ts";
import { type PageArgs, paginate, type SortKey } from "../../paging/pagination.ts";
import { newId } from "../../platform/ids.ts";
import type { RequestContext } from "../../request/context.ts";
import { byKeys, defineLoader } from "../../request/loaders.ts";
import { canAddMembersByEmail } from "./user.policy.ts";

const newUserSchema = z.strictObject({
  email: z
    .email()
    .max(320)
    .transform((email) => email.toLowerCase()),
  displayName: z.string().trim().min(1).max(100),
});

const usersByIdSql = keyedSql((ids) => `SELECT * FROM "User" WHERE id ${ids}`);

/**
 * Users by id, without access checks (callers reach users through members they may see). Every list of change
 * requests, comments or members reads its people here, so it is a hand-written read (db/sql.ts): a server that only
 * serves reads never loads Prisma's engine.
 */
export const userByIdLoader = defineLoader<string, User | null>("userById", async (ctx, ids) => {
  const { text, keys } = keyedText(usersByIdSql, ids);
  const rows = await ctx.sql.rows<User>(text, [keys]);
  return byKeys(ids, rows, (row) => row.id);
});

/**
 * Users for `node`/`nodes`: the viewer, and the members of organizations whose members the viewer may list
 * (organization `read`: a guest sees only themselves).
 */
export async function loadVisibleUsers(ctx: RequestContext, ids: readonly string[]): Promise<(User | null)[]> {
  const viewer = requireViewer(ctx);
  const rows = await ctx.prisma.user.findMany({
    where: {
      id: { in: [...ids] },
      OR: [
        { id: viewer.userId },
        {
          memberships: {
            some: {
              organization: { members: { some: { userId: viewer.userId, disabled: false, role: { not: null } } } },
            },
          },
        },
      ],
    },
  });
  return byKeys(ids, rows, (row) => row.id);
}

export async function getViewerUser(ctx: RequestContext): Promise<User> {
  const viewer = requireViewer(ctx);
  const user = await userByIdLoader(ctx).load(viewer.userId);
  if (!user) throw new NotFoundError("User not found");
  return user;
}

/** Operator (CLI) and organization admins: creates a user; emails are unique. */
export async function createUser(prisma: PrismaExecutor, input: unknown): Promise<User> {
  const data = parseInput(newUserSchema, input);
  const existing = await prisma.user.findUnique({ where: { email: data.email } });
  if (existing) throw new ConflictError(`A user with email ${data.email} already exists`);
  return prisma.user.create({ data: { id: newId("User"), ...data } });
}

/** Operator (CLI): every user, oldest first. */
export function listUsers(prisma: PrismaClient) {
  return prisma.user.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, email: true } });
}

/** Operator (CLI): the tokens of one user, or of every user, oldest first; never a value (only hashes are stored). */
export function listApiTokens(prisma: PrismaClient, userId?: string) {
  return prisma.apiToken.findMany({
    where: userId ? { userId } : {},
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: {
      id: true,
      userId: true,
      label: true,
      createdAt: true,
      lastUsedAt: true,
      expiresAt: true,
      revokedAt: true,
    },
  });
}

export async function hasUsers(sql: SqlReader): Promise<boolean> {
  return (await sql.rows(`SELECT 1 FROM "User" LIMIT 1`)).length > 0;
}

/** Operator (CLI): issues a token for any user; the token is returned once and only its hash is stored. */
export async function createApiToken(
  prisma: PrismaExecutor,
  userId: string,
  options: { label?: string; value?: string; expiresAt?: Date } = {},
): Promise<{ token: string; apiToken: ApiToken }> {
  const user = await prisma.user.findUnique({ where: { id: userId } });
  if (!user) throw new NotFoundError(`User ${userId} not found`);
  const issued = options.value ? tokenFromValue(options.value) : issueToken();
  const apiToken = await prisma.apiToken.create({
    data: {
      id: newId("ApiToken"),
      userId,
      lookup: issued.lookup,
      hash: issued.hash,
      label: options.label ?? null,
      expiresAt: options.expiresAt ?? null,
    },
  });
  return { token: issued.token, apiToken };
}

/**
 * Operator (CLI): revokes any token. Revoking twice is harmless. Once the row is written, every instance's token
 * cache drops the token (announced on `events` again for a token already revoked: it costs one NOTIFY).
 */
export async function revokeApiToken(
  prisma: PrismaClient,
  events: EventBus,
  tokenId: string,
  now: Date,
): Promise<ApiToken> {
  const token = await prisma.apiToken.findUnique({ where: { id: tokenId } });
  if (!token) throw new NotFoundError(`Token ${tokenId} not found`);
  const revoked = token.revokedAt
    ? token
    : await prisma.apiToken.update({ where: { id: tokenId }, data: { revokedAt: now } });
  await announceRevokedTokens(events, [tokenId]);
  return revoked;
}

export const tokenLabelSchema = z.strictObject({
  label: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe("A name to recognize the token by, trimmed; omitted: none"),
});

/**
 * A new token for the caller, while they hold fewer than MAX_API_TOKENS_PER_USER active ones (neither revoked nor
 * expired). The user's row is locked while counting, so concurrent creations cannot all pass the check. Tokens the
 * operator issues (CLI, bootstrap) and SAML sign-ins (which expire) are not capped.
 */
export function createViewerApiToken(ctx: RequestContext, input: unknown) {
  const viewer = requireViewer(ctx);
  const { label } = parseInput(tokenLabelSchema, input);
  const max = ctx.config.maxApiTokensPerUser;
  const now = ctx.clock.now();
  return ctx.prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${viewer.userId} FOR UPDATE`;
    const active = await tx.apiToken.count({
      where: { userId: viewer.userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    });
    if (active >= max) {
      throw new LimitReachedError(
        "TOO_MANY_API_TOKENS",
        `A user may hold at most ${max} active API tokens; revoke one first`,
      );
    }
    return createApiToken(tx, viewer.userId, { label });
  });
}

/** Revokes one of the viewer's own tokens; another user's token id is reported as not found. */
export async function revokeViewerApiToken(ctx: RequestContext, tokenId: string): Promise<ApiToken> {
  const viewer = requireViewer(ctx);
  const token = await ctx.prisma.apiToken.findFirst({ where: { id: tokenId, userId: viewer.userId } });
  if (!token) throw new NotFoundError(`Token ${tokenId} not found`);
  return revokeApiToken(ctx.prisma, ctx.events, tokenId, ctx.clock.now());
}

/** The caller's API tokens, newest first. */
export const apiTokenOrder: SortKey<ApiToken>[] = [
  { field: "createdAt", direction: "desc" },
  { field: "id", direction: "desc" },
];

export function listViewerApiTokens(ctx: RequestContext, page: PageArgs) {
  const viewer = requireViewer(ctx);
  return paginate<ApiToken>(page, {
    sort: apiTokenOrder,
    where: { userId: viewer.userId },
    model: ctx.prisma.apiToken,
  });
}

export const addUserSchema = z.strictObject({
  email: newUserSchema.shape.email.describe("The person's email address, compared in lower case"),
  displayName: newUserSchema.shape.displayName
    .optional()
    .describe("Their name, trimmed, used when no user has this email yet; omitted: the email's local part"),
  role: roleSchema.nullable().describe("Their organization role; null: a guest"),
});

/**
 * Organization admins: makes a person a member by email, creating the user when nobody has that email yet.
 * A person who is already a member keeps their membership (409).
 */
export async function addOrganizationMemberByEmail(ctx: RequestContext, organizationId: string, input: unknown) {
  await authorizeInOrganization(ctx, organizationId, canAddMembersByEmail);
  const data = parseInput(addUserSchema, input);
  return ctx.prisma.$transaction(async (tx) => {
    const user =
      (await tx.user.findUnique({ where: { email: data.email } })) ??
      (await createUser(tx, { email: data.email, displayName: data.displayName ?? data.email.split("@")[0] }));
    return addMember(tx, organizationId, user.id, data.role, ctx.clock.now());
  });
}

/** Adds a membership; shared by the CLI and organization admins. */
export async function addMember(
  prisma: PrismaExecutor,
  organizationId: string,
  userId: string,
  role: Role | null,
  now: Date,
) {
  // One after the other: inside a transaction `prisma` is one connection, which runs one statement at a time (pg
  // queues concurrent ones, a use it deprecates).
  const organization = await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
  if (!organization) throw new NotFoundError(`Organization ${organizationId} not found`);
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw new NotFoundError(`User ${userId} not found`);
  const existing = await prisma.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
  if (existing) throw new ConflictError(`User ${userId} is already a member of ${organizationId}`);
  return prisma.member.create({ data: { organizationId, userId, role, joinedAt: now } });
}

/** Tokens for `node`/`nodes`: the viewer's own, as `viewer.apiTokens` lists them; anyone else's is null. */
export async function loadViewerApiTokens(ctx: RequestContext, ids: readonly string[]) {
  const viewer = requireViewer(ctx);
  const rows = await ctx.prisma.apiToken.findMany({ where: { id: { in: [...ids] }, userId: viewer.userId } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
}
