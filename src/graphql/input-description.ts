import { z } from "zod";

type JsonSchema = {
  type?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  anyOf?: JsonSchema[];
};

function range(min: number | undefined, max: number | undefined, unit: string): string | null {
  if (min === undefined && max === undefined) return null;
  if (min === 1 && max === undefined) return "not empty";
  if (min !== undefined && max !== undefined) return `${min}..${max} ${unit}`;
  return min !== undefined ? `at least ${min} ${unit}` : `at most ${max} ${unit}`;
}

function limitsOf(schema: JsonSchema): string[] {
  const variant = schema.anyOf?.find((entry) => entry.type !== "null") ?? schema;
  const limits = [
    range(variant.minLength, variant.maxLength, "characters"),
    range(variant.minimum, variant.maximum, variant.type === "integer" ? "(integer)" : "(number)"),
    range(variant.minItems, variant.maxItems, "items"),
    variant.enum ? `one of ${variant.enum.map((value) => JSON.stringify(value)).join(", ")}` : null,
    variant.format ? `format ${variant.format}` : null,
    // A format (date-time, email, ...) says more than the regular expression zod writes for it.
    variant.pattern && !variant.format ? `matching /${variant.pattern}/` : null,
  ];
  if (schema.anyOf?.some((entry) => entry.type === "null")) limits.push("may be null");
  return limits.filter((limit): limit is string => limit !== null);
}

/**
 * The GraphQL description of one input field, read from the zod schema the service validates it with: the schema's
 * own `.describe()` text followed by its limits, so the documented limits are the enforced ones.
 */
export function describeInputField(schema: z.ZodObject, key: string): string {
  const json = jsonSchemaOfFields(schema)[key];
  if (!json) throw new Error(`describeInputField: the schema has no field ${key}`);
  const limits = limitsOf(json);
  const prose = json.description ?? json.anyOf?.find((entry) => entry.description)?.description;
  const parts = [prose ? prose.replace(/\.?$/, ".") : null, limits.length ? `${capitalize(limits.join("; "))}.` : null];
  return parts.filter(Boolean).join(" ");
}

/**
 * Each field's JSON Schema, converted once per object schema: converting each field on its own was a fifth of the
 * GraphQL schema's construction at start-up.
 */
const fieldsJsonSchemas = new WeakMap<z.ZodObject, Record<string, JsonSchema>>();

function jsonSchemaOfFields(schema: z.ZodObject): Record<string, JsonSchema> {
  let fields = fieldsJsonSchemas.get(schema);
  if (!fields) {
    const json = z.toJSONSchema(schema, { unrepresentable: "any", io: "input" });
    fields = (json as { properties?: Record<string, JsonSchema> }).properties ?? {};
    fieldsJsonSchemas.set(schema, fields);
  }
  return fields;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
