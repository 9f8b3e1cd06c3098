import SchemaBuilder, {
  BasePlugin,
  type PothosEnumTypeConfig,
  type PothosOutputFieldConfig,
  type PothosTypeConfig,
  type SchemaTypes,
} from "@pothos/core";
import type { GraphQLFieldResolver, GraphQLSchema } from "graphql";
import { userErrorDescriptions } from "../lib/error-codes.ts";
import { nameEnumValuesInDescriptions } from "./enum-input-descriptions.ts";
import { describedWithErrors, mutationErrorsOf } from "./mutation-errors.ts";
import { oneInputPerMutation } from "./mutation-input.ts";
import { resolveNodeIds, resolveNodeTypesById } from "./node-ids.ts";
import { readOwnProperties } from "./own-property.ts";
import { applyPartialSuccessNullability } from "./partial-success.ts";
import { shareEdgesByItemType } from "./shared-edges.ts";
import { mutationUserErrorCodes, withUserErrors } from "./user-errors.ts";
import { addValueObjectIds } from "./value-ids.ts";

/*
 * The schema's conventions, each a Pothos plugin of its own registered under its name, applied when the builder
 * builds the schema (`onTypeConfig` sees every type's options, `onOutputFieldConfig` every field's, `wrapResolve`
 * every field's resolver, `afterBuild` the built schema), so that every field any module adds follows them. The
 * builder lists them by name, in the order their `afterBuild` passes need (src/graphql/builder.ts).
 */

/** Each mutation's user-fixable failures answered as its payload's `userErrors`, with its declared codes. */
class UserErrorsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onTypeConfig(typeConfig: PothosTypeConfig): PothosTypeConfig {
    return typeConfig.kind === "Enum" ? this.withUserErrorCodes(typeConfig) : typeConfig;
  }

  /** A `<Mutation>UserErrorCode` enum (see `payloadType`) with its mutation's codes as values. */
  private withUserErrorCodes(typeConfig: PothosEnumTypeConfig): PothosTypeConfig {
    const mutation = (typeConfig.extensions as { userErrorCodesOf?: string } | undefined)?.userErrorCodesOf;
    if (mutation === undefined) return typeConfig;
    const declared = this.builder.configStore.getFields("Mutation").get(mutation)?.extensions;
    const codes = mutationUserErrorCodes(declared);
    const values = Object.fromEntries(
      codes.map((code) => [code, { value: code, description: userErrorDescriptions[code] }]),
    );
    return { ...typeConfig, values } as PothosEnumTypeConfig;
  }

  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    if (fieldConfig.parentType !== "Mutation") return resolver;
    const codes = mutationUserErrorCodes(fieldConfig.extensions);
    return withUserErrors(resolver, codes);
  }
}

/** Each mutation's description lists the error codes it declares as data (`describeMutation`), with when. */
class MutationErrorsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    const errors = fieldConfig.parentType === "Mutation" ? mutationErrorsOf(fieldConfig.extensions) : undefined;
    if (!errors) return fieldConfig;
    return { ...fieldConfig, description: describedWithErrors(fieldConfig.description ?? "", errors) };
  }
}

/** Node ids read without async resolvers, and `Node` types found by their ids' prefixes. */
class NodeIdsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  /** Each node type's declared `id` resolver, from its options as the builder received them. */
  private readonly idResolvers = new Map<string, GraphQLFieldResolver<unknown, unknown>>();

  override onTypeConfig(typeConfig: PothosTypeConfig): PothosTypeConfig {
    const declared = (typeConfig.pothosOptions as { id?: { resolve?: unknown } }).id?.resolve;
    if (typeConfig.kind === "Object" && typeof declared === "function") {
      this.idResolvers.set(typeConfig.name, declared as GraphQLFieldResolver<unknown, unknown>);
    }
    return typeConfig;
  }

  override afterBuild(schema: GraphQLSchema): GraphQLSchema {
    return resolveNodeTypesById(resolveNodeIds(schema, this.idResolvers));
  }
}

/** A convention that rewrites the built schema, and nothing else. */
function schemaPass(pass: (schema: GraphQLSchema) => GraphQLSchema) {
  return class SchemaPassPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
    override afterBuild(schema: GraphQLSchema): GraphQLSchema {
      return pass(schema);
    }
  };
}

const conventions = {
  valueObjectIds: schemaPass(addValueObjectIds),
  enumInputDescriptions: schemaPass(nameEnumValuesInDescriptions),
  ownProperties: schemaPass(readOwnProperties),
  nodeIds: NodeIdsPlugin,
  partialSuccess: schemaPass(applyPartialSuccessNullability),
  oneInputPerMutation: schemaPass(oneInputPerMutation),
  sharedEdges: schemaPass(shareEdgesByItemType),
  userErrors: UserErrorsPlugin,
  mutationErrors: MutationErrorsPlugin,
} as const;

type ConventionName = keyof typeof conventions;

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      enumInputDescriptions: BasePlugin<Types>;
      mutationErrors: MutationErrorsPlugin<Types>;
      ownProperties: BasePlugin<Types>;
      nodeIds: NodeIdsPlugin<Types>;
      partialSuccess: BasePlugin<Types>;
      oneInputPerMutation: BasePlugin<Types>;
      sharedEdges: BasePlugin<Types>;
      userErrors: UserErrorsPlugin<Types>;
      valueObjectIds: BasePlugin<Types>;
    }
  }
}

for (const [name, plugin] of Object.entries(conventions)) {
  SchemaBuilder.registerPlugin(name as ConventionName, plugin);
}
