import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/bus.ts";
import type { ReportProgress } from "../jobs/queue.ts";
import { domainErrorFrom } from "../lib/errors.ts";
import { parseInput, roleSchema } from "../lib/validation.ts";
import { insertOrganization } from "../modules/organization/organization.public.ts";
import {
  addMember,
  createApiToken,
  createUser,
  listApiTokens,
  listUsers,
  revokeApiToken,
} from "../modules/user/user.public.ts";
import { systemClock } from "../platform/clock.ts";
import type { Config } from "../platform/config.ts";
import { contextActingAs } from "../request/context.ts";
import { readKeyFile, rotateSecrets, SecretsRotationError } from "./rotate-secrets.ts";

/**
 * The operator commands (`npm run cli`, `npm run seed`). The CLI runs them on the database it opens, or, while a
 * server holds the embedded database, sends them to that server's admin socket, which runs these same handlers on
 * its own database and event bus (admin-socket.ts).
 */
export interface CommandContext {
  db: Pick<Database, "prisma" | "sql" | "withRawConnection">;
  /** The bus of the process that writes: a revocation evicts the token from the caches it feeds. */
  events: EventBus;
  config: Config;
  /** Progress of long work under `label` (the CLI shows it on stderr). */
  progress(label: string): ReportProgress;
}

export type CommandOptions = Record<string, string | undefined>;

type Handler = (ctx: CommandContext, options: CommandOptions) => Promise<unknown>;

/** A command called wrongly (a missing option): exit code 1, like a domain error. */
class UsageError extends Error {}

function required(options: CommandOptions, name: string): string {
  const value = options[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** What `member add --role` takes: the organization roles, and `guest` (a member with no role). */
const memberRoles: readonly string[] = [...roleSchema.options, "guest"];

const commands: Record<string, Handler> = {
  "org create": async ({ db }, options) => {
    const organization = await insertOrganization(db.prisma, { title: required(options, "title") }, systemClock.now());
    return { id: organization.id, title: organization.title };
  },
  "user create": async ({ db }, options) => {
    const user = await createUser(db.prisma, {
      email: required(options, "email"),
      displayName: required(options, "name"),
    });
    return { id: user.id, email: user.email, displayName: user.displayName };
  },
  "user list": async ({ db }) => {
    return { users: await listUsers(db.prisma) };
  },
  "member add": async ({ db }, options) => {
    const roleName = required(options, "role");
    if (!memberRoles.includes(roleName)) {
      throw new UsageError(`--role must be one of ${memberRoles.join(", ")} (not ${JSON.stringify(roleName)})`);
    }
    const role = roleName === "guest" ? null : parseInput(roleSchema, roleName);
    const member = await addMember(
      db.prisma,
      required(options, "org"),
      required(options, "user"),
      role,
      systemClock.now(),
    );
    return { organization: member.organizationId, user: member.userId, role: member.role };
  },
  "token create": async ({ db }, options) => {
    const { token, apiToken } = await createApiToken(db.prisma, required(options, "user"), { label: options.label });
    return { id: apiToken.id, user: apiToken.userId, token };
  },
  "token list": async ({ db }, options) => {
    return { tokens: await listApiTokens(db.prisma, options.user) };
  },
  "token revoke": async ({ db, events }, options) => {
    const token = await revokeApiToken(db.prisma, events, required(options, "token-id"), systemClock.now());
    return { id: token.id, revokedAt: token.revokedAt };
  },
  "secrets rotate": async ({ db, config }, options) => {
    const to = readKeyFile(required(options, "new-key-file"));
    return rotateSecrets(db, { from: config.secretsKey, to, dataDir: config.dataDir });
  },
  // Opening the database applied any pending migration (every command and start does): this says which it holds.
  migrate: async ({ db }) => {
    const rows = await db.sql.rows<{ name: string }>(
      `SELECT migration_name AS name FROM "_prisma_migrations"
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
    );
    return { migrations: rows.length, latest: rows.at(-1)?.name ?? null };
  },
  seed: async ({ db, events, config, progress }, options) => {
    // Loaded by this command only: it pulls in every content service, slow to load, which the others need not load.
    const { demoSizeSchema, seedDemoContent } = await import("../modules/demo/demo.public.ts");
    // Space creation writes its first revision through content, which the composition root plugs in.
    await import("./module-wiring.ts");
    const size = parseInput(demoSizeSchema, options.size ?? "small");
    let organizationId = options.org;
    let userId = options.user;
    let token: string | undefined;
    if (!organizationId) {
      const now = systemClock.now();
      const admin = await createUser(db.prisma, {
        email: `demo-admin-${now.getTime().toString(36)}@example.com`,
        displayName: "Demo Admin",
      });
      const organization = await insertOrganization(db.prisma, { title: `Demo Co (${size})` }, now, admin.id);
      organizationId = organization.id;
      userId = admin.id;
      token = (await createApiToken(db.prisma, admin.id, { label: "seed" })).token;
    } else if (!userId) {
      throw new UsageError("--user (an admin of --org) is required with --org");
    }
    const base = { prisma: db.prisma, sql: db.sql, config, clock: systemClock, events };
    const ctx = contextActingAs(base, userId as string, "cli-seed");
    const created = await seedDemoContent(ctx, organizationId, size, progress(`seed ${size}`));
    return { organization: organizationId, user: userId, ...(token ? { token } : {}), created };
  },
};

/** The command `positionals` name (`token create`, `seed`), if any. */
export function commandNamed(positionals: string[]): string | undefined {
  const twoWords = positionals.slice(0, 2).join(" ");
  if (Object.hasOwn(commands, twoWords)) return twoWords;
  const oneWord = positionals[0] ?? "";
  return Object.hasOwn(commands, oneWord) ? oneWord : undefined;
}

export function runCommand(name: string, ctx: CommandContext, options: CommandOptions): Promise<unknown> {
  const handler = commands[name];
  if (!handler) throw new UsageError(`Unknown command: ${name}`);
  return handler(ctx, options);
}

/** What the operator is told of a failed command; `known` is false for a fault of ours (exit code 3). */
export function commandFailure(error: unknown): { message: string; known: boolean } {
  const domain = domainErrorFrom(error);
  if (domain) return { message: domain.message, known: true };
  if (error instanceof UsageError || error instanceof SecretsRotationError)
    return { message: error.message, known: true };
  return { message: error instanceof Error ? error.message : String(error), known: false };
}
