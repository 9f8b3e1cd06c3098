import { defaultFieldResolver, type GraphQLResolveInfo, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";

describe("node ids", () => {
  it("answer the row's id on every Node type, as a plain property (no resolver call, no promise per object)", () => {
    // Pair-id types (memberships, review requests, a page or file of a revision) encode their parents' ids.
    const pairIdTypes = new Set([
      "Member",
      "OrganizationTeamMember",
      "MemberTeam",
      "ChangeRequestRequestedReviewer",
      "RevisionPage",
      "RevisionFile",
    ]);
    const nodeTypes = Object.values(schema.getTypeMap()).filter(
      (type) =>
        isObjectType(type) && !pairIdTypes.has(type.name) && type.getInterfaces().some((face) => face.name === "Node"),
    );
    expect(nodeTypes.length).toBeGreaterThan(15);
    for (const type of nodeTypes) {
      if (!isObjectType(type)) continue;
      const field = type.getFields().id;
      const info = { fieldName: "id" } as GraphQLResolveInfo;
      const answer = (field?.resolve ?? defaultFieldResolver)({ id: `${type.name}_1` }, {}, {}, info);
      expect({ type: type.name, answer, resolver: field?.resolve }).toStrictEqual({
        type: type.name,
        answer: `${type.name}_1`,
        resolver: undefined,
      });
    }
  });
});
