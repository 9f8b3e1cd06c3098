import { beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../src/modules/user/user.service.ts";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, seedUser, startTestApp, type TestApp } from "../helpers/app.ts";
import { present } from "../helpers/present.ts";

const OrganizationStructure = graphql(`
  query OrganizationStructure($id: ID!) {
    organization(id: $id) {
      id
      title
      viewerCanAdminister viewerCanListMembers
      members(first: 100) {
        totalCount
        nodes { id role teamCount user { displayName email } organization { id } }
      }
      teams(first: 100) {
        totalCount
        nodes {
          title
          memberCount
          viewerCanAdminister
          members(first: 100) { totalCount nodes { team { role } organization { role user { email } } } }
        }
      }
    }
  }
`);

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

async function growOrganization(org: SeededOrganization, extraMembers: number, teams: number, membersPerTeam: number) {
  const userIds = Object.values(org.members).map((member) => member.id);
  for (let i = 0; i < extraMembers; i++) {
    const user = await seedUser(t.db, "extra");
    await addMember(t.db.prisma, org.organizationId, user.id, "read", new Date());
    userIds.push(user.id);
  }
  for (let i = 0; i < teams; i++) {
    await t.db.prisma.team.create({
      data: {
        id: `team_nested${org.organizationId.slice(-6)}${i}`,
        organizationId: org.organizationId,
        title: `Team ${i}`,
        members: {
          create: userIds.slice(0, membersPerTeam).map((userId, index) => ({
            userId,
            organizationId: org.organizationId,
            role: index === 0 ? ("owner" as const) : ("member" as const),
          })),
        },
      },
    });
  }
}

async function statementsFor(org: SeededOrganization) {
  const client = t.graphql(org.members.admin.token);
  const before = t.db.statementCount();
  const data = await client.request(OrganizationStructure, { id: org.organizationId });
  return { statements: t.db.statementCount() - before, data };
}

describe("organization { members { user } teams { members } } in one request", () => {
  it("costs the same number of SQL statements for 7 members and for 37 members in 10 teams", async () => {
    const small = await seedOrganization(t.db, "Small");
    await growOrganization(small, 0, 1, 2);
    const large = await seedOrganization(t.db, "Large");
    await growOrganization(large, 30, 10, 12);

    const smallRead = await statementsFor(small);
    const largeRead = await statementsFor(large);

    expect(present(present(smallRead.data.organization).members).totalCount).toBe(7);
    expect(present(present(largeRead.data.organization).members).totalCount).toBe(37);
    expect(
      new Set(present(present(largeRead.data.organization).members).nodes.map((node) => node.organization.id)),
    ).toEqual(new Set([large.organizationId]));
    expect(present(present(largeRead.data.organization).teams).nodes).toHaveLength(10);
    for (const team of present(present(largeRead.data.organization).teams).nodes) {
      expect(team.memberCount).toBe(12);
      expect(present(team.members).nodes).toHaveLength(12);
      expect(present(team.members).nodes.filter((node) => node.team.role === "OWNER")).toHaveLength(1);
      expect(present(team.members).nodes[0]?.organization.user.email).toMatch(/@seed\.test$/);
    }
    expect(largeRead.statements).toBe(smallRead.statements);
    // token, membership, organization, members + count, users, team counts of members, teams + count,
    // team members, member rows, team member counts, team roles, owned teams: a fixed budget.
    expect(largeRead.statements).toBeLessThanOrEqual(14);
  });
});
