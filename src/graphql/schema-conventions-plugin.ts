import SchemaBuilder, { BasePlugin, type PothosTypeConfig, type SchemaTypes } from "@pothos/core";
import type { GraphQLFieldResolver, GraphQLSchema } from "graphql";
import { nameEnumValuesInDescriptions } from "./enum-input-descriptions.ts";
import { resolveNodeIds, resolveNodeTypesById } from "./node-ids.ts";
import { readOwnProperties } from "./own-property.ts";
import { applyPartialSuccessNullability } from "./partial-success.ts";
import { addDeprecatedMutationAliases } from "./renamed-mutations.ts";

/**
 * The schema's conventions, applied by Pothos when it builds the schema (its plugin API: `onTypeConfig` sees every
 * type's options, `afterBuild` the built schema), so that every field any module adds follows them: deprecated
 * aliases of renamed mutations, partial-success nullability, node ids without async resolvers, `Node` types named by
 * their ids' prefixes, own-property reads without resolvers, enum names in input descriptions.
 */
class SchemaConventionsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
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
    return nameEnumValuesInDescriptions(
      readOwnProperties(
        resolveNodeTypesById(
          resolveNodeIds(applyPartialSuccessNullability(addDeprecatedMutationAliases(schema)), this.idResolvers),
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
