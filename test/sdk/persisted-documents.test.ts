// Through the package's `exports` entry, as a user of the package imports it.
import { createGatewayClient } from "@docs-management-gateway/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { present } from "../helpers/present.ts";

let t: TestApp;
let org: SeededOrganization;
let server: { url: string; close(): Promise<void> };

beforeAll(async () => {
  t = await startTestApp({ env: { TRUSTED_DOCUMENTS_ONLY: "true" } });
  org = await seedOrganization(t.db, "SDK Trusted Org");
  server = await listen(t.app);
});

afterAll(() => server.close());

/** The global fetch, recording what the SDK sends. */
function recordingFetch(sent: { method: string; url: URL; body: string | undefined }[]): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    sent.push({ method: init?.method ?? "GET", url, body: typeof init?.body === "string" ? init.body : undefined });
    return fetch(input, init);
  };
}

describe("the SDK's persisted documents", () => {
  it("sends queries by id as GET requests, which a server of trusted documents only serves", async () => {
    const sent: { method: string; url: URL; body: string | undefined }[] = [];
    const gateway = createGatewayClient(server.url, { token: org.members.admin.token, fetch: recordingFetch(sent) });

    const { viewer } = await gateway.Viewer();
    expect(viewer.user.id).toBe(org.members.admin.id);
    const organization = present((await gateway.SiteStructure({ organizationId: org.organizationId })).organization);
    expect(organization.id).toBe(org.organizationId);

    expect(sent.map(({ method }) => method)).toEqual(["GET", "GET"]);
    for (const { url, body } of sent) {
      expect(url.searchParams.get("documentId")).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(url.searchParams.has("query")).toBe(false);
      expect(body).toBeUndefined();
    }
    expect(JSON.parse(sent[1]?.url.searchParams.get("variables") ?? "null")).toEqual({
      organizationId: org.organizationId,
    });
  });

  it("is refused by that server when told to send documents as text", async () => {
    const gateway = createGatewayClient(server.url, { token: org.members.admin.token, persisted: false });
    await expect(gateway.Viewer()).rejects.toThrow(/TRUSTED_DOCUMENTS_ONLY/);
  });
});
