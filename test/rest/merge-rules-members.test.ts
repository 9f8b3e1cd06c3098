import { beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../src/modules/user/user.service.ts";
import { type SeededOrganization, seedOrganization, seedUser, startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let org: SeededOrganization;
let other: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Merge rules");
  other = await seedOrganization(t.db, "Elsewhere");
});

const reviewers = (...users: string[]) => ({
  type: "rules",
  rules: [{ rule: "require_specific_reviewers", users }],
});

async function newSpace(organizationId = org.organizationId, token = org.members.admin.token) {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${organizationId}/spaces`, {
    token,
    body: { title: "Ruled" },
  });
  expect(space.status).toBe(201);
  return space.body.id;
}

async function storedRules(spaceId: string) {
  return (await t.db.prisma.space.findUniqueOrThrow({ where: { id: spaceId } })).mergeRules;
}

describe("merge rules name members of the organization only", () => {
  it("refuses a space's rules naming a user who does not exist or belongs to another organization", async () => {
    const spaceId = await newSpace();
    const outsider = await seedUser(t.db, "outsider");
    for (const stranger of ["user_doesnotexist", other.members.review.id, outsider.id]) {
      const response = await t.rest("PATCH", `/spaces/${spaceId}`, {
        token: org.members.admin.token,
        body: { mergeRules: reviewers(org.members.review.id, stranger) },
      });
      expect(response.status, stranger).toBe(400);
      expect(response.body).toEqual({ error: { code: 400, message: expect.stringContaining(stranger) } });
    }
    expect(await storedRules(spaceId)).toEqual({ type: "inherit" });
  });

  it("accepts members, and a space so ruled still merges once they approve", async () => {
    const spaceId = await newSpace();
    const patched = await t.rest("PATCH", `/spaces/${spaceId}`, {
      token: org.members.admin.token,
      body: { mergeRules: reviewers(org.members.review.id) },
    });
    expect(patched.status).toBe(200);
    const changeRequest = await t.rest<{ id: string }>("POST", `/spaces/${spaceId}/change-requests`, {
      token: org.members.edit.token,
      body: { subject: "Ruled change" },
    });
    const base = `/spaces/${spaceId}/change-requests/${changeRequest.body.id}`;
    await t.rest("POST", `${base}/content`, {
      token: org.members.edit.token,
      body: { changes: [{ type: "insert", page: { title: "Ruled page" } }] },
    });
    const review = await t.rest("POST", `${base}/reviews`, {
      token: org.members.review.token,
      body: { status: "approved" },
    });
    expect(review.status).toBe(201);
    const merged = await t.rest("POST", `${base}/merge`, { token: org.members.review.token });
    expect(merged.status).toBe(200);
  });

  it("refuses an organization's rules naming a non-member", async () => {
    const response = await t.rest("PATCH", `/orgs/${org.organizationId}`, {
      token: org.members.admin.token,
      body: { mergeRules: reviewers(other.members.admin.id) },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 400, message: expect.stringContaining(other.members.admin.id) } });
    const stored = await t.db.prisma.organization.findUniqueOrThrow({ where: { id: org.organizationId } });
    expect(stored.mergeRules).not.toEqual(reviewers(other.members.admin.id));
  });

  it("drops, on transfer, the reviewers who are not members of the target organization", async () => {
    // An admin of both organizations, as transfer needs.
    const both = await seedUser(t.db, "both");
    for (const { organizationId } of [org, other]) {
      await addMember(t.db.prisma, organizationId, both.id, "admin", new Date());
    }
    const spaceId = await newSpace(org.organizationId, both.token);
    const ruled = await t.rest("PATCH", `/spaces/${spaceId}`, {
      token: both.token,
      body: { mergeRules: reviewers(org.members.review.id, both.id) },
    });
    expect(ruled.status).toBe(200);
    const moved = await t.rest("POST", `/spaces/${spaceId}/transfer`, {
      token: both.token,
      body: { organization: other.organizationId },
    });
    expect(moved.status).toBe(200);
    expect(await storedRules(spaceId)).toEqual(reviewers(both.id));
  });
});
