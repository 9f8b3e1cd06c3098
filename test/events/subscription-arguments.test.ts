import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { subscribe } from "../helpers/sse.ts";

let t: TestApp;
let org: SeededOrganization;
let spaceId: string;
let changeRequestId: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Subscription arguments");
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title: "Watched" },
  });
  spaceId = space.body.id;
  const changeRequest = await t.rest<{ id: string }>("POST", `/spaces/${spaceId}/change-requests`, {
    token: org.members.edit.token,
    body: { subject: "Watch me" },
  });
  changeRequestId = changeRequest.body.id;
});

/** The first event of a subscription: the change request's state when it opens. */
async function firstEvent(query: string, variables: Record<string, unknown> = {}) {
  const stream = await subscribe(t.app.fetch, `${baseUrl}/graphql`, org.members.read.token, query, variables);
  const event = await stream.next();
  await stream.close();
  return event;
}

describe("subscription arguments are read whatever form they take", () => {
  it("accepts literal arguments", async () => {
    const event = await firstEvent(`subscription {
      changeRequestUpdated(spaceId: "${spaceId}", changeRequestId: "${changeRequestId}") { id: changeRequestId subject }
    }`);
    expect(event).toEqual({ data: { changeRequestUpdated: { id: changeRequestId, subject: "Watch me" } } });
  });

  it("accepts variables of any name", async () => {
    const event = await firstEvent(
      `subscription Watch($space: ID!, $id: ID!) {
        changeRequestUpdated(spaceId: $space, changeRequestId: $id) { id: changeRequestId subject }
      }`,
      { space: spaceId, id: changeRequestId },
    );
    expect(event).toEqual({ data: { changeRequestUpdated: { id: changeRequestId, subject: "Watch me" } } });
  });

  it("accepts a literal next to a variable, and still refuses a space the caller may not read", async () => {
    const outsider = await seedOrganization(t.db, "Outsider");
    const stream = await subscribe(
      t.app.fetch,
      `${baseUrl}/graphql`,
      outsider.members.admin.token,
      `subscription($cr: ID!) { changeRequestUpdated(spaceId: "${spaceId}", changeRequestId: $cr) { id: changeRequestId } }`,
      { cr: changeRequestId },
    );
    const event = await stream.next();
    await stream.close();
    expect(event?.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
  });
});
