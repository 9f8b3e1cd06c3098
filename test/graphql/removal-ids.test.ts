import { getNamedType, isObjectType } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { graphqlAnswer } from "../helpers/graphql-answer.ts";

/*
 * Relay's `@deleteEdge(connections:)` drops the edge whose node has the id a removal answers: each removal answers
 * the id of the very node its list showed, which `node(id:)` resolves while it exists.
 */

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Removal Ids Org");
});

async function data<Data>(query: string, variables: Record<string, unknown> = {}): Promise<Data> {
  const answer = await graphqlAnswer(t, org.members.admin.token, query, variables);
  expect(answer.errors).toBeUndefined();
  return answer.data as Data;
}

const NodeById = `query($id: ID!) { node(id: $id) { __typename id } }`;

describe("removal mutations answer the removed node's id", () => {
  it("names a removed* ID field in every remove payload", () => {
    const removals = Object.values(schema.getMutationType()?.getFields() ?? {}).filter(
      (field) => !field.deprecationReason && field.name.startsWith("remove"),
    );
    expect(removals.map((field) => field.name).sort()).toEqual([
      "removeOrganizationMember",
      "removeRequestedReviewerFromChangeRequest",
      "removeSectionFromGroup",
      "removeTeamMember",
    ]);
    for (const field of removals) {
      const payload = getNamedType(field.type);
      if (!isObjectType(payload)) throw new Error(`${field.name} answers no object`);
      const ids = Object.values(payload.getFields()).filter(
        (f) => /^removed[A-Za-z]*Id$/.test(f.name) && getNamedType(f.type).name === "ID",
      );
      expect({ mutation: field.name, ids: ids.length > 0 }).toEqual({ mutation: field.name, ids: true });
    }
  });

  it("removeTeamMember: the team member's id, which node(id:) resolved and the team's members listed", async () => {
    const { createTeam } = await data<{ createTeam: { team: { id: string } } }>(
      `mutation($organizationId: ID!) { createTeam(input: { organizationId: $organizationId, title: "Leavers" }) { team { id } } }`,
      { organizationId: org.organizationId },
    );
    const teamId = createTeam.team.id;
    const added = await data<{
      addTeamMember: { teamMember: { id: string }; teamMemberEdge: { node: { id: string } } };
    }>(
      `mutation($teamId: ID!, $userId: ID!) {
        addTeamMember(input: { teamId: $teamId, userId: $userId }) { teamMember { id } teamMemberEdge { node { id } } }
      }`,
      { teamId, userId: org.members.read.id },
    );
    const teamMemberId = added.addTeamMember.teamMember.id;
    expect(teamMemberId).toBe(`tmbr_${teamId}:${org.members.read.id}`);
    expect(added.addTeamMember.teamMemberEdge.node.id).toBe(teamMemberId);

    const listed = await data<{ node: { members: { nodes: { id: string }[] } } }>(
      `query($id: ID!) { node(id: $id) { ... on Team { members { nodes { id } } } } }`,
      { id: teamId },
    );
    expect(listed.node.members.nodes.map((node) => node.id)).toEqual([teamMemberId]);
    // A reader of the organization fetches it by id, as Relay refetches a node.
    const fetched = await graphqlAnswer(t, org.members.read.token, NodeById, { id: teamMemberId });
    expect(fetched.data).toEqual({ node: { __typename: "OrganizationTeamMember", id: teamMemberId } });

    const removed = await data<{ removeTeamMember: { removedTeamMemberId: string; removedUserId: string } }>(
      `mutation($teamId: ID!, $userId: ID!) {
        removeTeamMember(input: { teamId: $teamId, userId: $userId }) { removedTeamMemberId removedUserId }
      }`,
      { teamId, userId: org.members.read.id },
    );
    expect(removed.removeTeamMember).toEqual({ removedTeamMemberId: teamMemberId, removedUserId: org.members.read.id });
    expect((await data<{ node: null }>(NodeById, { id: teamMemberId })).node).toBeNull();
  });

  it("removeTeamMember: the member's team's id too, which node(id:) resolved and the member's teams listed", async () => {
    const { createTeam } = await data<{ createTeam: { team: { id: string } } }>(
      `mutation($organizationId: ID!) { createTeam(input: { organizationId: $organizationId, title: "Joined" }) { team { id } } }`,
      { organizationId: org.organizationId },
    );
    const teamId = createTeam.team.id;
    const userId = org.members.comment.id;
    await data(
      `mutation($teamId: ID!, $userId: ID!) { addTeamMember(input: { teamId: $teamId, userId: $userId }) { team { id } } }`,
      {
        teamId,
        userId,
      },
    );
    const memberTeamId = `mtm_${userId}:${teamId}`;
    const MemberTeams = `query($id: ID!) { node(id: $id) { ... on Member { teams { nodes { id team { id } } } } } }`;
    const memberId = `mbr_${org.organizationId}:${userId}`;
    const listed = await data<{ node: { teams: { nodes: { id: string; team: { id: string } }[] } } }>(MemberTeams, {
      id: memberId,
    });
    expect(listed.node.teams.nodes).toEqual([{ id: memberTeamId, team: { id: teamId } }]);
    // Its own id, not the team's side's (`tmbr_`): one row, two objects a normalized cache keeps apart.
    const fetched = await graphqlAnswer(t, org.members.read.token, NodeById, { id: memberTeamId });
    expect(fetched.data).toEqual({ node: { __typename: "MemberTeam", id: memberTeamId } });
    const twice = await graphqlAnswer(
      t,
      org.members.read.token,
      `query($id: ID!) { a: node(id: $id) { id } b: node(id: $id) { id } }`,
      {
        id: memberTeamId,
      },
    );
    expect(twice.data).toEqual({ a: { id: memberTeamId }, b: { id: memberTeamId } });

    const removed = await data<{ removeTeamMember: { removedMemberTeamId: string } }>(
      `mutation($teamId: ID!, $userId: ID!) { removeTeamMember(input: { teamId: $teamId, userId: $userId }) { removedMemberTeamId } }`,
      { teamId, userId },
    );
    expect(removed.removeTeamMember.removedMemberTeamId).toBe(memberTeamId);
    expect((await data<{ node: null }>(NodeById, { id: memberTeamId })).node).toBeNull();
    const after = await data<{ node: { teams: { nodes: unknown[] } } }>(MemberTeams, { id: memberId });
    expect(after.node.teams.nodes).toEqual([]);
  });

  it("updateTeamMembers: the ids of the team members it removed", async () => {
    const { createTeam } = await data<{ createTeam: { team: { id: string } } }>(
      `mutation($organizationId: ID!, $members: [String!]) {
        createTeam(input: { organizationId: $organizationId, title: "Batch", members: $members }) { team { id } }
      }`,
      { organizationId: org.organizationId, members: [org.members.read.id, org.members.edit.id] },
    );
    const teamId = createTeam.team.id;
    const updated = await data<{
      updateTeamMembers: { removedTeamMemberIds: string[]; team: { memberCount: number } };
    }>(
      `mutation($teamId: ID!, $userId: String!) {
        updateTeamMembers(input: { teamId: $teamId, remove: [$userId] }) { removedTeamMemberIds team { memberCount } }
      }`,
      { teamId, userId: org.members.edit.id },
    );
    expect(updated.updateTeamMembers).toEqual({
      removedTeamMemberIds: [`tmbr_${teamId}:${org.members.edit.id}`],
      team: { memberCount: 1 },
    });
  });

  it("removeRequestedReviewerFromChangeRequest: the review request's id, which node(id:) resolved", async () => {
    const { createSpace } = await data<{ createSpace: { space: { id: string } } }>(
      `mutation($organizationId: ID!) { createSpace(input: { organizationId: $organizationId, title: "Reviewed" }) { space { id } } }`,
      { organizationId: org.organizationId },
    );
    const spaceId = createSpace.space.id;
    const { createChangeRequest } = await data<{ createChangeRequest: { changeRequest: { id: string } } }>(
      `mutation($spaceId: ID!) { createChangeRequest(input: { spaceId: $spaceId, subject: "Asks" }) { changeRequest { id } } }`,
      { spaceId },
    );
    const changeRequestId = createChangeRequest.changeRequest.id;
    const asked = await data<{
      requestReviewersForChangeRequest: { changeRequest: { requestedReviewers: { nodes: { id: string }[] } } };
    }>(
      `mutation($spaceId: ID!, $changeRequestId: ID!, $userId: ID!) {
        requestReviewersForChangeRequest(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, users: [$userId] }) {
          changeRequest { requestedReviewers { nodes { id } } }
        }
      }`,
      { spaceId, changeRequestId, userId: org.members.review.id },
    );
    const requestId = `crrq_${changeRequestId}:${org.members.review.id}`;
    expect(asked.requestReviewersForChangeRequest.changeRequest.requestedReviewers.nodes).toEqual([{ id: requestId }]);
    expect((await data<{ node: unknown }>(NodeById, { id: requestId })).node).toEqual({
      __typename: "ChangeRequestRequestedReviewer",
      id: requestId,
    });

    const removed = await data<{
      removeRequestedReviewerFromChangeRequest: { removedRequestedReviewerId: string; removedUserId: string };
    }>(
      `mutation($spaceId: ID!, $changeRequestId: ID!, $userId: ID!) {
        removeRequestedReviewerFromChangeRequest(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, userId: $userId }) {
          removedRequestedReviewerId removedUserId
        }
      }`,
      { spaceId, changeRequestId, userId: org.members.review.id },
    );
    expect(removed.removeRequestedReviewerFromChangeRequest).toEqual({
      removedRequestedReviewerId: requestId,
      removedUserId: org.members.review.id,
    });
    expect((await data<{ node: null }>(NodeById, { id: requestId })).node).toBeNull();
  });
});
