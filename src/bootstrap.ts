import type { Clock } from "./clock.ts";
import type { PrismaClient } from "./db/generated/client.ts";
import { newId } from "./ids.ts";
import { insertOrganization } from "./modules/organization/organization.service.ts";
import { addMember, createApiToken, createUser } from "./modules/user/user.service.ts";

export interface BootstrapResult {
  organizationId: string;
  adminUserId: string;
  /** The admin's token: printed once, at the start that created it. */
  adminToken: string;
}

/**
 * On an empty database, creates a demo organization with an admin, two more members and a team, so a newcomer
 * has something to explore. Returns null when the database already has users.
 */
export async function bootstrapDemoData(
  prisma: PrismaClient,
  clock: Clock,
  adminTokenValue?: string,
): Promise<BootstrapResult | null> {
  if ((await prisma.user.count()) > 0) return null;
  const now = clock.now();
  const admin = await createUser(prisma, {
    email: "admin@example.com",
    displayName: "Demo Admin",
  });
  const organization = await insertOrganization(
    prisma,
    { title: "Demo Organization", emailDomains: ["example.com"] },
    now,
    admin.id,
  );
  const writer = await createUser(prisma, {
    email: "writer@example.com",
    displayName: "Demo Writer",
  });
  const reader = await createUser(prisma, {
    email: "reader@example.com",
    displayName: "Demo Reader",
  });
  await addMember(prisma, organization.id, writer.id, "edit", now);
  await addMember(prisma, organization.id, reader.id, "read", now);
  await prisma.team.create({
    data: {
      id: newId("Team"),
      organizationId: organization.id,
      title: "Writers",
      members: {
        create: [
          { userId: writer.id, organizationId: organization.id, role: "owner" },
          { userId: admin.id, organizationId: organization.id, role: "member" },
        ],
      },
    },
  });
  const { token } = await createApiToken(prisma, admin.id, {
    label: "bootstrap",
    value: adminTokenValue,
  });
  return {
    organizationId: organization.id,
    adminUserId: admin.id,
    adminToken: token,
  };
}
