import { type GraphQLResolveInfo, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/schema.ts";

describe("node ids", () => {
  it("resolve synchronously to the row's id on every Node type (no promise per object of a nested read)", () => {
    const nodeTypes = Object.values(schema.getTypeMap()).filter(
      (type) => isObjectType(type) && type.getInterfaces().some((face) => face.name === "Node"),
    );
    expect(nodeTypes.length).toBeGreaterThan(15);
    for (const type of nodeTypes) {
      if (!isObjectType(type)) continue;
      const resolve = type.getFields().id?.resolve;
      const answer = resolve?.({ id: `${type.name}_1` }, {}, {}, {} as GraphQLResolveInfo);
      expect({ type: type.name, answer }).toStrictEqual({ type: type.name, answer: `${type.name}_1` });
    }
  });
});
