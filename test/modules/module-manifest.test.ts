import { beforeAll, describe, expect, it } from "vitest";
import type { SeededOrganization, TestApp } from "../helpers/app.ts";

/*
 * Adding a resource is one folder and one line in the module list (CONTRIBUTING.md, "Add a resource"): this file adds
 * the fixture module test/modules/notice/ to the list and reads it through GraphQL, REST, its plain route and the
 * OpenAPI document. Its manifest is loaded before the app, as the module list loads the others, so the schema built
 * when the app loads has its types (in this file's own module graph: an integration test).
 */
let t: TestApp;
let org: SeededOrganization;
let baseUrl: string;
let strangerToken: string;

beforeAll(async () => {
  const { noticeModule } = await import("./notice/notice.module.ts");
  const { modules } = await import("../../src/app/modules.ts");
  const helpers = await import("../helpers/app.ts");
  t = await helpers.startTestApp({ modules: [...modules, noticeModule] });
  org = await helpers.seedOrganization(t.db);
  strangerToken = (await helpers.seedUser(t.db, "Stranger")).token;
  baseUrl = helpers.baseUrl;
});

const asReader = () => ({ authorization: `Bearer ${org.members.read.token}` });

describe("a module added through its manifest", () => {
  it("answers its GraphQL query, with its access rule", async () => {
    const query = "query ($id: ID!) { organizationNotice(organizationId: $id) { id text } }";
    const answer = await t.graphql(org.members.read.token).request(query, { id: org.organizationId });
    expect(answer).toEqual({
      organizationNotice: { id: `notice_${org.organizationId}`, text: `Welcome to ${org.organizationId}` },
    });
    const stranger = await t.rest("GET", `/orgs/${org.organizationId}/notice`, { token: strangerToken });
    expect(stranger.status).toBe(404);
  });

  it("serves its REST route with its REST object name, and lists it in the OpenAPI document", async () => {
    const response = await t.rest("GET", `/orgs/${org.organizationId}/notice`, { token: org.members.read.token });
    expect(response).toMatchObject({
      status: 200,
      body: { object: "notice", id: `notice_${org.organizationId}`, text: `Welcome to ${org.organizationId}` },
    });
    const openApi = await t.rest<{ paths: Record<string, { get?: { operationId: string } }> }>("GET", "/openapi.json");
    expect(openApi.body.paths["/orgs/{organizationId}/notice"]?.get?.operationId).toBe("getOrganizationNotice");
  });

  it("serves its plain route", async () => {
    const request = new Request(`${baseUrl}/notices/${org.organizationId}.txt`, { headers: asReader() });
    const response = await t.app.fetch(request);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(`Welcome to ${org.organizationId}`);
  });
});
