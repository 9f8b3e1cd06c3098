import {
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type OperationDefinitionNode,
  parse,
  type SelectionNode,
  type SelectionSetNode,
  typeFromAST,
} from "graphql";
import { isMutationArgumentField } from "../graphql/mutation-input.ts";
import { restKeepsNull, restRenamedValues } from "./conventions.ts";
import type { RestRoute } from "./route.ts";
import { connectionFields, groupedKey } from "./shape.ts";

type JsonSchema = Record<string, unknown>;

/** The error body every 4xx/5xx carries. */
const errorSchema: JsonSchema = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: { code: { type: "integer" }, message: { type: "string" } },
    },
  },
};

/** OpenAPI 3.0 `nullable`; an enum must list null too, or validators refuse the null. */
function nullable(schema: JsonSchema): JsonSchema {
  if ("$ref" in schema) return { allOf: [schema], nullable: true };
  return Array.isArray(schema.enum)
    ? { ...schema, enum: [...schema.enum, null], nullable: true }
    : { ...schema, nullable: true };
}

function scalarSchema(type: GraphQLNamedType): JsonSchema {
  if (isEnumType(type)) return { type: "string", enum: type.getValues().map((value) => value.value) };
  switch (type.name) {
    case "Int":
      return { type: "integer" };
    case "Float":
      return { type: "number" };
    case "Boolean":
      return { type: "boolean" };
    case "DateTime":
      return { type: "string", format: "date-time" };
    case "JSON":
      return {};
    default:
      return { type: "string" };
  }
}

/** Response keys `outer__inner` as the nested objects the REST body answers (`groupedKey`). */
function groupProperties(
  selected: Record<string, JsonSchema>,
  selectedRequired: ReadonlySet<string>,
): { properties: Record<string, JsonSchema>; required: string[] } {
  const properties: Record<string, JsonSchema> = {};
  const required = new Set<string>();
  for (const [key, schema] of Object.entries(selected)) {
    const group = groupedKey(key);
    if (!group) {
      properties[key] = schema;
      if (selectedRequired.has(key)) required.add(key);
      continue;
    }
    properties[group.outer] ??= { type: "object", properties: {} };
    const object = properties[group.outer] as { properties: Record<string, JsonSchema>; required?: string[] };
    object.properties[group.inner] = schema;
    if (selectedRequired.has(key)) {
      object.required = [...(object.required ?? []), group.inner];
      required.add(group.outer);
    }
  }
  return { properties, required: [...required] };
}

/** Builds the document: each route's variables, input type and result selection become its OpenAPI operation. */
class OpenApiBuilder {
  readonly components: Record<string, JsonSchema> = { Error: errorSchema };

  constructor(private readonly schema: GraphQLSchema) {}

  /**
   * Input objects become named components (they are shared by routes and may nest). A route's `$input` leaves out
   * the fields its path gives (`fromPath`, the route's path parameters) and the mutation's other former arguments.
   */
  inputSchema(type: GraphQLInputType, fromPath: ReadonlySet<string> = new Set()): JsonSchema {
    if (isNonNullType(type)) return this.inputSchema(type.ofType, fromPath);
    if (isListType(type)) return { type: "array", items: this.nullableInput(type.ofType) };
    if (!isInputObjectType(type)) return scalarSchema(type);
    if (!this.components[type.name]) {
      const component: JsonSchema = { type: "object", additionalProperties: false };
      this.components[type.name] = component;
      const fields = Object.values(type.getFields()).filter(
        (field) => !fromPath.has(field.name) && !isMutationArgumentField(field),
      );
      component.properties = Object.fromEntries(fields.map((field) => [field.name, this.nullableInput(field.type)]));
      const required = fields.filter((field) => isNonNullType(field.type)).map((field) => field.name);
      if (required.length) component.required = required;
      if (type.description) component.description = type.description;
    }
    return { $ref: `#/components/schemas/${type.name}` };
  }

  /** A body that also takes fields the route ignores: its component's schema inline, with them as deprecated. */
  private withIgnoredFields(body: JsonSchema, ignored: Readonly<Record<string, string>> | undefined): JsonSchema {
    if (!ignored) return body;
    const component = this.components[String(body.$ref).replace("#/components/schemas/", "")] as JsonSchema;
    const properties = { ...(component.properties as Record<string, JsonSchema>) };
    for (const [name, reason] of Object.entries(ignored)) {
      properties[name] = { type: "string", nullable: true, deprecated: true, description: `Ignored: ${reason}.` };
    }
    return { ...component, properties };
  }

  private nullableInput(type: GraphQLInputType): JsonSchema {
    const schema = this.inputSchema(type);
    return isNonNullType(type) ? schema : nullable(schema);
  }

