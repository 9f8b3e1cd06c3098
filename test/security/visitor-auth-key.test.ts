import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { encryptStoredVisitorAuthKeys } from "../../src/modules/site-structure/site.service.ts";
import { newId } from "../../src/platform/ids.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Visitor keys");
});

const keyQuery = (siteId: string) =>
  `{ organization(id: "${org.organizationId}") { site(id: "${siteId}") { visitorAuthKey } } }`;

async function readKey(siteId: string): Promise<string> {
  const data = await t.graphql(org.members.admin.token).request<{
    organization: { site: { visitorAuthKey: string } };
  }>(keyQuery(siteId));
  return data.organization.site.visitorAuthKey;
}

const siteRowsText = async () =>
  JSON.stringify(await t.db.prisma.site.findMany({ where: { organizationId: org.organizationId } }));

describe("visitor-auth keys stored in clear before they were encrypted", () => {
  it("are encrypted at start-up, keep their value and keep opening the site", async () => {
    const legacyKey = "legacyVisitorKey0123456789abcdefghijklmnopq";
    const siteId = newId("Site");
    // A row as the releases before the encryption wrote it.
    await t.db.prisma.site.create({
      data: {
        id: siteId,
        organizationId: org.organizationId,
        title: "Legacy",
        visibility: "visitor-auth",
        published: true,
        visitorAuthKey: legacyKey,
      },
    });
    expect(await siteRowsText()).toContain(legacyKey);

    expect(await encryptStoredVisitorAuthKeys(t.db, t.config.secretsKey)).toBe(1);
    expect(await siteRowsText()).not.toContain(legacyKey);
    // Nothing left to do at the next start.
    expect(await encryptStoredVisitorAuthKeys(t.db, t.config.secretsKey)).toBe(0);

    expect(await readKey(siteId)).toBe(legacyKey);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(new Date("2099-01-01T00:00:00Z"))
      .sign(new TextEncoder().encode(legacyKey));
    const published = `/orgs/${org.organizationId}/sites/${siteId}/published`;
    expect((await t.rest("GET", published, { token: jwt })).status).toBe(200);
    expect((await t.rest("GET", published)).status).toBe(401);
  });
});
