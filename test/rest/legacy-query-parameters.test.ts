import { beforeAll, describe, expect, it } from "vitest";
import { restRoutes } from "../../src/app/modules.ts";
import { createSite, createSpace } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// The reference's `order`, `sort`, `orderBy` and `type` query parameters and its `repoCacheID` body field ran
// through deprecated GraphQL arguments until 0.3.0 removed them: REST now turns them into `orderBy` and `filter`
// itself (src/rest/route.ts, `queryVariables`) and ignores `repoCacheID`, and answers as before.
let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Legacy Query Parameters");
});

const refused = (message: string) => ({ status: 400, body: { error: { code: 400, message } } });

async function ids(path: string, query: Record<string, string> = {}): Promise<string[]> {
  const response = await t.rest<{ items: { id: string }[] }>("GET", path, { token: org.members.admin.token, query });
  expect(response.status).toBe(200);
  return response.body.items.map((item) => item.id);
}

async function answer(path: string, query: Record<string, string>) {
  const response = await t.rest("GET", path, { token: org.members.admin.token, query });
  return { status: response.status, body: response.body };
}

describe("the reference's list parameters", () => {
  it("sorts members by `sort` and `order`, newest joined first by default", async () => {
    const path = `/orgs/${org.organizationId}/members`;
    const newestFirst = await ids(path);
    expect(newestFirst).toHaveLength(7);
    expect(await ids(path, { order: "asc" })).toEqual([...newestFirst].reverse());
    expect(await ids(path, { sort: "joinedAt", order: "asc" })).toEqual([...newestFirst].reverse());
    expect(await ids(path, { sort: "joinedAt" })).toEqual(newestFirst);
    // The document's own `orderBy` variable is no parameter of this route: ignored like any unknown one.
    expect(await ids(path, { orderBy: "garbage" })).toEqual(newestFirst);
    t.clock.advance(1000);
    await t.rest("POST", `/orgs/${org.organizationId}/ping`, { token: org.members.comment.token });
    t.clock.advance(1000);
    await t.rest("POST", `/orgs/${org.organizationId}/ping`, { token: org.members.edit.token });
    expect(await ids(path, { sort: "lastSeenAt" })).toEqual([org.members.edit.id, org.members.comment.id]);
    expect(await ids(path, { sort: "lastSeenAt", order: "asc" })).toEqual([
      org.members.comment.id,
      org.members.edit.id,
    ]);
    expect([
      await answer(path, { order: "ASC" }),
      await answer(path, { order: "" }),
      await answer(path, { sort: "name" }),
    ]).toEqual([
      refused("Query parameter order must be one of asc, desc"),
      refused("Query parameter order must be one of asc, desc"),
      refused("Query parameter sort must be one of joinedAt, lastSeenAt"),
    ]);
  });

  it("sorts comments by `order`, newest first by default", async () => {
    const space = await createSpace(t, org);
    const path = `/spaces/${space.id}/comments`;
    for (const text of ["first", "second", "third"]) {
      t.clock.advance(1000);
      const posted = await t.rest("POST", path, { token: org.members.admin.token, body: { body: { markdown: text } } });
      expect(posted.status).toBe(200);
    }
    const newestFirst = await ids(path);
    expect(newestFirst).toHaveLength(3);
    expect(await ids(path, { order: "asc" })).toEqual([...newestFirst].reverse());
    expect(await ids(path, { order: "desc" })).toEqual(newestFirst);
    expect(await answer(path, { order: "up" })).toEqual(refused("Query parameter order must be one of asc, desc"));
  });

  it("lists change requests newest first by the time `orderBy` names, the last updated by default", async () => {
    const space = await createSpace(t, org);
    const path = `/spaces/${space.id}/change-requests`;
    const created: string[] = [];
    for (const subject of ["older", "newer"]) {
      t.clock.advance(1000);
      const response = await t.rest<{ id: string }>("POST", path, {
        token: org.members.admin.token,
        body: { subject },
      });
      created.push(response.body.id);
    }
    // The older one changes last.
    t.clock.advance(1000);
    const updated = await t.rest("PATCH", `${path}/${created[0]}`, {
      token: org.members.admin.token,
      body: { subject: "older, renamed" },
    });
    expect(updated.status).toBe(200);
    const [older, newer] = created;
    expect(await ids(path)).toEqual([older, newer]);
    expect(await ids(path, { orderBy: "updatedAt" })).toEqual([older, newer]);
    expect(await ids(path, { orderBy: "createdAt" })).toEqual([newer, older]);
    const organizationPath = `/orgs/${org.organizationId}/change-requests`;
    expect(await ids(organizationPath, { orderBy: "createdAt" })).toEqual([newer, older]);
    expect([await answer(path, { orderBy: "number" }), await answer(organizationPath, { orderBy: "x" })]).toEqual([
      refused("Query parameter orderBy must be one of updatedAt, createdAt"),
      refused("Query parameter orderBy must be one of updatedAt, createdAt"),
    ]);
  });

  it("filters sites by `type`", async () => {
    const basic = await createSite(t, org, { title: "Basic site" });
    t.clock.advance(1000);
    const premium = await createSite(t, org, { title: "Premium site", type: "premium" });
    const path = `/orgs/${org.organizationId}/sites`;
    expect(await ids(path, { type: "premium" })).toEqual([premium.id]);
    expect(await ids(path, { type: "basic" })).toEqual([basic.id]);
    expect(await ids(path, { type: "ultimate" })).toEqual([]);
    expect(await ids(path)).toEqual([basic.id, premium.id]);
    expect(await answer(path, { type: "gold" })).toEqual(
      refused("Query parameter type must be one of basic, premium, ultimate, sponsored, legacy-basic, legacy-premium"),
    );
  });
});

