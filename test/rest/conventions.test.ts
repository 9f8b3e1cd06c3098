import { isObjectType } from "graphql";
import { expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { restKeepsNull, restNestsByParent, restObjectNames } from "../../src/rest/conventions.ts";

// The REST conventions name GraphQL types and fields by string: a renamed type or field must fail here, not
// silently stop keeping a null or nesting a page list.
it("names only types and fields the schema has", () => {
  const missing = [...Object.keys(restObjectNames), ...restKeepsNull, ...restNestsByParent].filter((name) => {
    const [typeName, fieldName] = name.split(".");
    const type = schema.getType(typeName as string);
    if (!type || !isObjectType(type)) return true;
    return fieldName !== undefined && !(fieldName in type.getFields());
  });
  expect(missing).toEqual([]);
});
