import { expect } from "vitest";
import type { SeededOrganization, TestApp } from "./app.ts";

export type ContentEditBody = { revision: string; inserted: { type: string; id: string }[] };

/** A new space of the organization, created by its admin. */
export async function createSpace(t: TestApp, org: SeededOrganization, title: string): Promise<string> {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title },
  });
  return space.body.id;
}

/** Applies content changes at `path` (a space's or change request's `/content`); they must succeed. */
export async function editContent(t: TestApp, token: string, path: string, changes: unknown[]) {
  const response = await t.rest<ContentEditBody>("POST", path, { token, body: { changes } });
  expect(response.status).toBe(200);
  return response.body;
}
