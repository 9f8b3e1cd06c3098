import { beforeAll, describe, expect, it } from "vitest";
import { createSite, createSpace, sitePath } from "../factories.ts";
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

  it("answers a bad shape discriminator (a pointer's or a change's type) as the service words it", async () => {
    const token = org.members.admin.token;
    const space = await createSpace(t, org);
    const sibling = await createSpace(t, org);
    const site = sitePath(org, (await createSite(t, org, { title: "Structured" })).id);
    const section = await t.rest<{ id: string; siteSpaces: { id: string }[] }>("POST", `${site}/sections`, {
      token,
      body: { spaceId: space.id },
    });
    const other = await t.rest<{ id: string }>("POST", `${site}/sections`, { token, body: { spaceId: sibling.id } });
    const group = await t.rest<{ id: string }>("POST", `${site}/section-groups`, {
      token,
      body: { title: "Group", sections: [other.body.id] },
    });
    const siteSpaceId = section.body.siteSpaces[0]?.id;
    const cases: { method?: "PATCH"; path: string; body: unknown }[] = [
      { path: `/spaces/${space.id}/move`, body: { position: { before: { type: "bogus", space: sibling.id } } } },
      {
        path: `${site}/sections/${section.body.id}/move`,
        body: { position: { after: { type: "bogus", siteSection: other.body.id } } },
      },
      {
        path: `${site}/section-groups/${group.body.id}/move`,
        body: { position: { before: { type: "bogus", id: other.body.id } } },
      },
      {
        path: `${site}/site-spaces/${siteSpaceId}/move`,
        body: { position: { before: { type: "bogus", siteSpace: siteSpaceId } } },
      },
      {
        method: "PATCH",
        path: `${site}/structure/sort`,
        body: { item: { type: "bogus", id: other.body.id }, position: { after: { type: "site-section", id: "x" } } },
      },
      {
        method: "PATCH",
        path: `${site}/structure/sort`,
        body: { item: { type: "site-section", id: other.body.id }, position: { after: { type: "bogus", id: "x" } } },
      },
      { path: `/spaces/${space.id}/content`, body: { changes: [{ type: "bogus" }] } },
    ];
    const answers = [];
    for (const { method, path, body } of cases) {
      const response = await t.rest(method ?? "POST", path, { token, body });
      answers.push({ status: response.status, body: response.body });
    }
    const invalid = (message: string) => ({ status: 400, body: { error: { code: 400, message } } });
    const items = '"site-space"|"site-section"|"site-section-group"';
    expect(answers).toEqual([
      invalid('Invalid input: position.before.type: Invalid input: expected "space"'),
      invalid('Invalid input: position.after.type: Invalid input: expected "site-section"'),
      invalid(
        'Invalid input: position.before.type: Invalid option: expected one of "site-section"|"site-section-group"',
      ),
      invalid('Invalid input: position.before.type: Invalid input: expected "site-space"'),
      invalid(`Invalid input: item.type: Invalid option: expected one of ${items}`),
      invalid(`Invalid input: position.after.type: Invalid option: expected one of ${items}`),
      invalid("Invalid input: changes.0: Invalid input"),
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
