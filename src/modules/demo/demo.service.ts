import { z } from "zod";
import type { ModuleJobs, ReportProgress } from "../../jobs/queue.ts";
import { parseInput } from "../../lib/validation.ts";
import { systemClock } from "../../platform/clock.ts";
import { contextActingAs, type RequestContext } from "../../request/context.ts";
import { addSiteSection, addSiteSpace, createSite } from "../site-structure/site-structure.public.ts";
import { createSpace } from "../space/space.public.ts";
import { createTeam } from "../team/team.public.ts";
import { addMember, createUser } from "../user/user.public.ts";

/** How much demo content each size creates. `large` is the shape of a real documentation organization. */
const demoSizes = {
  small: { members: 3, teams: 1, sites: 1, sectionsPerSite: 2, spacesPerSection: 2 },
  large: { members: 60, teams: 8, sites: 12, sectionsPerSite: 5, spacesPerSection: 3 },
} as const;

export const demoSizeSchema = z.enum(["small", "large"]);
const products = ["Payments", "Identity", "Search", "Storage", "Messaging", "Analytics", "Billing", "Mobile SDK"];
const sectionTitles = ["Getting Started", "Guides", "API Reference", "Integrations", "Changelog", "Troubleshooting"];
const roles = ["read", "comment", "edit", "review", "create"] as const;

/**
 * Fills an organization with demo content through the same services the API uses (so every rule applies):
 * members with varied roles, teams, spaces, and sites whose sections hold those spaces. `ctx.viewer` must be an
 * organization admin. Progress is reported after each unit of work.
 */
export async function seedDemoContent(
  ctx: RequestContext,
  organizationId: string,
  sizeInput: unknown,
  reportProgress: ReportProgress,
): Promise<{ members: number; teams: number; spaces: number; sites: number }> {
  const size = demoSizes[parseInput(demoSizeSchema, sizeInput)];
  const spaceCount = size.sites * size.sectionsPerSite * size.spacesPerSection;
  const total = size.members + size.teams + size.sites * (1 + size.sectionsPerSite * (1 + size.spacesPerSection));
  let done = 0;
  const step = (message: string) => reportProgress(++done, total, message);
  const now = ctx.clock.now();
  const batch = `${organizationId.slice(-6).toLowerCase()}${now.getTime().toString(36)}`;

  const userIds: string[] = [];
  for (let i = 0; i < size.members; i++) {
    const user = await createUser(ctx.prisma, {
      email: `demo-${batch}-${i + 1}@example.com`,
      displayName: `Demo Writer ${i + 1}`,
    });
    await addMember(ctx.prisma, organizationId, user.id, roles[i % roles.length] ?? "read", now);
    userIds.push(user.id);
    await step(`member ${i + 1} of ${size.members}`);
  }
  for (let i = 0; i < size.teams; i++) {
    const members = userIds.filter((_, index) => index % size.teams === i);
    await createTeam(ctx, organizationId, { title: `${products[i % products.length]} team`, members });
    await step(`team ${i + 1} of ${size.teams}`);
  }
  for (let s = 0; s < size.sites; s++) {
    const product = `${products[s % products.length]}${s >= products.length ? ` ${s + 1}` : ""}`;
    const site = await createSite(ctx, organizationId, { title: `${product} docs` });
    await step(`site ${s + 1} of ${size.sites}`);
    for (let c = 0; c < size.sectionsPerSite; c++) {
      const sectionTitle = sectionTitles[c % sectionTitles.length] ?? "Docs";
      const first = await createSpace(ctx, organizationId, { title: `${product}: ${sectionTitle}` });
      const section = await addSiteSection(ctx, organizationId, site.id, { spaceId: first.id, title: sectionTitle });
      await step(`site ${s + 1}: section ${sectionTitle}`);
      for (let p = 0; p < size.spacesPerSection; p++) {
        const space =
          p === 0 ? first : await createSpace(ctx, organizationId, { title: `${product}: ${sectionTitle} ${p + 1}` });
        if (p > 0) await addSiteSpace(ctx, organizationId, site.id, { spaceId: space.id, sectionId: section.id });
        await step(`site ${s + 1}: ${space.title}`);
      }
    }
  }
  return { members: size.members, teams: size.teams, spaces: spaceCount, sites: size.sites };
}

/** Payload `{ userId, size }`: demo content created as that user (an admin of the job's organization). */
export const demoJobs: ModuleJobs = {
  handlers: {
    "seed-demo-content": {
      run: async (prisma, job, _now, { config, sql, reportProgress, events }) => {
        const { userId, size } = job.payload as { userId: string; size: unknown };
        const ctx = contextActingAs({ prisma, sql, config, clock: systemClock, events }, userId, job.id);
        await seedDemoContent(ctx, job.organizationId ?? "", size, reportProgress);
      },
    },
  },
};
