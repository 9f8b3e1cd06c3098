import { GitBookAPI } from "@gitbook/api";
import { afterAll } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "./app.ts";

export interface OfficialClientSetup {
  t: TestApp;
  server: { url: string; close(): Promise<void> };
  org: SeededOrganization;
  /** The public API's official client, unchanged, signed in as the organization's admin. */
  api: GitBookAPI;
}

/** A test app on a real port with a seeded organization, and the official client pointed at it. */
export async function startOfficialClient(organizationTitle: string): Promise<OfficialClientSetup> {
  const t = await startTestApp();
  const server = await listen(t.app);
  afterAll(() => server.close());
  const org = await seedOrganization(t.db, organizationTitle);
  const api = new GitBookAPI({ endpoint: server.url, authToken: org.members.admin.token });
  return { t, server, org, api };
}
