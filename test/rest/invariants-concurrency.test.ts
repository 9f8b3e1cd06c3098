import { beforeAll, describe, expect, it } from "vitest";
import { insertOrganization } from "../../src/modules/organization/organization.service.ts";
import { addMember } from "../../src/modules/user/user.service.ts";
import { createSite, createSpace, sitePath } from "../factories.ts";
import { type SeededOrganization, seedOrganization, seedUser, startTestApp, type TestApp } from "../helpers/app.ts";

// Invariants that must hold when plain requests race each other. Only PostgreSQL runs them on separate connections
// at once (PGlite runs one transaction at a time), so the file needs TEST_DATABASE_URL.
const serverUrl = process.env.TEST_DATABASE_URL;

let t: TestApp;
let org: SeededOrganization;

type EditBody = { revision: string; inserted: { id: string }[] };

function admins(organizationId: string) {
  return t.db.prisma.member.count({ where: { organizationId, role: "admin", disabled: false } });
}

describe.skipIf(!serverUrl)("invariants under concurrent requests (skipped without TEST_DATABASE_URL)", () => {
  beforeAll(async () => {
    t = await startTestApp();
    org = await seedOrganization(t.db, "Invariants Org");
  });

  it("keeps an admin when two admins demote each other or both leave at once", async () => {
    const [first, second] = [await seedUser(t.db, "first-admin"), await seedUser(t.db, "second-admin")];
    /** An organization whose only admins are `first` and `second`. */
    async function twoAdmins(title: string) {
      const organization = await insertOrganization(t.db.prisma, { title, emailDomains: [] }, new Date());
      for (const user of [first, second]) await addMember(t.db.prisma, organization.id, user.id, "admin", new Date());
      return organization.id;
    }
    for (let round = 0; round < 15; round++) {
      const demoted = await twoAdmins(`Demote ${round}`);
      const demotions = await Promise.all([
        t.rest("PATCH", `/orgs/${demoted}/members/${second.id}`, { token: first.token, body: { role: "read" } }),
        t.rest("PATCH", `/orgs/${demoted}/members/${first.id}`, { token: second.token, body: { role: "read" } }),
      ]);
      // The loser is refused: 409 by the rule, or 403 when the winner's demotion came before its access check.
      for (const response of demotions) expect([200, 403, 409]).toContain(response.status);
      expect(demotions.filter((response) => response.status === 200)).toHaveLength(1);
      expect(await admins(demoted)).toBe(1);

      const left = await twoAdmins(`Leave ${round}`);
      const leaves = await Promise.all(
        [first, second].map((user) => t.rest("DELETE", `/orgs/${left}/members/${user.id}`, { token: user.token })),
      );
      for (const response of leaves) expect([204, 409]).toContain(response.status);
      expect(leaves.filter((response) => response.status === 204)).toHaveLength(1);
      expect(await admins(left)).toBe(1);
    }
  });

  it("answers 409 (never 500) to concurrent adds of one person and 204 to concurrent removals", async () => {
    const email = "racer@seed.test";
    const adds = await Promise.all(
      Array.from({ length: 6 }, () =>
        t
          .graphql(org.members.admin.token)
          .request<{ addOrganizationMember: { member: { role: string } } }>(
            `mutation($input: AddOrganizationMemberInput!) {
            addOrganizationMember(input: $input) { member { role } }
          }`,
            { input: { organizationId: org.organizationId, email, role: "READ" } },
          )
          .then(
            () => "added",
            (error: { response?: { errors?: { extensions?: { code?: string } }[] } }) =>
              error.response?.errors?.[0]?.extensions?.code ?? String(error),
          ),
      ),
    );
    expect(adds.filter((outcome) => outcome === "added")).toHaveLength(1);
    expect(adds.filter((outcome) => outcome !== "added")).toEqual(Array(5).fill("CONFLICT"));

    const user = await t.db.prisma.user.findUniqueOrThrow({ where: { email } });
    const removals = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.rest("DELETE", `/orgs/${org.organizationId}/members/${user.id}`, { token: org.members.admin.token }),
      ),
    );
    expect(removals.map((response) => response.status)).toEqual(Array(6).fill(204));
  });

  it("gives concurrent site spaces of spaces with one title distinct paths, in a section and at a site's root", async () => {
    const count = 10;
    const spaceIds: string[] = [];
    for (let index = 0; index < count + 1; index++)
      spaceIds.push((await createSpace(t, org, { title: "Same Title" })).id);

    const rootSite = sitePath(org, (await createSite(t, org, { title: "Root site" })).id);
    const atRoot = await Promise.all(
      spaceIds.slice(1).map((spaceId) =>
        t.rest<{ path: string }>("POST", `${rootSite}/site-spaces`, {
          token: org.members.admin.token,
          body: { spaceId },
        }),
      ),
    );
    expect(atRoot.map((response) => response.status)).toEqual(Array(count).fill(201));
    expect(new Set(atRoot.map((response) => response.body.path)).size).toBe(count);

    const sectionSite = sitePath(org, (await createSite(t, org, { title: "Section site" })).id);
    const section = await t.rest<{ id: string }>("POST", `${sectionSite}/sections`, {
      token: org.members.admin.token,
      body: { spaceId: spaceIds[0], title: "Only section" },
    });
    expect(section.status).toBe(201);
    const inSection = await Promise.all(
      spaceIds.slice(1).map((spaceId) =>
        t.rest<{ path: string }>("POST", `${sectionSite}/site-spaces`, {
          token: org.members.admin.token,
          body: { spaceId, sectionId: section.body.id },
        }),
      ),
    );
    expect(inSection.map((response) => response.status)).toEqual(Array(count).fill(201));
    // The section's first site space took the plain path; the others each got their own.
    expect(new Set([...inSection.map((response) => response.body.path), "same-title"]).size).toBe(count + 1);
  });

  it("creates concurrent sections with one title with distinct paths, never a 500", async () => {
    const count = 10;
    const site = sitePath(org, (await createSite(t, org, { title: "Sections site" })).id);
    const spaceId = (await createSpace(t, org, { title: "Section content" })).id;
    const created = await Promise.all(
      Array.from({ length: count }, () =>
        t.rest<{ path: string }>("POST", `${site}/sections`, {
          token: org.members.admin.token,
          body: { spaceId, title: "Guides" },
        }),
      ),
    );
    for (const response of created) expect([201, 409]).toContain(response.status);
    const paths = created.filter((response) => response.status === 201).map((response) => response.body.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toContain("guides");
  });

  it("creates one OpenAPI spec of concurrent creates with one slug and answers 409 to the others", async () => {
    const count = 10;
    const created = await Promise.all(
      Array.from({ length: count }, () =>
        t.rest<{ error?: { code: number; message: string } }>("POST", `/orgs/${org.organizationId}/openapi`, {
          token: org.members.admin.token,
          body: {
            slug: "racing-spec",
            source: { text: "openapi: 3.0.0\ninfo: { title: Race, version: '1' }\npaths: {}\n" },
          },
        }),
      ),
    );
    expect(created.filter((response) => response.status === 201)).toHaveLength(1);
    const refused = created.filter((response) => response.status !== 201);
    expect(refused.map((response) => response.status)).toEqual(Array(count - 1).fill(409));
    for (const response of refused) expect(response.body.error?.code).toBe(409);
  });

  it("merges twenty change requests touching different pages at once: every one lands", async () => {
    const count = 20;
    const editor = org.members.edit.token;
    const spaceId = (await createSpace(t, org, { title: "Busy merges" })).id;
    const base = await t.rest<EditBody>("POST", `/spaces/${spaceId}/content`, {
      token: editor,
      body: {
        changes: Array.from({ length: count }, (_, index) => ({
          type: "insert",
          page: { title: `Page ${index}`, markdown: `original ${index}\n` },
        })),
      },
    });
    const changeRequests: string[] = [];
    for (const [index, pageId] of base.body.inserted.map((item) => item.id).entries()) {
      const cr = await t.rest<{ id: string }>("POST", `/spaces/${spaceId}/change-requests`, {
        token: editor,
        body: { subject: `Edit ${index}` },
      });
      const write = await t.rest("POST", `/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
        token: editor,
        body: { changes: [{ type: "update", pageId, page: { markdown: `edited ${index}\n` } }] },
      });
      expect(write.status).toBe(200);
      changeRequests.push(cr.body.id);
    }
    const merges = await Promise.all(
      changeRequests.map((id) =>
        t.rest("POST", `/spaces/${spaceId}/change-requests/${id}/merge`, { token: org.members.review.token }),
      ),
    );
    expect(merges.map((response) => response.status)).toEqual(Array(count).fill(200));
    const pages = await t.rest<{ pages: { markdown: string }[] }>("GET", `/spaces/${spaceId}/content/pages`, {
      token: editor,
    });
    expect(pages.body.pages.map((page) => page.markdown).sort()).toEqual(
      Array.from({ length: count }, (_, index) => `edited ${index}\n`).sort(),
    );
  });
});
