import {
  GraphQLEnumType,
  GraphQLError,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLScalarType,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from "graphql";
import { type ServiceCheck, serviceCheckOf } from "../graphql/service-check.ts";

/**
 * REST requests carry enums' public values (`admin`, `in-collection`), GraphQL their UPPER_SNAKE_CASE names (`ADMIN`),
 * whose internal value is the public value. Per route variable, computed once at start-up: the input type REST
 * values are checked against (each enum taking its public values, worded as GraphQL words a wrong enum value, or as
 * the service does where the input carries its check: src/graphql/service-check.ts), and the conversion of a
 * checked value into the document's variable value.
 */

/** Turns a checked REST value into the GraphQL variable value (enum names in place of public values). */
export type ToSchemaValue = (value: unknown) => unknown;

const graphqlNamePattern = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/** The enum as REST sees it: a leaf that takes the public values and refuses any other with the enum's wording. */
function publicEnumType(type: GraphQLEnumType): GraphQLScalarType {
  const publicValues = type.getValues().map((value) => String(value.value));
  // Public values that are GraphQL names (all but hyphenated ones) get graphql-js's own wording, with its suggestions.
  const asEnum = publicValues.every((value) => graphqlNamePattern.test(value))
    ? new GraphQLEnumType({ name: type.name, values: Object.fromEntries(publicValues.map((value) => [value, {}])) })
    : undefined;
  const known = new Set(publicValues);
  return new GraphQLScalarType({
    name: type.name,
    parseValue(value) {
      if (asEnum) return asEnum.parseValue(value);
      if (typeof value === "string" && known.has(value)) return value;
      throw new GraphQLError(`Value ${JSON.stringify(value)} does not exist in "${type.name}" enum.`);
    },
  });
}

/**
 * The public form of an enum the service checks itself (`checkedByService`): an unknown value is refused with the
 * check attached, so the REST adapter words it as the service does (`firstVariableProblem`).
 */
function serviceCheckedEnumType(type: GraphQLEnumType, serviceCheck: ServiceCheck): GraphQLScalarType {
  const known = new Set(type.getValues().map((value) => String(value.value)));
  return new GraphQLScalarType({
    name: type.name,
    parseValue(value) {
      if (typeof value === "string" && known.has(value)) return value;
      throw new GraphQLError(`Value ${JSON.stringify(value)} does not exist in "${type.name}" enum.`, {
        extensions: { serviceCheck },
      });
    },
  });
}

/**
 * A scalar the service checks itself (a `DateTime` whose service wants an offset), checked as when it was a String:
 * a string, then refused where the service refuses it (`serviceCheck.value`), with the check attached.
 */
function serviceCheckedScalarType(type: GraphQLScalarType, serviceCheck: ServiceCheck): GraphQLScalarType {
  return new GraphQLScalarType({
    name: type.name,
    parseValue(value) {
      GraphQLString.parseValue(value);
      if (serviceCheck.value && !serviceCheck.value.safeParse(value).success) {
        throw new GraphQLError(`Value ${JSON.stringify(value)} is not a valid ${type.name}.`, {
          extensions: { serviceCheck },
        });
      }
      return type.parseValue(value);
    },
  });
}

const publicNamedTypes = new WeakMap<GraphQLEnumType | GraphQLInputObjectType, GraphQLInputType>();

/**
 * `type` with every enum it reaches replaced by the enum's public form (`publicEnumType`); `serviceCheck` is the
 * check of the field or argument `type` belongs to.
 */
export function publicInputType(type: GraphQLInputType, serviceCheck?: ServiceCheck): GraphQLInputType {
  if (isNonNullType(type)) return new GraphQLNonNull(publicInputType(type.ofType, serviceCheck));
  if (isListType(type)) return new GraphQLList(publicInputType(type.ofType, serviceCheck));
  if (isEnumType(type) && serviceCheck) return serviceCheckedEnumType(type, serviceCheck);
  if (isScalarType(type) && serviceCheck) return serviceCheckedScalarType(type, serviceCheck);
  if (!isEnumType(type) && !isInputObjectType(type)) return type;
  const known = publicNamedTypes.get(type);
  if (known) return known;
  if (isEnumType(type)) {
    const publicType = publicEnumType(type);
    publicNamedTypes.set(type, publicType);
    return publicType;
  }
  const config = type.toConfig();
  // Fields are a thunk: input objects may refer to themselves.
  const publicType = new GraphQLInputObjectType({
    ...config,
    fields: () =>
      Object.fromEntries(
        Object.entries(config.fields).map(([name, field]) => [
          name,
          { ...field, type: publicInputType(field.type, serviceCheckOf(field.extensions)) },
        ]),
      ),
  });
  publicNamedTypes.set(type, publicType);
  return publicType;
}

/** Converters by input object; null for those that reach no enum. */
type Converters = Map<GraphQLInputType, ToSchemaValue | null>;

function objectToSchemaValue(type: GraphQLInputObjectType, seen: Converters): ToSchemaValue | undefined {
  const fields = new Map<string, ToSchemaValue>();
  const convert: ToSchemaValue = (value) => {
    if (typeof value !== "object" || value === null) return value;
    const converted: Record<string, unknown> = { ...value };
    for (const [name, convertField] of fields) {
      if (converted[name] !== undefined && converted[name] !== null) converted[name] = convertField(converted[name]);
    }
    return converted;
  };
  // Set before the fields are walked: an input object may reach itself.
  seen.set(type, convert);
  for (const field of Object.values(type.getFields())) {
    const convertField = toSchemaValueOf(field.type, seen);
    if (convertField) fields.set(field.name, convertField);
  }
  if (fields.size > 0) return convert;
  seen.set(type, null);
  return undefined;
}

/** How to turn a checked value of `type` into the variable value; undefined when `type` reaches no enum. */
export function toSchemaValueOf(type: GraphQLInputType, seen: Converters = new Map()): ToSchemaValue | undefined {
  if (isNonNullType(type)) return toSchemaValueOf(type.ofType, seen);
  if (isListType(type)) {
    const convertItem = toSchemaValueOf(type.ofType, seen);
    if (!convertItem) return undefined;
    const convertOne = (item: unknown) => (item === null ? item : convertItem(item));
    // A single value stands for a list of one, as GraphQL coerces it.
    return (value) => (Array.isArray(value) ? value.map(convertOne) : convertOne(value));
  }
  if (isEnumType(type)) {
    const names = new Map(type.getValues().map((value) => [value.value, value.name]));
    return (value) => names.get(value) ?? value;
  }
  if (isInputObjectType(type)) {
    const known = seen.get(type);
    return known === undefined ? objectToSchemaValue(type, seen) : (known ?? undefined);
  }
  return undefined;
}