describe("the reference's repoCacheID", () => {
  it("is accepted and ignored by Git import and export, and a non-string is refused", async () => {
    const space = await createSpace(t, org);
    const token = org.members.admin.token;
    const body = { url: "https://example.com/repo.git", ref: "refs/heads/main", repoCacheID: "cache-1" };
    const imported = await t.rest("POST", `/spaces/${space.id}/git/import`, { token, body });
    expect(imported.status).toBe(204);
    const info = await t.rest<{ url: string; ref: string; operation: { direction: string } }>(
      "GET",
      `/spaces/${space.id}/git/info`,
      { token },
    );
    expect(info.body).toMatchObject({ ref: "refs/heads/main", operation: { direction: "import" } });
    const exported = await t.rest("POST", `/spaces/${space.id}/git/export`, {
      token,
      body: { ...body, repoCacheID: null, commitMessage: "Export" },
    });
    expect(exported.status).toBe(204);
    const bad = await t.rest("POST", `/spaces/${space.id}/git/import`, { token, body: { ...body, repoCacheID: 5 } });
    expect({ status: bad.status, body: bad.body }).toEqual(
      refused("Invalid request body field repoCacheID: must be a string"),
    );
  });

  it("is documented as a deprecated body field, and the list parameters as enums", async () => {
    const document = (await t.rest<OpenApi>("GET", "/openapi.json")).body;
    const importBody = document.paths["/spaces/{spaceId}/git/import"]?.post?.requestBody?.content["application/json"]
      ?.schema as { properties: Record<string, unknown> };
    expect(importBody.properties.repoCacheID).toMatchObject({ type: "string", deprecated: true });
    expect(importBody.properties.url).toBeDefined();
    const members = document.paths["/orgs/{organizationId}/members"]?.get?.parameters ?? [];
    expect(members.filter((parameter) => ["order", "sort", "orderBy"].includes(parameter.name))).toEqual([
      { name: "sort", in: "query", required: false, schema: { type: "string", enum: ["joinedAt", "lastSeenAt"] } },
      { name: "order", in: "query", required: false, schema: { type: "string", enum: ["asc", "desc"] } },
    ]);
    const translated = restRoutes.filter((route) => route.queryVariables);
    expect(translated.map((route) => route.operation).sort()).toEqual([
      "listChangeRequestsForOrganization",
      "listChangeRequestsForSpace",
      "listCommentsInChangeRequest",
      "listCommentsInSpace",
      "listMembersInOrganizationById",
      "listSites",
      "listSpacesForOrganizationMember",
    ]);
  });
});

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; required: boolean; schema: unknown }[];
        requestBody?: { content: Record<string, { schema: unknown }> };
      }
    >
  >;
}
