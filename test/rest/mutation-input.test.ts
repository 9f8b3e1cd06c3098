import { beforeAll, describe, expect, it } from "vitest";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// A route's document passes its mutation one `input`: the path's ids join the body's fields there
// (src/rest/compiled-routes.ts), and the body cannot name an id, from the path or not.

let t: TestApp;
let org: SeededOrganization;
let spaceId: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db);
  const created = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title: "Ids from the path" },
  });
  spaceId = created.body.id;
});

describe("path ids inside a mutation's input", () => {
  it("acts on the space the path names, with the body's changes", async () => {
    const updated = await t.rest<{ id: string; title: string }>("PATCH", `/spaces/${spaceId}`, {
      token: org.members.admin.token,
      body: { title: "Renamed by path" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: spaceId, title: "Renamed by path" });
  });

  it("refuses a body naming the id the path gives, as a field the body does not have", async () => {
    const refused = await t.rest<{ error: { code: number; message: string } }>("PATCH", `/spaces/${spaceId}`, {
      token: org.members.admin.token,
      body: { spaceId: "space_other", title: "Elsewhere" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      'Invalid request body field spaceId: Field "spaceId" is not defined by type "UpdateSpaceInput".',
    );
  });

  it("refuses a body naming an id the path does not give (a comment's change request)", async () => {
    const refused = await t.rest<{ error: { message: string } }>("POST", `/spaces/${spaceId}/comments`, {
      token: org.members.admin.token,
      body: { changeRequestId: "cr_other", body: { markdown: "Where?" } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(
      'Invalid request body field changeRequestId: Field "changeRequestId" is not defined by type "PostCommentInput".',
    );
  });

  it("documents the path's ids as path parameters, not body fields", async () => {
    const response = await t.app.fetch(new Request("http://gateway.test/v1/openapi.json"));
    const document = (await response.json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const update = document.paths["/spaces/{spaceId}"]?.patch;
    expect(update?.parameters).toContainEqual(expect.objectContaining({ name: "spaceId", in: "path" }));
    const body = document.components.schemas.UpdateSpaceInput;
    expect(Object.keys(body?.properties ?? {})).toContain("title");
    expect(Object.keys(body?.properties ?? {})).not.toContain("spaceId");
    expect(Object.keys(document.components.schemas.PostCommentInput?.properties ?? {})).not.toContain(
      "changeRequestId",
    );
  });
});
