import type { Ajv, ErrorObject, ValidateFunction } from "ajv";
import { InvalidInputError } from "../../lib/errors.ts";

/*
 * A site's adaptive schema describes the visitor claims that conditions may read. The reference fixes its shape:
 * a draft-07 object schema whose properties are boolean claims (each with a `description`, as the public spec asks), plus an optional `unsigned` object of boolean
 * claims, and no additional properties at either level. ajv checks both that the value is a valid draft-07 schema
 * (its meta-schema) and that it has this shape.
 */

const booleanClaim = {
  type: "object",
  properties: { type: { const: "boolean" }, description: { type: "string", maxLength: 1024 } },
  required: ["type", "description"],
  additionalProperties: false,
};

const claimName = { type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]{0,63}$" };

const adaptiveSchemaShape = {
  type: "object",
  properties: {
    $schema: { const: "http://json-schema.org/draft-07/schema#" },
    type: { const: "object" },
    properties: {
      type: "object",
      propertyNames: claimName,
      maxProperties: 100,
      properties: {
        unsigned: {
          type: "object",
          properties: {
            type: { const: "object" },
            description: { type: "string", maxLength: 1024 },
            properties: {
              type: "object",
              propertyNames: claimName,
              maxProperties: 100,
              additionalProperties: booleanClaim,
            },
            additionalProperties: { const: false },
          },
          required: ["type", "description", "properties", "additionalProperties"],
          additionalProperties: false,
        },
      },
      additionalProperties: booleanClaim,
    },
    additionalProperties: { const: false },
  },
  required: ["type", "properties", "additionalProperties"],
  additionalProperties: false,
};

let validator: Promise<{ ajv: Ajv; hasShape: ValidateFunction }> | undefined;

/** ajv and the compiled shape, made on the first schema checked: few processes ever check one. */
function adaptiveSchemaValidator() {
  validator ??= import("ajv").then(({ Ajv }) => {
    const ajv = new Ajv({ allErrors: false, strict: true });
    return { ajv, hasShape: ajv.compile(adaptiveSchemaShape) };
  });
  return validator;
}

export interface AdaptiveJsonSchema {
  properties: Record<string, { description: string }> & {
    unsigned?: { properties: Record<string, { description: string }> };
  };
}

function describe(errors: ErrorObject[] | null | undefined): string {
  const error = errors?.[0];
  if (!error) return "invalid schema";
  return `${error.instancePath || "(root)"} ${error.message ?? error.keyword}`;
}

/** Accepts a visitor schema of the reference's shape (400 otherwise). */
export async function validateAdaptiveSchema(value: unknown): Promise<void> {
  const { ajv, hasShape } = await adaptiveSchemaValidator();
  // The shape first: it pins `$schema` to draft-07, the only meta-schema `validateSchema` may then look up.
  if (!hasShape(value)) throw new InvalidInputError(`Invalid jsonSchema: ${describe(hasShape.errors)}`);
  if (!ajv.validateSchema(value as object)) {
    throw new InvalidInputError(`Invalid jsonSchema: not a JSON Schema draft-07 (${describe(ajv.errors)})`);
  }
}

/** One suggested condition per boolean claim: signed claims under `visitor.claims`, unsigned ones below `unsigned`. */
export function templateConditions(schema: AdaptiveJsonSchema | null): { description: string; condition: string }[] {
  if (!schema) return [];
  const { unsigned, ...signed } = schema.properties;
  const conditions = Object.entries(signed).map(([name, claim]) => ({
    description: claim.description,
    condition: `visitor.claims.${name}`,
  }));
  for (const [name, claim] of Object.entries(unsigned?.properties ?? {})) {
    conditions.push({
      description: claim.description,
      condition: `visitor.claims.unsigned.${name}`,
    });
  }
  return conditions;
}