  /** The REST body of a selection: nulls are dropped (so nullable fields are optional), connections are envelopes. */
  selectionSchema(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    fragments: Map<string, FragmentDefinitionNode>,
  ): JsonSchema {
    if (isNonNullType(type)) return this.selectionSchema(type.ofType, selectionSet, fragments);
    if (isListType(type)) return { type: "array", items: this.selectionSchema(type.ofType, selectionSet, fragments) };
    const named = getNamedType(type);
    if (isScalarType(named) || isEnumType(named) || !selectionSet) return scalarSchema(named);
    const object = this.objectSchema(named, selectionSet, fragments);
    if (!named.name.endsWith("Connection")) return object;
    const properties = object.properties as Record<string, JsonSchema>;
    const envelope: JsonSchema = {
      type: "object",
      required: ["items"],
      properties: {
        items: properties.nodes ?? { type: "array", items: {} },
        next: { type: "object", required: ["page"], properties: { page: { type: "string" } } },
      },
    };
    if (properties.totalCount) {
      (envelope.properties as Record<string, JsonSchema>).count = { type: "integer" };
      envelope.required = ["items", "count"];
    }
    for (const [key, schema] of Object.entries(properties)) {
      if (!connectionFields.has(key)) (envelope.properties as Record<string, JsonSchema>)[key] = schema;
    }
    return envelope;
  }

  private objectSchema(
    parent: GraphQLNamedType,
    selectionSet: SelectionSetNode,
    fragments: Map<string, FragmentDefinitionNode>,
    into: { properties: Record<string, JsonSchema>; required: Set<string>; narrowed: boolean } = {
      properties: {},
      required: new Set(),
      narrowed: false,
    },
  ): JsonSchema {
    for (const selection of selectionSet.selections) {
      if (selection.kind !== Kind.FIELD) {
        const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
        const condition = fragment?.typeCondition && this.schema.getType(fragment.typeCondition.name.value);
        if (!fragment) continue;
        // Fields of a fragment on another type (a union member) are present only on that member: optional.
        const narrowed = into.narrowed || (!!condition && condition !== parent);
        this.objectSchema(condition || parent, fragment.selectionSet, fragments, { ...into, narrowed });
        continue;
      }
      if (selection.name.value === "__typename") {
        // The REST object name (a type's `restObjectName`: conventions.ts), present whatever the type.
        const key = selection.alias?.value ?? selection.name.value;
        into.properties[key] = { type: "string" };
        if (!into.narrowed) into.required.add(key);
        continue;
      }
      if (!isObjectType(parent)) continue;
      const field = parent.getFields()[selection.name.value];
      if (!field) continue;
      const key = selection.alias?.value ?? selection.name.value;
      const renamed = restRenamedValues(field, key);
      const schema = renamed
        ? { type: "string", enum: Object.values(renamed) }
        : this.selectionSchema(field.type, selection.selectionSet, fragments);
      const keepsNull = restKeepsNull(field);
      into.properties[key] = keepsNull ? nullable(schema) : schema;
      if (!into.narrowed && (isNonNullType(field.type) || keepsNull)) into.required.add(key);
      if (field.description && !("$ref" in schema))
        into.properties[key] = { ...into.properties[key], description: field.description };
    }
    const { properties, required } = groupProperties(into.properties, into.required);
    const schema: JsonSchema = { type: "object", properties };
    if (required.length) schema.required = required;
    return schema;
  }

