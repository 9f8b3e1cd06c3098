import type { Database } from "../../src/db/database.ts";
import { newId, randomBase62 } from "../../src/ids.ts";
import { addMember, createApiToken, createUser } from "../../src/modules/user/user.service.ts";

export interface BenchShape {
  sites: number;
  sectionsPerSite: number;
  siteSpacesPerSection: number;
  spaces: number;
}

export interface BenchData {
  organizationId: string;
  token: string;
}

/** One organization with `sites` x `sectionsPerSite` x `siteSpacesPerSection`, written in bulk. */
export async function seedBenchData(db: Database, shape: BenchShape): Promise<BenchData> {
  const { prisma } = db;
  const now = new Date("2026-01-01T00:00:00.000Z");
  const admin = await createUser(prisma, { email: "bench@bench.test", displayName: "Bench Admin" });
  const organizationId = newId("Organization");
  await prisma.organization.create({ data: { id: organizationId, title: "Bench Organization", createdAt: now } });
  await addMember(prisma, organizationId, admin.id, "admin", now);
  const { token } = await createApiToken(prisma, admin.id, { label: "bench" });

  const spaceIds = Array.from({ length: shape.spaces }, () => newId("Space"));
  await prisma.space.createMany({
    data: spaceIds.map((id, index) => ({
      id,
      organizationId,
      title: `Space ${index}`,
      emoji: "📘",
      revisionId: newId("Revision"),
      createdAt: now,
      updatedAt: now,
    })),
  });
  for (let s = 0; s < shape.sites; s++) {
    const siteId = newId("Site");
    const sectionIds = Array.from({ length: shape.sectionsPerSite }, () => newId("SiteSection"));
    await prisma.site.create({
      data: {
        id: siteId,
        organizationId,
        title: `Site ${s}`,
        visitorAuthKey: randomBase62(32),
        createdAt: new Date(now.getTime() + s),
        defaultSectionId: sectionIds[0] ?? null,
      },
    });
    const siteSpaces = sectionIds.flatMap((sectionId, sectionIndex) =>
      Array.from({ length: shape.siteSpacesPerSection }, (_, index) => ({
        id: newId("SiteSpace"),
        siteId,
        sectionId,
        spaceId: spaceIds[(s * 31 + sectionIndex * 7 + index) % spaceIds.length] as string,
        path: `variant-${index}`,
        position: index,
        createdAt: now,
      })),
    );
    await prisma.siteSection.createMany({
      data: sectionIds.map((id, index) => ({
        id,
        siteId,
        title: `Section ${index}`,
        path: `section-${index}`,
        position: index,
        createdAt: now,
        defaultSiteSpaceId: siteSpaces[index * shape.siteSpacesPerSection]?.id ?? null,
      })),
    });
    await prisma.siteSpace.createMany({ data: siteSpaces });
  }
  return { organizationId, token };
}
