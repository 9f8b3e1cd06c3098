import SchemaBuilder, {
  BasePlugin,
  type PothosEnumTypeConfig,
  type PothosOutputFieldConfig,
  type PothosTypeConfig,
  type SchemaTypes,
} from "@pothos/core";
import type { GraphQLFieldResolver, GraphQLSchema } from "graphql";
import { nameEnumValuesInDescriptions } from "./enum-input-descriptions.ts";
import { resolveNodeIds, resolveNodeTypesById } from "./node-ids.ts";
import { readOwnProperties } from "./own-property.ts";
import { applyPartialSuccessNullability } from "./partial-success.ts";
import { addDeprecatedMutationAliases } from "./renamed-mutations.ts";
import { shareEdgesByItemType } from "./shared-edges.ts";
import { mutationUserErrorCodes, userErrorCodes, withUserErrors } from "./user-errors.ts";

/**
 * The schema's conventions, applied by Pothos when it builds the schema (its plugin API: `onTypeConfig` sees every
 * type's options, `afterBuild` the built schema), so that every field any module adds follows them: deprecated
 * aliases of renamed mutations, partial-success nullability, node ids without async resolvers, `Node` types named by
 * their ids' prefixes, own-property reads without resolvers, enum names in input descriptions, one edge type per
 * item type, and each mutation's
 * user-fixable failures answered as its payload's `userErrors` with the codes its `extensions.userErrorCodes` lists.
 */
class SchemaConventionsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  /** Each node type's declared `id` resolver, from its options as the builder received them. */
  private readonly idResolvers = new Map<string, GraphQLFieldResolver<unknown, unknown>>();

  override onTypeConfig(typeConfig: PothosTypeConfig): PothosTypeConfig {
    if (typeConfig.kind === "Enum") return this.withUserErrorCodes(typeConfig);
    const declared = (typeConfig.pothosOptions as { id?: { resolve?: unknown } }).id?.resolve;
    if (typeConfig.kind === "Object" && typeof declared === "function") {
      this.idResolvers.set(typeConfig.name, declared as GraphQLFieldResolver<unknown, unknown>);
    }
    return typeConfig;
  }

  /** The extensions of mutation `name`, as its module declared them. */
  private mutationExtensions(name: string): unknown {
    return this.builder.configStore.getFields("Mutation").get(name)?.extensions;
  }

  /** A `<Mutation>UserErrorCode` enum (see `payloadType`) with its mutation's codes as values. */
  private withUserErrorCodes(typeConfig: PothosEnumTypeConfig): PothosTypeConfig {
    const mutation = (typeConfig.extensions as { userErrorCodesOf?: string } | undefined)?.userErrorCodesOf;
    if (mutation === undefined) return typeConfig;
    const codes = mutationUserErrorCodes(this.mutationExtensions(mutation));
    const values = Object.fromEntries(codes.map((code) => [code, { value: code, description: userErrorCodes[code] }]));
    return { ...typeConfig, values } as PothosEnumTypeConfig;
  }

  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    if (fieldConfig.parentType !== "Mutation") return resolver;
    const codes = mutationUserErrorCodes(fieldConfig.extensions);
    return withUserErrors(resolver, codes, new Set(Object.keys(fieldConfig.args)));
  }

  override afterBuild(schema: GraphQLSchema): GraphQLSchema {
    return nameEnumValuesInDescriptions(
      readOwnProperties(
        resolveNodeTypesById(
          resolveNodeIds(
            applyPartialSuccessNullability(addDeprecatedMutationAliases(shareEdgesByItemType(schema))),
            this.idResolvers,
          ),
        ),
      ),
    );
  }
}

const pluginName = "schemaConventions";

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      schemaConventions: SchemaConventionsPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, SchemaConventionsPlugin);

export default pluginName;
