import {
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLObjectType,
  getNamedType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "../../src/schema.ts";

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
const dateLike = /(At|Date|After|Before|Since|Until)$|^(since|until)$/;

/** Values from a fixed set by name: the schema answers each as an enum. */
const enumLike = /(visibility|role|status|type|direction|sort|order|kind|mode|language)$/i;

/**
 * String inputs of values the schema answers as enums that REST still sends through: their REST wording for an
 * unknown value is the service's (`Invalid input: ...`), which an enum input would change. No name joins this list.
 */
const restWordedEnumInputs = [
  "ContentChangeInput.type",
  "CreateOrganizationInput.type",
  "CreateSiteInput.type",
  "CreateSiteInput.visibility",
  "CreateSpaceInput.language",
  "CreateTranslationInput.language",
  "Mutation.updateSpaceVisibility(visibility)",
  "PageChangeInput.type",
  "Revision.links(status)",
  "RevisionPage.links(status)",
  "SiteSectionGroupPointerInput.type",
  "SiteSectionPointerInput.type",
  "SiteSpacePointerInput.type",
  "SiteStructureItemPointerInput.type",
  "SpacePointerInput.type",
  "SubmitChangeRequestReviewInput.status",
  "TranslationSourceInput.language",
  "UpdateChangeRequestInput.status",
  "UpdateSiteInput.visibility",
  "UpdateSpaceInput.language",
];

describe("one vocabulary for reading and writing", () => {
  it("takes every date as a DateTime, never as a String", () => {
    const dates = stringInputs()
      .filter(({ input }) => dateLike.test(input.name))
      .map(({ name }) => name);
    expect(dates).toEqual([]);
    const filterDates = inputs().filter(({ name }) =>
      /Filter\.(created|updated|joined|posted)(After|Before)$/.test(name),
    );
    expect(filterDates.length).toBeGreaterThan(30);
    expect(filterDates.filter(({ input }) => String(input.type) !== "DateTime").map(({ name }) => name)).toEqual([]);
  });

  it("takes no String for an enum-like value beyond those REST still words itself", () => {
    const strings = stringInputs()
      // A MIME type is an open set.
      .filter(({ input }) => enumLike.test(input.name) && input.name !== "contentType")
      .map(({ name }) => name)
      .sort();
    expect(strings).toEqual(restWordedEnumInputs);
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
