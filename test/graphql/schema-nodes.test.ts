import { isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/schema.ts";

const objectTypes = Object.values(schema.getTypeMap()).filter(isObjectType);

describe("ids a normalized cache can trust", () => {
  it("every object type with an `id` is a Node (its id is globally unique)", () => {
    const outsideNode = objectTypes
      .filter((type) => type.getFields().id && !type.getInterfaces().some((face) => face.name === "Node"))
      .map((type) => type.name);
    expect(outsideNode).toEqual([]);
  });
});
