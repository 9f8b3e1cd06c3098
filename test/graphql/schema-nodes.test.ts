import { isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { valueIdExtension } from "../../src/graphql/value-ids.ts";

const objectTypes = Object.values(schema.getTypeMap()).filter(isObjectType);

describe("ids a normalized cache can trust", () => {
  it("every object type with an `id` is a Node (its id is globally unique), or a value its owner's id keys", () => {
    const outsideNode = objectTypes
      .filter((type) => type.getFields().id && !type.getInterfaces().some((face) => face.name === "Node"))
      .filter((type) => type.getFields().id?.extensions[valueIdExtension] !== true)
      .map((type) => type.name);
    expect(outsideNode).toEqual([]);
  });

  it("every object type a cache keys has an `id`: only the roots, payloads and user errors have none", () => {
    const roots = new Set(["Query", "Mutation", "Subscription"]);
    const keyless = objectTypes
      .filter((type) => !type.getFields().id && !type.name.startsWith("__") && !roots.has(type.name))
      .map((type) => type.name)
      .filter((name) => !/(Payload|UserError)$/.test(name));
    expect(keyless).toEqual([]);
  });
});
