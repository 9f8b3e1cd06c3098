import {
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLObjectType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";

/** Every input a caller writes, as `Type.field` or `Type.field(argument)`, with whether it is deprecated. */
function inputs(): { name: string; input: GraphQLArgument | GraphQLInputField; deprecated: boolean }[] {
  return Object.values(schema.getTypeMap()).flatMap((type) => {
    if (type.name.startsWith("__")) return [];
    if (isInputObjectType(type)) {
      return Object.values(type.getFields()).map((input) => ({
        name: `${type.name}.${input.name}`,
        input,
        deprecated: Boolean(input.deprecationReason),
      }));
    }
    if (!isObjectType(type) && !isInterfaceType(type)) return [];
    return Object.values(type.getFields()).flatMap((field) =>
      field.args.map((input) => ({
        name: `${type.name}.${field.name}(${input.name})`,
        input,
        deprecated: Boolean(input.deprecationReason ?? field.deprecationReason),
      })),
    );
  });
}

const stringInputs = () =>
  inputs().filter(({ input, deprecated }) => !deprecated && getNamedType(input.type).name === "String");

/** Dates by name; a connection's `after`/`before` are cursors, not dates. */
const dateLike = /(At|Date|After|Before|Since|Until)$|^(since|until|timestamp)$/;

/** Dates by description, as `describeInputField` words a zod date-time. */
const describesDate = /date-time|ISO 8601/i;

/** Values from a fixed set by name: the schema answers each as an enum. */
const enumLike = /(visibility|role|status|type|direction|sort|order|kind|mode|language|provider|useCase)$/i;

/** A description that lists the allowed values, as `describeInputField` words a zod enum or literal. */
const listsValues = /\b(One of|Always) "/;

describe("one vocabulary for reading and writing", () => {
  it("takes every date as a DateTime, never as a String", () => {
    const dates = stringInputs()
      .filter(({ input }) => dateLike.test(input.name) || describesDate.test(input.description ?? ""))
      .map(({ name }) => name);
    expect(dates).toEqual([]);
    const filterDates = inputs().filter(({ name }) =>
      /Filter\.(created|updated|joined|posted)(After|Before)$/.test(name),
    );
    expect(filterDates.length).toBeGreaterThan(30);
    expect(filterDates.filter(({ input }) => String(input.type) !== "DateTime").map(({ name }) => name)).toEqual([]);
  });

  it("takes the output's enum for every value from a fixed set, never a String", () => {
    const outputEnumFields = new Set(
      Object.values(schema.getTypeMap()).flatMap((type) =>
        (isObjectType(type) || isInterfaceType(type)) && !type.name.startsWith("__")
          ? Object.values(type.getFields())
              .filter((field) => isEnumType(getNamedType(field.type)))
              .map((field) => field.name)
          : [],
      ),
    );
    const strings = stringInputs()
      .filter(
        ({ input }) =>
          // A MIME type is an open set.
          (enumLike.test(input.name) && input.name !== "contentType") ||
          outputEnumFields.has(input.name) ||
          listsValues.test(input.description ?? ""),
      )
      .map(({ name }) => name)
      .sort();
    expect(strings).toEqual([]);
  });

  it("names the release that removes every deprecated name", () => {
    const deprecated = Object.values(schema.getTypeMap()).flatMap((type) => {
      if (type.name.startsWith("__")) return [];
      if (isEnumType(type)) {
        return type
          .getValues()
          .map((value) => ({ name: `${type.name}.${value.name}`, reason: value.deprecationReason }));
      }
      if (isInputObjectType(type)) {
        return Object.values(type.getFields()).map((field) => ({
          name: `${type.name}.${field.name}`,
          reason: field.deprecationReason,
        }));
      }
      if (!isObjectType(type) && !isInterfaceType(type)) return [];
      return Object.values(type.getFields()).flatMap((field) => [
        { name: `${type.name}.${field.name}`, reason: field.deprecationReason },
        ...field.args.map((arg) => ({
          name: `${type.name}.${field.name}(${arg.name})`,
          reason: arg.deprecationReason,
        })),
      ]);
    });
    const reasons = deprecated.filter(({ reason }) => reason);
    expect(
      reasons.filter(({ reason }) => !/ Removed in \d+\.\d+\.\d+\.$/.test(reason ?? "")).map(({ name }) => name),
    ).toEqual([]);
  });

  it("writes acronyms in capitals in type and operation names (docs/decisions.md)", () => {
    const rootFields = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) =>
      Object.values(type?.getFields() ?? {})
        .filter((field) => !field.deprecationReason)
        .map((field) => field.name),
    );
    const names = [...Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith("__")), ...rootFields];
    expect(names.length).toBeGreaterThan(300);
    expect(names.filter((name) => /(Saml|Api|Url|Pdf|Sso|Jwt|Json)([A-Z]|s?$|s[A-Z])/.test(name))).toEqual([]);
  });

  it("names one edge type per item type, shared by every list of it and by the payloads", () => {
    const edges = Object.values(schema.getTypeMap()).filter(
      (type) => isObjectType(type) && type.name.endsWith("Edge") && "node" in type.getFields(),
    );
    expect(edges.length).toBeGreaterThan(25);
    const misnamed = edges
      .filter((edge) => isObjectType(edge) && edge.name !== `${getNamedType(edge.getFields().node?.type)?.name}Edge`)
      .map((edge) => edge.name);
    expect(misnamed).toEqual([]);
    const edgeOf = (typeName: string, field: string) =>
      getNamedType((schema.getType(typeName) as GraphQLObjectType).getFields()[field]?.type);
    expect(edgeOf("CreateTeamPayload", "teamEdge")?.name).toBe("TeamEdge");
    expect(edgeOf("CreateSiteSectionPayload", "siteSectionEdge")?.name).toBe(
      getNamedType((getNamedType(edgeOf("Query", "siteSections")) as GraphQLObjectType).getFields().edges?.type)?.name,
    );
  });
});
