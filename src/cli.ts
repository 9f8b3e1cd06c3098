import { parseArgs } from "node:util";
import { systemClock } from "./clock.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { contextActingAs } from "./context.ts";
import type { Database } from "./db/database.ts";
import { openConfiguredDatabase } from "./db/open.ts";
import { inProcessEventBus, startEventBus } from "./events/bus.ts";
import type { ReportProgress } from "./jobs/runner.ts";
import { domainErrorFrom } from "./lib/errors.ts";
import { insertOrganization } from "./modules/organization/organization.service.ts";
import { addMember, createApiToken, createUser, listUsers, revokeApiToken } from "./modules/user/user.service.ts";
import { parseInput, roleSchema } from "./validation.ts";

/** Operator commands: each prints one JSON line on success, or an error line on stderr and exits non-zero. */
const usage = `Usage: npm run cli -- <command> [options]
  org create --title T                      create an organization (no members yet)
  user create --email E --name N            create a user
  user list                                 list users (id, email)
  member add --org O --user U --role R      make a user a member (role: admin|create|review|edit|comment|read|guest)
  token create --user U [--label L]         create an API token for a user (printed once)
  token revoke --token-id I                 revoke a token
  seed [--size small|large] [--org O --user U]
                                            demo content (members, teams, spaces, sites), progress on stderr;
                                            without --org: a new organization, its admin and a token`;

type Handler = (
  db: Pick<Database, "prisma" | "sql" | "listen" | "notify">,
  options: Record<string, string | undefined>,
  config: Config,
) => Promise<unknown>;

/**
 * Progress of long work on stderr (stdout keeps its one JSON line): one updating line on a terminal, else a line
 * per tenth of the work, so logs stay short.
 */
function progressOnStderr(label: string): ReportProgress {
  let lastTenth = -1;
  return async (done, total, message) => {
    const percent = total ? Math.floor((done / total) * 100) : 0;
    const line = `${label}: ${String(percent).padStart(3)}% (${done}/${total}) ${message ?? ""}`;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${line.padEnd(process.stderr.columns - 1).slice(0, process.stderr.columns - 1)}`);
      if (done === total) process.stderr.write("\n");
    } else if (Math.floor(percent / 10) > lastTenth) {
      lastTenth = Math.floor(percent / 10);
      process.stderr.write(`${line}\n`);
    }
  };
}

function required(options: Record<string, string | undefined>, name: string): string {
  const value = options[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

class UsageError extends Error {}

const commands: Record<string, Handler> = {
  "org create": async ({ prisma }, options) => {
    const organization = await insertOrganization(prisma, { title: required(options, "title") }, systemClock.now());
    return { id: organization.id, title: organization.title };
  },
  "user create": async ({ prisma }, options) => {
    const user = await createUser(prisma, {
      email: required(options, "email"),
      displayName: required(options, "name"),
    });
    return { id: user.id, email: user.email, displayName: user.displayName };
  },
  "user list": async ({ prisma }) => {
    return { users: await listUsers(prisma) };
  },
  "member add": async ({ prisma }, options) => {
    const roleName = required(options, "role");
    const role = roleName === "guest" ? null : parseInput(roleSchema, roleName);
    const member = await addMember(
      prisma,
      required(options, "org"),
      required(options, "user"),
      role,
      systemClock.now(),
    );
    return {
      organization: member.organizationId,
      user: member.userId,
      role: member.role,
    };
  },
  "token create": async ({ prisma }, options) => {
    const { token, apiToken } = await createApiToken(prisma, required(options, "user"), { label: options.label });
    return { id: apiToken.id, user: apiToken.userId, token };
  },
  "token revoke": async (db, options) => {
    // The database's NOTIFY: running servers drop the token from their caches.
    const events = await startEventBus(db);
    try {
      const token = await revokeApiToken(db.prisma, events, required(options, "token-id"), systemClock.now());
      return { id: token.id, revokedAt: token.revokedAt };
    } finally {
      await events.close();
    }
  },
  seed: async ({ prisma, sql }, options, config) => {
    // Loaded by this command only: it pulls in every content service (~0.6 s), which the others need not load.
    const { demoSizeSchema, seedDemoContent } = await import("./modules/demo/demo.service.ts");
    const size = parseInput(demoSizeSchema, options.size ?? "small");
    let organizationId = options.org;
    let userId = options.user;
    let token: string | undefined;
    if (!organizationId) {
      const now = systemClock.now();
      const admin = await createUser(prisma, {
        email: `demo-admin-${now.getTime().toString(36)}@example.com`,
        displayName: "Demo Admin",
      });
      const organization = await insertOrganization(prisma, { title: `Demo Co (${size})` }, now, admin.id);
      organizationId = organization.id;
      userId = admin.id;
      token = (await createApiToken(prisma, admin.id, { label: "seed" })).token;
    } else if (!userId) {
      throw new UsageError("--user (an admin of --org) is required with --org");
    }
    const events = await inProcessEventBus();
    const ctx = contextActingAs({ prisma, sql, config, clock: systemClock, events }, userId as string, "cli-seed");
    const created = await seedDemoContent(ctx, organizationId, size, progressOnStderr(`seed ${size}`));
    return { organization: organizationId, user: userId, ...(token ? { token } : {}), created };
  },
};

async function main() {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: {
      title: { type: "string" },
      email: { type: "string" },
      name: { type: "string" },
      org: { type: "string" },
      user: { type: "string" },
      role: { type: "string" },
      label: { type: "string" },
      "token-id": { type: "string" },
      size: { type: "string" },
      help: { type: "boolean" },
    },
  });
  const handler = commands[positionals.slice(0, 2).join(" ")] ?? commands[positionals[0] ?? ""];
  if (values.help || !handler) {
    process.stderr.write(`${usage}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const config = loadConfig();
  const db = await openConfiguredDatabase(config);
  try {
    const options = Object.fromEntries(
      Object.entries(values).map(([key, value]) => [key, value === undefined ? undefined : String(value)]),
    );
    process.stdout.write(`${JSON.stringify(await handler(db, options, config))}\n`);
  } finally {
    await db.close();
  }
}

main().catch((error: unknown) => {
  const domain = domainErrorFrom(error);
  const known = domain !== undefined || error instanceof UsageError || error instanceof ConfigError;
  const message = domain?.message ?? (known ? (error as Error).message : String(error));
  process.stderr.write(`${JSON.stringify({ error: message })}\n`);
  if (!known && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(known ? 1 : 3);
});
