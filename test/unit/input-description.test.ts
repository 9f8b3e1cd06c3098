import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeInputField } from "../../src/graphql/input-description.ts";

const schema = z.strictObject({
  title: z.string().trim().min(2).max(128).describe("The site's title"),
  icon: z.string().min(1).max(50).describe("Icon name").nullish(),
  spaceId: z.string().min(1),
  tags: z.array(z.string()).max(20).optional(),
  count: z.number().int().min(0).max(5),
  kind: z.enum(["a", "b"]),
  slug: z.string().regex(/^[a-z]+$/),
});

describe("describeInputField", () => {
  it("states the schema's prose, then the limits it enforces", () => {
    expect(describeInputField(schema, "title")).toBe("The site's title. 2..128 characters.");
    expect(describeInputField(schema, "icon")).toBe("Icon name. 1..50 characters; may be null.");
  });

  it("words open ranges, item counts, integers, enums and patterns", () => {
    expect(describeInputField(schema, "spaceId")).toBe("Not empty.");
    expect(describeInputField(schema, "tags")).toBe("At most 20 items.");
    expect(describeInputField(schema, "count")).toBe("0..5 (integer).");
    expect(describeInputField(schema, "kind")).toBe('One of "a", "b".');
    expect(describeInputField(schema, "slug")).toBe("Matching /^[a-z]+$/.");
  });

  it("refuses a field the schema does not have, so a renamed field cannot go undocumented", () => {
    expect(() => describeInputField(schema, "missing")).toThrow(/no field missing/);
  });
});

describe("describeInputField with a format", () => {
  it("names the format instead of printing the regular expression zod generates for it", () => {
    const withDate = z.strictObject({ at: z.iso.datetime({ offset: true }).describe("When it happened") });
    expect(describeInputField(withDate, "at")).toBe("When it happened. Format date-time.");
  });
});
