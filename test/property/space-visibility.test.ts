import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { roleOrder } from "../../src/auth/roles.ts";
import type { Role } from "../../src/db/generated/client.ts";
import { insertSpace } from "../../src/modules/space/space.service.ts";
import { newId } from "../../src/platform/ids.ts";
import { type SeededUser, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

/*
 * Space visibility is written three times: per space (`effectiveRole`, behind `GET /v1/spaces/{id}`), as the Prisma
 * filter of lists (`visibleSpacesWhere`, behind `GET /v1/orgs/{org}/spaces`) and as the SQL condition of the
 * organization search (`visibleSpacesSql`, behind `GET /v1/orgs/{org}/search`). Over random organizations, the list a
 * member pages through must be exactly the spaces that member can open one by one.
 */

const visibilities = ["public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"] as const;
/** The seeded organization's members, by index: one per role, then the guest (role null). */
const memberKeys = [...roleOrder, "guest"] as const;

const role = fc.constantFrom(...roleOrder);
const level = fc.option(role, { nil: null });
const memberIndex = fc.nat({ max: memberKeys.length - 1 });

const organizationShape = fc
  .record({
    teams: fc.array(fc.uniqueArray(memberIndex), { maxLength: 3 }),
    collections: fc.array(level, { maxLength: 3 }),
    caller: memberIndex,
  })
  .chain((shape) =>
    fc.record({
      teams: fc.constant(shape.teams),
      collections: fc.constant(shape.collections),
      caller: fc.constant(shape.caller),
      spaces: fc.array(
        fc.record({
          visibility: fc.constantFrom(...visibilities),
          defaultLevel: level,
          parent: fc.option(fc.nat({ max: Math.max(shape.collections.length - 1, 0) }), { nil: null }),
          deleted: fc.boolean(),
          userGrants: fc.uniqueArray(fc.tuple(memberIndex, role), { selector: ([member]) => member, maxLength: 3 }),
          teamGrants: fc.uniqueArray(fc.tuple(fc.nat({ max: Math.max(shape.teams.length - 1, 0) }), role), {
            selector: ([team]) => team,
            maxLength: shape.teams.length,
          }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
    }),
  );

type OrganizationShape = typeof organizationShape extends fc.Arbitrary<infer Shape> ? Shape : never;

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

/** Writes the organization `shape` describes; returns it with the caller and the ids of its spaces. */
async function seed(
  shape: OrganizationShape,
): Promise<{ organizationId: string; caller: SeededUser; spaceIds: string[] }> {
  const org = await seedOrganization(t.db, "Visibility Org");
  const { prisma } = t.db;
  const now = new Date();
  const users = memberKeys.map((key) => org.members[key]);
  const member = (index: number) => users[index] as SeededUser;
  const teamIds: string[] = [];
  for (const [index, members] of shape.teams.entries()) {
    const team = await prisma.team.create({
      data: { id: newId("Team"), organizationId: org.organizationId, title: `Team ${index}` },
    });
    await prisma.teamMember.createMany({
      data: members.map((m) => ({ teamId: team.id, userId: member(m).id, organizationId: org.organizationId })),
    });
    teamIds.push(team.id);
  }
  const collectionIds: string[] = [];
  for (const [index, defaultLevel] of shape.collections.entries()) {
    const collection = await prisma.collection.create({
      data: { id: newId("Collection"), organizationId: org.organizationId, title: `Collection ${index}`, defaultLevel },
    });
    collectionIds.push(collection.id);
  }
  const spaceIds: string[] = [];
  for (const [index, spec] of shape.spaces.entries()) {
    const space = await insertSpace(prisma, {
      organizationId: org.organizationId,
      parentId: spec.parent === null ? null : (collectionIds[spec.parent] ?? null),
      title: `Space ${index}`,
      emoji: "",
      language: null,
      editMode: "live",
      createdById: org.members.admin.id,
      now,
    });
    // Replaces the creator's grant with the generated ones.
    await prisma.space.update({
      where: { id: space.id },
      data: {
        visibility: spec.visibility,
        defaultLevel: spec.defaultLevel,
        deletedAt: spec.deleted ? now : null,
        permissions: {
          deleteMany: {},
          create: [
            ...spec.userGrants.map(([m, role]) => ({ id: newId("SpacePermission"), userId: member(m).id, role })),
            ...spec.teamGrants.flatMap(([team, role]) => {
              const teamId = teamIds[team];
              return teamId ? [{ id: newId("SpacePermission"), teamId, role: role as Role }] : [];
            }),
          ],
        },
      },
    });
    // A current page with the word "lighthouse", as the search table holds it (a fixture: the table alone is read).
    await prisma.$executeRaw`
      INSERT INTO "SearchPage" ("spaceId", "pageId", "organizationId", "versionId", "searchVector", "updatedAt")
      VALUES (${space.id}, ${newId("Page")}, ${org.organizationId}, ${newId("PageVersion")}, to_tsvector('english', 'lighthouse'), now())`;
    spaceIds.push(space.id);
  }
  return { organizationId: org.organizationId, caller: member(shape.caller), spaceIds };
}

/** Every space id `GET ORG/spaces` lists for the caller, paged through in small pages. */
async function listedSpaces(organizationId: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  let page: string | undefined;
  do {
    const response = await t.rest<{ items: { id: string }[]; next?: { page: string } }>(
      "GET",
      `/orgs/${organizationId}/spaces`,
      { token, query: { limit: 3, page } },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    ids.push(...response.body.items.map((item) => item.id));
    page = response.body.next?.page;
  } while (page);
  return ids;
}

/** The spaces an organization search of a word every space holds lists for the caller (`visibleSpacesSql`). */
async function searchedSpaces(organizationId: string, token: string): Promise<string[]> {
  const response = await t.rest<{ items: { id: string }[] }>("GET", `/orgs/${organizationId}/search`, {
    token,
    query: { query: "lighthouse", limit: 10 },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.items.map((item) => item.id);
}

/** The spaces `GET /spaces/{id}` opens for the caller; any other answer than 200 must be the 404 of a hidden space. */
async function openableSpaces(spaceIds: string[], token: string): Promise<string[]> {
  const openable: string[] = [];
  for (const spaceId of spaceIds) {
    const response = await t.rest("GET", `/spaces/${spaceId}`, { token });
    if (response.status === 200) openable.push(spaceId);
    else expect(response.status, JSON.stringify(response.body)).toBe(404);
  }
  return openable;
}

describe("space visibility", () => {
  it("lists exactly the spaces a member can open, whatever the roles, teams, collections and grants", async () => {
    await fc.assert(
      fc.asyncProperty(organizationShape, async (shape) => {
        const { organizationId, caller, spaceIds } = await seed(shape);
        const listed = await listedSpaces(organizationId, caller.token);
        expect(new Set(listed).size, "no space listed twice").toBe(listed.length);
        const openable = (await openableSpaces(spaceIds, caller.token)).sort();
        expect([...listed].sort()).toEqual(openable);
        expect((await searchedSpaces(organizationId, caller.token)).sort()).toEqual(openable);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
