import type { Database } from "../db/database.ts";
import { insertOrganization } from "../modules/organization/organization.public.ts";
import { insertTeam } from "../modules/team/team.public.ts";
import { addMember, createApiToken, createUser, hasUsers } from "../modules/user/user.public.ts";
import type { Clock } from "../platform/clock.ts";

export interface BootstrapResult {
  organizationId: string;
  adminUserId: string;
  /** The admin's token: printed once, at the start that created it, unless it came from BOOTSTRAP_ADMIN_TOKEN. */
  adminToken: string;
}

/**
 * On an empty database, creates a demo organization with an admin, two more members and a team, so a newcomer
 * has something to explore. Returns null when the database already has users.
 */
export async function bootstrapDemoData(
  { prisma, sql }: Pick<Database, "prisma" | "sql">,
  clock: Clock,
  adminTokenValue?: string,
): Promise<BootstrapResult | null> {
  if (await hasUsers(sql)) return null;
  const now = clock.now();
  // One transaction: a start that fails half-way leaves an empty database, so the next start seeds again.
  return prisma.$transaction(async (tx) => {
    const admin = await createUser(tx, { email: "admin@example.com", displayName: "Demo Admin" });
    const organization = await insertOrganization(
      tx,
      { title: "Demo Organization", emailDomains: ["example.com"] },
      now,
      admin.id,
    );
    const writer = await createUser(tx, { email: "writer@example.com", displayName: "Demo Writer" });
    const reader = await createUser(tx, { email: "reader@example.com", displayName: "Demo Reader" });
    await addMember(tx, organization.id, writer.id, "edit", now);
    await addMember(tx, organization.id, reader.id, "read", now);
    await insertTeam(
      tx,
      organization.id,
      {
        title: "Writers",
        members: [
          { userId: writer.id, role: "owner" },
          { userId: admin.id, role: "member" },
        ],
      },
      now,
    );
    const { token } = await createApiToken(tx, admin.id, { label: "bootstrap", value: adminTokenValue });
    return { organizationId: organization.id, adminUserId: admin.id, adminToken: token };
  });
}
