import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { restRoutes } from "../../src/app/rest-routes.ts";
import { baseUrl, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: { "application/json": { schema: { $ref?: string } } } };
  responses: Record<string, { content?: { "application/json": { schema: Record<string, unknown> } } }>;
}

interface Document {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> };
}

let t: TestApp;
let document: Document;

beforeAll(async () => {
  // Off: every route is sent anonymously from one address in one burst; this file tests the route table, not limits.
  t = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: "0" } });
  const response = await t.app.fetch(new Request(`${baseUrl}/v1/openapi.json`));
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("application/json");
  document = (await response.json()) as Document;
});

function operationOf(path: string, method: string): Operation {
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`${method} ${path} is not in the document`);
  return operation;
}

describe("GET /v1/openapi.json", () => {
  it("is a valid OpenAPI 3 document", async () => {
    const result = await new Validator().validate(JSON.parse(JSON.stringify(document)));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\./);
    expect(document.servers[0]?.url).toBe(`${baseUrl}/v1`);
  });

  it("describes every route of the route table, with its operation id and success status", () => {
    for (const route of restRoutes) {
      const operation = operationOf(route.path, route.method.toLowerCase());
      expect(operation.operationId).toBe(route.operation);
      expect(Object.keys(operation.responses)).toContain(String(route.status));
    }
    const documented = Object.values(document.paths).flatMap((methods) => Object.keys(methods));
    expect(documented).toHaveLength(restRoutes.length + 1); // + the document itself
  });

  it("documents only routes the server answers (none is unknown to the router)", async () => {
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        const concrete = path.replace(/\{(\w+)\}/g, (_match, name: string) => `${name}-x`);
        const response = await t.app.fetch(new Request(`${baseUrl}/v1${concrete}`, { method: method.toUpperCase() }));
        const body = response.status === 204 ? undefined : await response.json().catch(() => undefined);
        expect(
          [404, 405].includes(response.status) && /^No route|is not allowed/.test(body?.error?.message ?? ""),
        ).toBe(false);
      }
    }
  });

  it("derives parameters, request bodies and response schemas from the route documents", () => {
    const listTeams = operationOf("/orgs/{organizationId}/teams", "get");
    expect(listTeams.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "organizationId", in: "path", required: true }),
        expect.objectContaining({
          name: "limit",
          in: "query",
          required: false,
          schema: { type: "integer", minimum: 0, maximum: 1000 },
        }),
        expect.objectContaining({ name: "page", in: "query", required: false }),
      ]),
    );
    const createTeam = operationOf("/orgs/{organizationId}/teams", "put");
    const bodyRef = createTeam.requestBody?.content["application/json"].schema.$ref ?? "";
    const bodySchema = document.components.schemas[bodyRef.replace("#/components/schemas/", "")];
    expect(bodySchema?.properties).toHaveProperty("title");
    expect(bodySchema).toMatchObject({ additionalProperties: false });
    const teamSchema = createTeam.responses["201"]?.content?.["application/json"].schema;
    expect(teamSchema).toMatchObject({
      type: "object",
      properties: { object: { type: "string" }, id: { type: "string" }, members: { type: "integer" } },
    });
  });

  it("lists the query parameters checked by rules: accepted values as an enum, refused ones as deprecated", () => {
    const listForOrganization = operationOf("/orgs/{organizationId}/change-requests", "get");
    expect(listForOrganization.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: "topic",
          in: "query",
          required: false,
          deprecated: true,
          description: expect.stringContaining("Not supported"),
        }),
      ]),
    );
    const formatRules = restRoutes.flatMap((route) =>
      Object.entries(route.queryRules ?? {}).filter(([, rule]) => "oneOf" in rule),
    );
    expect(formatRules.length).toBeGreaterThan(0);
    for (const route of restRoutes.filter((candidate) => candidate.queryRules)) {
      const names = operationOf(route.path, route.method.toLowerCase()).parameters?.map((parameter) => parameter.name);
      expect(names).toEqual(expect.arrayContaining(Object.keys(route.queryRules ?? {})));
    }
  });

  it("has response schemas that real responses satisfy", async () => {
    const org = await seedOrganization(t.db, "Documented");
    const token = org.members.admin.token;
    await t.rest("PUT", `/orgs/${org.organizationId}/teams`, { token, body: { title: "Writers" } });
    const ajv = new Ajv({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ components: document.components }, "openapi.json");
    const rewrite = (schema: unknown) =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));

    for (const [path, route] of [
      [`/orgs/${org.organizationId}`, "/orgs/{organizationId}"],
      [`/orgs/${org.organizationId}/members`, "/orgs/{organizationId}/members"],
      [`/orgs/${org.organizationId}/teams`, "/orgs/{organizationId}/teams"],
    ] as const) {
      const response = await t.rest("GET", path, { token });
      expect(response.status).toBe(200);
      const schema = operationOf(route, "get").responses["200"]?.content?.["application/json"].schema;
      const validate = ajv.compile(rewrite(schema));
      expect(validate(response.body), `${route}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
