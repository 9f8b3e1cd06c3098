import { expect } from "vitest";
import type { SeededOrganization, TestApp } from "./app.ts";

export type ContentEditBody = { revision: string; inserted: { type: string; id: string }[] };

/** Applies content changes at `path` (a space's or change request's `/content`); they must succeed. */
export async function editContent(t: TestApp, token: string, path: string, changes: unknown[]) {
  const response = await t.rest<ContentEditBody>("POST", path, { token, body: { changes } });
  expect(response.status).toBe(200);
  return response.body;
}

/** A new space of `org` titled `spaceTitle` (by its admin), and a change request opened in it by its editor. */
export async function openChangeRequest(t: TestApp, org: SeededOrganization, spaceTitle: string) {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title: spaceTitle },
  });
  const changeRequest = await t.rest<{ id: string }>("POST", `/spaces/${space.body.id}/change-requests`, {
    token: org.members.edit.token,
    body: { subject: "Watch me" },
  });
  return { spaceId: space.body.id, changeRequestId: changeRequest.body.id };
}
