import type { Database } from "../../src/db/database.ts";
import { addMember, createApiToken, createUser } from "../../src/modules/user/user.service.ts";
import { newId, randomBase62 } from "../../src/platform/ids.ts";

export interface BenchShape {
  sites: number;
  sectionsPerSite: number;
  siteSpacesPerSection: number;
  spaces: number;
  /** Open change requests of the first space (the 1000-item list); as many more in other states. */
  changeRequests: number;
  /** Organizations of the same shape beside the measured one: the tables hold other tenants' rows, as in use. */
  otherOrganizations: number;
}

export interface BenchData {
  organizationId: string;
  /** The organization's admin, whose API token the workloads send. */
  userId: string;
  token: string;
  /** The first site (its site spaces are listed) and the first space (its change requests are listed). */
  siteId: string;
  spaceId: string;
}

const now = new Date("2026-01-01T00:00:00.000Z");

/** The measured organization and `otherOrganizations` more of the same shape, written in bulk. */
export async function seedBenchData(db: Database, shape: BenchShape): Promise<BenchData> {
  const data = await seedOrganization(db, shape, 0);
  for (let index = 1; index <= shape.otherOrganizations; index++) await seedOrganization(db, shape, index);
  return data;
}

/** One organization with `sites` x `sectionsPerSite` x `siteSpacesPerSection` and its admin. */
async function seedOrganization(db: Database, shape: BenchShape, index: number): Promise<BenchData> {
  const { prisma } = db;
  const admin = await createUser(prisma, { email: `bench${index}@bench.test`, displayName: "Bench Admin" });
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
  const spaceId = spaceIds[0] as string;
  const statuses = ["merged", "archived", "draft"];
  const changeRequests = Array.from({ length: shape.changeRequests * 2 }, (_, index) => ({
    id: newId("ChangeRequest"),
    spaceId,
    organizationId,
    number: index + 1,
    status: index < shape.changeRequests ? "open" : (statuses[index % statuses.length] as string),
    subject: `Change ${index + 1}`,
    createdById: admin.id,
    revisionId: newId("Revision"),
    revisionInitial: newId("Revision"),
    createdAt: new Date(now.getTime() + index),
    updatedAt: now,
  }));
  await prisma.changeRequest.createMany({ data: changeRequests });
  const counted = (status: string) => changeRequests.filter((changeRequest) => changeRequest.status === status).length;
  await prisma.space.update({
    where: { id: spaceId },
    data: {
      changeRequests: changeRequests.length,
      changeRequestsOpen: counted("open"),
      changeRequestsDraft: counted("draft"),
      changeRequestNumber: changeRequests.length,
      updatedAt: now,
    },
  });
  const siteIds: string[] = [];
  for (let s = 0; s < shape.sites; s++) {
    const siteId = newId("Site");
    siteIds.push(siteId);
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
  return { organizationId, userId: admin.id, token, siteId: siteIds[0] as string, spaceId };
}
