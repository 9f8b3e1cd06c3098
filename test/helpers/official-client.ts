import { appendFileSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { GitBookAPI } from "@gitbook/api";
import { expect } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "./app.ts";
import { closeAfterThisFile } from "./opened-by-file.ts";

export interface OfficialClientSetup {
  t: TestApp;
  server: { url: string; close(): Promise<void> };
  org: SeededOrganization;
  /** The public API's official client, unchanged, signed in as the organization's admin. */
  api: GitBookAPI;
}

/** Where each file's run writes the points its admin spent: the client's whole run is the sum over the files. */
const pointsLog = join(import.meta.dirname, "..", "..", "test-results", "official-client-points.txt");

/**
 * A test app on a real port with a seeded organization, and the official client pointed at it, under the server's
 * default limits. The test clock stands still, so no bucket refills: each file's calls are one burst, and a refusal
 * (429 or 503) fails the call that met it (the client rejects every answer that is not a success). After the file,
 * the points its admin spent are logged.
 */
export async function startOfficialClient(organizationTitle: string): Promise<OfficialClientSetup> {
  const t = await startTestApp();
  const testPath = expect.getState().testPath ?? "unknown";
  let lowestRemaining = Number.POSITIVE_INFINITY;
  let limit = 0;
  const org = await seedOrganization(t.db, organizationTitle);
  const adminAuthorization = `Bearer ${org.members.admin.token}`;
  const server = await listen({
    ...t.app,
    fetch: async (request, context) => {
      const response = await t.app.fetch(request, context);
      const remaining = response.headers.get("RateLimit-Remaining");
      if (remaining !== null && request.headers.get("authorization") === adminAuthorization) {
        lowestRemaining = Math.min(lowestRemaining, Number(remaining));
        limit = Number(response.headers.get("RateLimit-Limit"));
      }
      return response;
    },
  });
  closeAfterThisFile(async () => {
    await server.close();
    if (limit > 0) {
      mkdirSync(join(pointsLog, ".."), { recursive: true });
      appendFileSync(pointsLog, `${basename(testPath)}\t${limit - lowestRemaining}\t${limit}\n`);
    }
  });
  const api = new GitBookAPI({ endpoint: server.url, authToken: org.members.admin.token });
  return { t, server, org, api };
}
