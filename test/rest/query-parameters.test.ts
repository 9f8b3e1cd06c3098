import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Kind, type OperationDefinitionNode, parse } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { restRoutes } from "../../src/app/rest-routes.ts";
import { createSite, createSpace, sitePath } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

/** Every query parameter of the reference is honoured or refused with 400: none is accepted and ignored. */
let t: TestApp;
let org: SeededOrganization;
let admin: string;

type List = { items: { id: string; subject: string }[]; count: number };
type ErrorBody = { error: { code: number; message: string } };

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Query Parameters Org");
  admin = org.members.admin.token;
});

async function openChangeRequest(spaceId: string, subject: string) {
  const created = await t.rest<{ id: string }>("POST", `/spaces/${spaceId}/change-requests`, {
    token: admin,
    body: { subject },
  });
  expect(created.status).toBe(201);
  return created.body;
}

function listOrganizationChangeRequests(query: Record<string, string>, token = admin) {
  return t.rest<List>("GET", `/orgs/${org.organizationId}/change-requests`, { token, query });
}

describe("organization change requests filtered by site and space", () => {
  it("lists only the change requests of one space, or of the spaces a site publishes", async () => {
    const published = await createSpace(t, org, { title: "Published" });
    const alsoPublished = await createSpace(t, org, { title: "Also published" });
    const unpublished = await createSpace(t, org, { title: "Unpublished" });
    const inPublished = await openChangeRequest(published.id, "In published");
    const inAlsoPublished = await openChangeRequest(alsoPublished.id, "In also published");
    const inUnpublished = await openChangeRequest(unpublished.id, "In unpublished");
    const site = await createSite(t, org, { title: "Docs" });
    const emptySite = await createSite(t, org, { title: "Empty" });
    for (const space of [published, alsoPublished]) {
      const added = await t.rest("POST", `${sitePath(org, site.id)}/site-spaces`, {
        token: admin,
        body: { spaceId: space.id },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
    }

    const all = await listOrganizationChangeRequests({});
    expect(all.body.items.map((item) => item.id).sort()).toEqual(
      [inPublished.id, inAlsoPublished.id, inUnpublished.id].sort(),
    );

    const bySpace = await listOrganizationChangeRequests({ space: unpublished.id });
    expect(bySpace.status).toBe(200);
    expect(bySpace.body).toMatchObject({ count: 1, items: [{ id: inUnpublished.id }] });

    const bySite = await listOrganizationChangeRequests({ site: site.id });
    expect(bySite.status).toBe(200);
    expect(bySite.body.count).toBe(2);
    expect(bySite.body.items.map((item) => item.id).sort()).toEqual([inPublished.id, inAlsoPublished.id].sort());

    const both = await listOrganizationChangeRequests({ site: site.id, space: unpublished.id });
    expect(both.body).toMatchObject({ count: 0, items: [] });
    expect((await listOrganizationChangeRequests({ site: emptySite.id })).body).toMatchObject({ count: 0, items: [] });
    // An id of nothing the caller can see lists nothing, and says nothing about other organizations.
    expect((await listOrganizationChangeRequests({ space: "space_unknown" })).body).toMatchObject({ count: 0 });

    const paged = await listOrganizationChangeRequests({ site: site.id, limit: "1" });
    expect(paged.body.items).toHaveLength(1);
    const next = (paged.body as List & { next?: { page: string } }).next?.page;
    expect(next).toBeDefined();
    const second = await listOrganizationChangeRequests({ site: site.id, limit: "1", page: next as string });
    expect([...paged.body.items, ...second.body.items].map((item) => item.id).sort()).toEqual(
      [inPublished.id, inAlsoPublished.id].sort(),
    );
  });
});

describe("parameters the model has no concept of", () => {
  it("refuses topic, styleguideRun and finding with 400 and the public error body", async () => {
    const space = await createSpace(t, org, { title: "Topics" });
    const refusals: [string, Record<string, string>, string][] = [
      [`/spaces/${space.id}/change-requests`, { topic: "topic_1" }, "topic"],
      [`/orgs/${org.organizationId}/change-requests`, { topic: "topic_1" }, "topic"],
      [`/orgs/${org.organizationId}/change-requests`, { styleguideRun: "run_1" }, "styleguideRun"],
      [`/orgs/${org.organizationId}/change-requests`, { finding: "finding_1" }, "finding"],
    ];
    for (const [path, query, name] of refusals) {
      const response = await t.rest<ErrorBody>("GET", path, { token: admin, query });
      expect(response.status, path).toBe(400);
      expect(response.body.error.code).toBe(400);
      expect(response.body.error.message).toMatch(new RegExp(`^Query parameter ${name} is not supported: `));
    }
  });

  it("answers a page as is for every dereferenced value, refuses other values and format.markdown.refs", async () => {
    const space = await createSpace(t, org, { title: "Pages" });
    const edit = await t.rest<{ inserted: { id: string }[] }>("POST", `/spaces/${space.id}/content`, {
      token: admin,
      body: { changes: [{ type: "insert", page: { title: "Intro", markdown: "Hello **world**.\n" } }] },
    });
    expect(edit.status).toBe(200);
    const pageId = edit.body.inserted[0]?.id as string;
    const changeRequest = await openChangeRequest(space.id, "Pages");
    for (const path of [
      `/spaces/${space.id}/content/page/${pageId}`,
      `/spaces/${space.id}/change-requests/${changeRequest.id}/content/page/${pageId}`,
    ]) {
      const plain = await t.rest("GET", path, { token: admin, query: { format: "markdown" } });
      expect(plain.status).toBe(200);
      for (const dereferenced of ["true", "false", "reusable-contents"]) {
        const response = await t.rest("GET", path, { token: admin, query: { format: "markdown", dereferenced } });
        expect(response.status).toBe(200);
        expect(response.body).toEqual(plain.body);
      }
      const invalid = await t.rest<ErrorBody>("GET", path, { token: admin, query: { dereferenced: "yes" } });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual({
        error: { code: 400, message: "Query parameter dereferenced must be one of true, false, reusable-contents" },
      });
      const refs = await t.rest<ErrorBody>("GET", path, {
        token: admin,
        query: { format: "markdown", "format.markdown.refs": "urls" },
      });
      expect(refs.status).toBe(400);
      expect(refs.body.error.message).toMatch(/^Query parameter format\.markdown\.refs is not supported: /);
    }
  });
});

describe("parameters of the public spec beyond the reference", () => {
  it("lists nested collections unless nested=false, which lists only the top level", async () => {
    const create = async (body: Record<string, string>) => {
      const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/collections`, {
        token: admin,
        body,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    };
    const top = await create({ title: "Top" });
    const child = await create({ title: "Child", parent: top });
    const ids = async (query: Record<string, string>) => {
      const list = await t.rest<List>("GET", `/orgs/${org.organizationId}/collections`, { token: admin, query });
      expect(list.status).toBe(200);
      return list.body.items.map((item) => item.id);
    };
    expect(await ids({})).toEqual(expect.arrayContaining([top, child]));
    expect(await ids({ nested: "true" })).toEqual(expect.arrayContaining([top, child]));
    const topLevel = await ids({ nested: "false" });
    expect(topLevel).toContain(top);
    expect(topLevel).not.toContain(child);
  });

  it("validates a review's format, refuses the outdated filter and a site structure's shareKey", async () => {
    const space = await createSpace(t, org, { title: "Reviews" });
    const changeRequest = await openChangeRequest(space.id, "Review me");
    const reviews = `/spaces/${space.id}/change-requests/${changeRequest.id}/reviews`;
    for (const format of ["document", "markdown"]) {
      expect((await t.rest("GET", reviews, { token: admin, query: { format } })).status).toBe(200);
    }
    const badFormat = await t.rest<ErrorBody>("GET", reviews, { token: admin, query: { format: "html" } });
    expect(badFormat.body).toEqual({
      error: { code: 400, message: "Query parameter format must be one of document, markdown" },
    });
    const outdated = await t.rest<ErrorBody>("GET", reviews, { token: admin, query: { outdated: "true" } });
    expect(outdated.status).toBe(400);
    expect(outdated.body.error.message).toMatch(/^Query parameter outdated is not supported: /);

    const site = await createSite(t, org, { title: "Structure" });
    const structure = `${sitePath(org, site.id)}/structure`;
    expect((await t.rest("GET", structure, { token: admin })).status).toBe(200);
    const shared = await t.rest<ErrorBody>("GET", structure, { token: admin, query: { shareKey: "key" } });
    expect(shared.status).toBe(400);
    expect(shared.body.error.message).toMatch(/^Query parameter shareKey is not supported: /);
  });
});

type SpecParameter = { name?: string; in?: string; $ref?: string };
type SpecOperation = { operationId?: string; parameters?: SpecParameter[] };

/** The query parameter names of each operation of the public spec that a route serves. */
function specQueryParameters(): Map<string, string[]> {
  const spec = JSON.parse(
    readFileSync(createRequire(import.meta.url).resolve("@gitbook/api/spec/openapi.json"), "utf8"),
  );
  const resolve = (parameter: SpecParameter): SpecParameter =>
    parameter.$ref ? spec.components.parameters[parameter.$ref.split("/").at(-1) as string] : parameter;
  const byOperation = new Map<string, string[]>();
  for (const pathItem of Object.values(spec.paths) as Record<string, SpecOperation>[]) {
    for (const operation of Object.values(pathItem)) {
      if (!operation?.operationId) continue;
      const names = (operation.parameters ?? []).map(resolve).filter((p) => p.in === "query");
      byOperation.set(
        operation.operationId,
        names.map((p) => p.name as string),
      );
    }
  }
  return byOperation;
}

describe("the route table", () => {
  it("maps every query parameter of the public spec to a variable or a rule of its route", () => {
    const spec = specQueryParameters();
    const ignored: string[] = [];
    for (const route of restRoutes) {
      const operation = parse(route.document).definitions.find(
        (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
      );
      const variables = new Set(operation?.variableDefinitions?.map((definition) => definition.variable.name.value));
      for (const name of spec.get(route.operation) ?? []) {
        if (!variables.has(name) && !route.queryRules?.[name]) ignored.push(`${route.operation}: ${name}`);
      }
    }
    expect(spec.size).toBeGreaterThan(100);
    expect(ignored).toEqual([]);
  });
});
