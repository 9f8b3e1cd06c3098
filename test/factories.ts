import { expect } from "vitest";
import type { SeededOrganization, SeededUser, TestApp } from "./helpers/app.ts";
import { expectMatchesSpec } from "./helpers/contract.ts";

/*
 * One factory per object, each through the public API (so every test builds what a client would), with the
 * fields a test cares about passed as overrides. Each checks the creation answered 201 with the spec's shape.
 */

/** A space created with `POST ORG/spaces` by `user` (the organization's admin unless given). */
export async function createSpace<Body extends { id: string } = { id: string }>(
  t: TestApp,
  org: SeededOrganization,
  overrides: Record<string, unknown> = {},
  user: SeededUser = org.members.admin,
): Promise<Body> {
  const response = await t.rest<Body>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: user.token,
    body: { title: "A space", ...overrides },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expectMatchesSpec("createSpace", 201, response.body);
  return response.body;
}

/** A site created with `POST ORG/sites` by the organization's admin. */
export async function createSite<Body extends { id: string } = { id: string }>(
  t: TestApp,
  org: SeededOrganization,
  overrides: Record<string, unknown> = {},
): Promise<Body> {
  const response = await t.rest<Body>("POST", `/orgs/${org.organizationId}/sites`, {
    token: org.members.admin.token,
    body: overrides,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  expectMatchesSpec("createSite", 201, response.body);
  return response.body;
}

/** The REST path of a site (`ORG/sites/{siteId}`), the base of its structure routes. */
export function sitePath(org: SeededOrganization, siteId: string): string {
  return `/orgs/${org.organizationId}/sites/${siteId}`;
}