  operation(route: RestRoute): JsonSchema {
    const document = parse(route.document);
    const operation = document.definitions.find(
      (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
    );
    if (!operation) throw new Error(`Route ${route.operation}: no operation`);
    const fragments = new Map(
      document.definitions
        .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
        .map((fragment) => [fragment.name.value, fragment]),
    );
    const pathNames = new Set([...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string));
    const parameters: JsonSchema[] = [];
    let requestBody: JsonSchema | undefined;
    const declared = new Set((operation.variableDefinitions ?? []).map((definition) => definition.variable.name.value));
    for (const definition of operation.variableDefinitions ?? []) {
      const name = definition.variable.name.value;
      const type = typeFromAST(this.schema, definition.type as never) as GraphQLInputType | undefined;
      if (!type) throw new Error(`Route ${route.operation}: unknown type of $${name}`);
      if (name === "input") {
        const fromPath = new Set([...pathNames].filter((pathName) => !declared.has(pathName)));
        const body = this.withIgnoredFields(this.inputSchema(type, fromPath), route.ignoredBodyFields);
        const named = getNamedType(type);
        const fields = isInputObjectType(named) ? Object.values(named.getFields()) : [];
        requestBody = {
          required: fields.some(
            (field) => !fromPath.has(field.name) && !isMutationArgumentField(field) && isNonNullType(field.type),
          ),
          content: { "application/json": { schema: body } },
        };
        for (const pathName of fromPath) {
          parameters.push({ name: pathName, in: "path", required: true, schema: { type: "string" } });
        }
        continue;
      }
      // Set from parameters of other names (`queryVariables`), which `ruleParameters` lists.
      if (route.queryVariables?.variables.includes(name)) continue;
      const inPath = pathNames.has(name);
      const bounds = route.queryRules?.[name];
      const range =
        bounds && "integerBetween" in bounds
          ? { minimum: bounds.integerBetween[0], maximum: bounds.integerBetween[1] }
          : {};
      parameters.push({
        name,
        in: inPath ? "path" : "query",
        required: inPath || isNonNullType(type),
        schema: { ...this.inputSchema(type), ...range },
        ...(isListType(isNonNullType(type) ? type.ofType : type) ? { style: "form", explode: true } : {}),
      });
    }
    parameters.push(...ruleParameters(route));
    const success: JsonSchema = { description: route.status === 204 ? "No content" : "Success" };
    if (route.result !== undefined && route.status !== 204) {
      success.content = { "application/json": { schema: this.resultSchema(operation, route, fragments) } };
    }
    return {
      operationId: route.operation,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [String(route.status)]: success,
        default: {
          description: "Error (4xx for bad input, access and missing objects)",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    };
  }

  private resultSchema(
    operation: OperationDefinitionNode,
    route: RestRoute,
    fragments: Map<string, FragmentDefinitionNode>,
  ): JsonSchema {
    const root = operation.operation === "mutation" ? this.schema.getMutationType() : this.schema.getQueryType();
    if (!root) throw new Error(`Route ${route.operation}: no ${operation.operation} type`);
    let type: GraphQLOutputType = root;
    let selectionSet: SelectionSetNode | undefined = operation.selectionSet;
    for (const key of (route.result ?? "").split(".").filter(Boolean)) {
      const parent: GraphQLNamedType = getNamedType(type);
      const selection: SelectionNode | undefined = selectionSet?.selections.find(
        (candidate) => candidate.kind === Kind.FIELD && (candidate.alias?.value ?? candidate.name.value) === key,
      );
      if (!selection || selection.kind !== Kind.FIELD || !isObjectType(parent)) {
        throw new Error(`Route ${route.operation}: result ${route.result} is not selected`);
      }
      const field: GraphQLField<unknown, unknown> | undefined = parent.getFields()[selection.name.value];
      if (!field) throw new Error(`Route ${route.operation}: unknown field ${selection.name.value}`);
      type = field.type;
      selectionSet = selection.selectionSet;
    }
    return this.selectionSchema(type, selectionSet, fragments);
  }
}

/** OpenAPI 3.0 for `/v1`, generated from the route table and the GraphQL schema (never written by hand). */
export function buildOpenApiDocument(schema: GraphQLSchema, routes: readonly RestRoute[], publicUrl: string) {
  const builder = new OpenApiBuilder(schema);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, JsonSchema>)[route.method.toLowerCase()] = builder.operation(route);
  }
  paths["/openapi.json"] = {
    get: {
      operationId: "getOpenAPIDocument",
      security: [],
      responses: {
        "200": { description: "This document", content: { "application/json": { schema: { type: "object" } } } },
      },
    },
  };
  return {
    openapi: "3.0.3",
    info: {
      title: "Docs management gateway: public REST API",
      version: "1",
      description: "Generated at start-up from the /v1 route table and the GraphQL schema they run against.",
    },
    servers: [{ url: `${publicUrl}/v1` }],
    security: [{ bearerAuth: [] }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas: builder.components,
    },
  };
}

/**
 * Query parameters the router checks without passing them on (`queryRules`): those with accepted values as enums,
 * those the reference has and this server refuses with the reason a 400 gives, so a client learns both from here.
 */
function ruleParameters(route: RestRoute): JsonSchema[] {
  // Bounds of a variable's parameter are given on that parameter.
  const rules = Object.entries(route.queryRules ?? {}).flatMap(([name, rule]) =>
    "integerBetween" in rule ? [] : [[name, rule] as const],
  );
  return rules.map(([name, rule]) =>
    "oneOf" in rule
      ? { name, in: "query", required: false, schema: { type: "string", enum: [...rule.oneOf] } }
      : {
          name,
          in: "query",
          required: false,
          deprecated: true,
          description: `Not supported: ${rule.unsupported}. Sending it answers 400.`,
          schema: { type: "string" },
        },
  );
}
