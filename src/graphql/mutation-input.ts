import {
  type GraphQLArgument,
  type GraphQLFieldResolver,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLNamedType,
  GraphQLNonNull,
  GraphQLSchema,
  getNullableType,
  isInputObjectType,
} from "graphql";

/** Marks the fields of a mutation's input that were arguments (ids the REST adapter takes from the path only). */
const argumentField = "mutationArgument";

export function isMutationArgumentField(field: { extensions?: Readonly<Record<string, unknown>> | null }): boolean {
  return field.extensions?.[argumentField] === true;
}

/** The name of a mutation's one argument type: `updateSpace` -> `UpdateSpaceInput`. */
export const mutationInputTypeName = (mutation: string) => `${mutation[0]?.toUpperCase()}${mutation.slice(1)}Input`;

/**
 * Relay's mutation convention: every mutation takes exactly one non-null argument `input` of its own type
 * `<Mutation>Input`, whose fields are the arguments the module declared (the ids it acts on, each with its
 * description) and, flat beside them, the fields of the `input` object it declared. A module declares its mutations
 * as reads them (`spaceId`, `input`); the convention reshapes them for every mutation any module adds, and its
 * resolver receives the arguments as declared, so resolvers and services do not change. Input types only a
 * mutation's `input` used leave the schema (their fields live on in the mutation's own type).
 */
export function oneInputPerMutation(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  if (!mutation) return schema;
  const flattened = new Set<GraphQLNamedType>();
  for (const field of Object.values(mutation.getFields())) {
    const declaredInput = field.args.find((arg) => arg.name === "input");
    const inputObject = declaredInput && inputObjectOf(field.name, declaredInput);
    const name = mutationInputTypeName(field.name);
    const loose = field.args.filter((arg) => arg !== declaredInput);
    if (
      inputObject &&
      loose.length === 0 &&
      inputObject.name === name &&
      declaredInput.type instanceof GraphQLNonNull
    ) {
      continue;
    }
    const fields: GraphQLInputFieldConfigMap = {};
    for (const arg of loose) fields[arg.name] = inputFieldOf(arg);
    for (const [fieldName, config] of Object.entries(inputObject?.toConfig().fields ?? {})) {
      if (fieldName in fields) throw new Error(`Mutation.${field.name}: input field ${fieldName} is also an argument`);
      fields[fieldName] = config;
    }
    if (inputObject) flattened.add(inputObject);
    const type = new GraphQLInputObjectType({
      name,
      description: inputObject?.description ?? `What \`${field.name}\` acts on.`,
      fields,
    });
    field.args = [
      {
        name: "input",
        description: declaredInput?.description ?? "What the mutation acts on.",
        type: new GraphQLNonNull(type),
        defaultValue: undefined,
        deprecationReason: undefined,
        extensions: {},
        astNode: undefined,
      },
    ];
    if (field.resolve) field.resolve = withDeclaredArguments(field.resolve, loose, declaredInput !== undefined);
  }
  const config = schema.toConfig();
  // A flattened type another type still refers to comes back: the schema collects every type its fields reach.
  return new GraphQLSchema({ ...config, types: config.types.filter((type) => !flattened.has(type)) });
}

function inputObjectOf(mutation: string, input: GraphQLArgument): GraphQLInputObjectType {
  const type = getNullableType(input.type);
  if (!isInputObjectType(type)) throw new Error(`Mutation.${mutation}: its input argument is not an input object`);
  return type;
}

function inputFieldOf(arg: GraphQLArgument) {
  return {
    description: arg.description,
    type: arg.type,
    defaultValue: arg.defaultValue,
    deprecationReason: arg.deprecationReason,
    extensions: { ...arg.extensions, [argumentField]: true },
  };
}

/** The resolver as the module declared it: the arguments taken out of `input`, the rest as its `input`. */
function withDeclaredArguments<Context>(
  resolve: GraphQLFieldResolver<unknown, Context>,
  loose: readonly GraphQLArgument[],
  hasInput: boolean,
): GraphQLFieldResolver<unknown, Context, { input: Record<string, unknown> }> {
  const names = loose.map((arg) => arg.name);
  return (parent, { input }, ctx, info) => {
    const rest: Record<string, unknown> = { ...input };
    const args: Record<string, unknown> = {};
    for (const name of names) {
      if (name in rest) args[name] = rest[name];
      delete rest[name];
    }
    if (hasInput) args.input = rest;
    return resolve(parent, args, ctx, info);
  };
}
