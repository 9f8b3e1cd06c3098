import { beforeAll, describe, expect, it } from "vitest";
import { createSite, createSpace } from "../factories.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

// These inputs were Strings checked by the services only; as GraphQL enums (and a DateTime), REST still answers the
// services' wording for a bad value (each message below is the one REST answered while they were Strings).
let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Enum Input Wording");
});

const languages =
  '"en"|"fr"|"de"|"es"|"it"|"pt"|"pt-br"|"ru"|"ja"|"zh"|"yue"|"ko"|"ar"|"hi"|"nl"|"pl"|"tr"|"sv"|"no"|"da"|"fi"|' +
  '"el"|"cs"|"hu"|"ro"|"th"|"vi"|"id"|"ms"|"he"|"uk"|"sk"|"bg"|"hr"|"lt"|"lv"|"et"|"sl"';
const siteVisibilities = '"public"|"unlisted"|"share-link"|"visitor-auth"';

describe("a bad value of an input that was a String", () => {
  it("answers the service's 400, with the other fields' problems as the service words them", async () => {
    const token = org.members.admin.token;
    const space = await createSpace(t, org);
    const site = await createSite(t, org, { title: "Site" });
    const changeRequest = await t.rest<{ id: string }>("POST", `/spaces/${space.id}/change-requests`, {
      token,
      body: { subject: "A change" },
    });
    const orgPath = `/orgs/${org.organizationId}`;
    const cases: { method: "GET" | "POST" | "PATCH"; path: string; body?: unknown; query?: Record<string, string> }[] =
      [
        { method: "POST", path: `${orgPath}/sites`, body: { title: "x", visibility: "bogus" } },
        { method: "PATCH", path: `${orgPath}/sites/${site.id}`, body: { agentsContext: "maybe" } },
        { method: "PATCH", path: `/spaces/${space.id}`, body: { language: "klingon" } },
        {
          method: "POST",
          path: `${orgPath}/translations`,
          body: { language: "fr", source: { language: "klingon", space: space.id } },
        },
        {
          method: "PATCH",
          path: `/spaces/${space.id}/change-requests/${changeRequest.body.id}`,
          body: { status: "x" },
        },
        { method: "POST", path: "/orgs", body: { title: "X", useCase: "bogus" } },
        {
          method: "POST",
          path: `/spaces/${space.id}/content`,
          body: { changes: [{ type: "insert", page: { type: "bogus", title: "A page" } }] },
        },
        {
          method: "POST",
          path: `/spaces/${space.id}/git/import`,
          body: { url: "https://example.com/r.git", ref: "main", gitInfo: { provider: "bogus" } },
        },
        { method: "GET", path: `/spaces/${space.id}/links`, query: { status: "bogus" } },
        {
          method: "POST",
          path: `/spaces/${space.id}/git/export`,
          body: { url: "https://example.com/r.git", ref: "main", commitMessage: "x", timestamp: "2026-01-01T00:00:00" },
        },
      ];
    const answers = [];
    for (const { method, path, body, query } of cases) {
      const response = await t.rest(method, path, {
        token,
        ...(body !== undefined && { body }),
        ...(query && { query }),
      });
      answers.push({ status: response.status, body: response.body });
    }
    const invalid = (message: string) => ({ status: 400, body: { error: { code: 400, message } } });
    expect(answers).toEqual([
      invalid(
        "Invalid input: title: Too small: expected string to have >=2 characters; " +
          `visibility: Invalid option: expected one of ${siteVisibilities}`,
      ),
      invalid('Invalid input: agentsContext: Invalid option: expected one of "excluded"|"included"'),
      invalid(`Invalid input: language: Invalid option: expected one of ${languages}`),
      invalid(`Invalid input: source.language: Invalid option: expected one of ${languages}`),
      invalid('Invalid input: status: Invalid option: expected one of "draft"|"open"|"archived"'),
      invalid(
        "Invalid input: title: Too small: expected string to have >=2 characters; useCase: Invalid option: expected " +
          'one of "internalDocs"|"docsSite"|"audienceControlledSite"|"productDocs"|"teamKnowledgeBase"|"designSystem"|' +
          '"openSourceDocs"|"notes"|"other"',
      ),
      invalid("Invalid input: changes.0: Invalid input"),
      invalid(
        "Invalid input: ref: must have the form refs/heads/<branch>; " +
          'gitInfo.provider: Invalid option: expected one of "github"|"gitlab"',
      ),
      invalid("Invalid input: status must be ok, broken or in-app"),
      // A date-time without offset is a DateTime in GraphQL, and still refused here, as the service refuses it.
      invalid("Invalid input: ref: must have the form refs/heads/<branch>; timestamp: Invalid ISO datetime"),
    ]);
  });

  it("takes the public values and answers them back", async () => {
    const token = org.members.admin.token;
    const site = await createSite<{ id: string; visibility: string; type: string }>(t, org, {
      title: "Shared",
      visibility: "share-link",
      type: "legacy-basic",
    });
    expect(site).toMatchObject({ visibility: "share-link", type: "legacy-basic" });
    const updated = await t.rest<{ visibility: string; agentsContext: string }>(
      "PATCH",
      `/orgs/${org.organizationId}/sites/${site.id}`,
      { token, body: { visibility: "visitor-auth", agentsContext: "excluded" } },
    );
    expect(updated).toMatchObject({ status: 200, body: { visibility: "visitor-auth", agentsContext: "excluded" } });
  });
});
