import {
  defaultFieldResolver,
  type GraphQLField,
  type GraphQLFieldResolver,
  GraphQLID,
  GraphQLNonNull,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isObjectType,
} from "graphql";

/**
 * Object types a normalized cache needs no key for: payloads and user errors, answered at a mutation's root, which
 * neither cache normalizes. Connections, edges and `PageInfo` get ids too: graphcache embeds them without a warning
 * (its `/^__|PageInfo|(Connection|Edge)$/`), but Apollo replaces an embedded connection with a narrower refetch's,
 * and the wider screen misses the cache.
 */
const embeddedTypeName = /^__|Payload$|UserError$/;

/** Where an owned value keeps its owner's key (a value's `id` is read from it). */
const ownerKey = Symbol("ownerKey");

type Owned = { [ownerKey]?: string };

/** The extension marking a value object's `id` (test/graphql/schema-nodes.test.ts tells these from `Node` ids). */
export const valueIdExtension = "valueObjectId";

/**
 * Gives every object type without an `id` (but the roots, payloads and user errors) an `id: ID!` of its owner's key
 * and the field holding it: `<owner's id>/<field>` (`space_abc/urls`), the owner being the nearest object above with
 * an id, or the root (`Query/viewer`); arguments and list positions are part of it (`site_abc/features/0`,
 * `org_abc/sites({"first":5})/edges/0`). Apollo Client and urql's graphcache then key each such object by itself
 * with no configuration: no "Invalid key" or "Cache data may be lost" warning, and a narrower refetch merges into the
 * wider object instead of replacing it. The id is stable while its owner and path are; it is unique across types (an
 * owner's id is), as Relay's store needs; it is not a `Node` id (`node(id:)` answers null). Objects held only by
 * deprecated fields keep no id: they go in 0.3.0.
 */
export function addValueObjectIds(schema: GraphQLSchema): GraphQLSchema {
  const objectTypes = Object.values(schema.getTypeMap()).filter(isObjectType);
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  const valueTypes = new Set(
    objectTypes.filter(
      (type) => !roots.has(type) && !type.getFields().id && !embeddedTypeName.test(type.name) && heldLive(type),
    ),
  );
  for (const type of valueTypes) addIdField(type);
  const leadsToValue = typesLeadingTo(valueTypes, objectTypes, schema);
  for (const type of objectTypes) {
    for (const field of Object.values(type.getFields())) {
      if (namedObjectTypes(field, schema).some((held) => leadsToValue.has(held))) {
        field.resolve = owning(field.resolve ?? defaultFieldResolver, type, type === schema.getMutationType());
      }
    }
  }
  return schema;

  /** Whether a field that is not deprecated holds `type`. */
  function heldLive(type: GraphQLObjectType): boolean {
    return objectTypes.some((holder) =>
      Object.values(holder.getFields()).some((field) => !field.deprecationReason && getNamedType(field.type) === type),
    );
  }
}

/** The object types a field answers: its own, or the possible types of its interface or union. */
function namedObjectTypes(field: GraphQLField<unknown, unknown>, schema: GraphQLSchema): readonly GraphQLObjectType[] {
  const named = getNamedType(field.type);
  if (isObjectType(named)) return [named];
  return isAbstractType(named) ? schema.getPossibleTypes(named) : [];
}

/**
 * The value types, and the types without an id through which one is reached (a connection whose edges hold values,
 * a payload): their objects pass their owner's key on. Types with an id start keys of their own.
 */
function typesLeadingTo(
  valueTypes: ReadonlySet<GraphQLObjectType>,
  objectTypes: readonly GraphQLObjectType[],
  schema: GraphQLSchema,
): Set<GraphQLObjectType> {
  const leading = new Set(valueTypes);
  let grew = true;
  while (grew) {
    grew = false;
    for (const type of objectTypes) {
      if (leading.has(type) || type.getFields().id) continue;
      const fields = Object.values(type.getFields());
      if (fields.some((field) => namedObjectTypes(field, schema).some((held) => leading.has(held)))) {
        leading.add(type);
        grew = true;
      }
    }
  }
  return leading;
}

function addIdField(type: GraphQLObjectType): void {
  const field: GraphQLField<Owned, unknown> = {
    name: "id",
    description:
      "A stable id for normalized caches: its owner's id and the field holding it (`<owner id>/<field>`). Not a " +
      "node's id: `node(id:)` does not answer it.",
    type: new GraphQLNonNull(GraphQLID),
    args: [],
    resolve: (value, _args, _context, info) => value[ownerKey] ?? `${info.parentType.name}`,
    deprecationReason: undefined,
    extensions: { [valueIdExtension]: true },
    astNode: undefined,
  };
  // The built type's field map, which execution, validation and printing all read.
  const fields = type.getFields() as Record<string, GraphQLField<unknown, unknown>>;
  const { id: _, ...rest } = fields;
  for (const name of Object.keys(fields)) delete fields[name];
  Object.assign(fields, { id: field as GraphQLField<unknown, unknown> }, rest);
}

/** The key that owns what `parent`'s fields hold: its id, its own owner's key and field, or its type's name. */
function keyOf(parent: unknown, parentType: GraphQLObjectType, context: unknown, info: GraphQLResolveInfo): string {
  const owned = (parent as Owned | null)?.[ownerKey];
  if (owned !== undefined) return owned;
  const idField = parentType.getFields().id;
  if (idField && !idField.extensions[valueIdExtension]) {
    const id = idField.resolve ? idField.resolve(parent, {}, context, info) : (parent as { id?: unknown }).id;
    if (typeof id === "string") return id;
  }
  return parentType.name;
}

/**
 * The field's own part of a key: its name, with its arguments when it has any, but a mutation's (its input may be
 * large, and its answer is not read back from a cache).
 */
function fieldPart(info: GraphQLResolveInfo, args: Record<string, unknown>, withArguments: boolean): string {
  return !withArguments || Object.keys(args).length === 0
    ? info.fieldName
    : `${info.fieldName}(${JSON.stringify(args)})`;
}

/** `resolve`, whose objects (each item of a list) carry the key of their owner and place. */
function owning(
  resolve: GraphQLFieldResolver<unknown, unknown>,
  parentType: GraphQLObjectType,
  isMutation: boolean,
): GraphQLFieldResolver<unknown, unknown> {
  return (parent, args, context, info) => {
    const answer = resolve(parent, args, context, info);
    const key = () => `${keyOf(parent, parentType, context, info)}/${fieldPart(info, args, !isMutation)}`;
    return answer instanceof Promise ? answer.then((value) => tagged(value, key)) : tagged(answer, key);
  };
}

function tagged(value: unknown, key: () => string): unknown {
  if (typeof value !== "object" || value === null) return value;
  // A stream of items (`@stream`) is left as it is: its generator's methods need the generator itself.
  if (Symbol.asyncIterator in value) return value;
  if (Array.isArray(value)) {
    const base = key();
    return value.map((item, index) => tagged(item, () => `${base}/${index}`));
  }
  // A child of the answer, not the answer itself: a row or a constant may be shared with other owners.
  return Object.create(value, { [ownerKey]: { value: key() } });
}
