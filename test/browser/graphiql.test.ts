import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parse, print } from "graphql";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultGraphiQLQuery } from "../../src/app/app.ts";
import { listen, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { type HeadlessChromium, hasChromium, launchChromium, screenshotDir } from "../helpers/chromium.ts";

describe.skipIf(!hasChromium)("GraphiQL in a headless browser (skipped without /usr/bin/chromium)", () => {
  let t: TestApp;
  let server: { url: string; close(): Promise<void> };
  let browser: BrowserContext;
  let chromium: HeadlessChromium | undefined;

  beforeAll(async () => {
    t = await startTestApp();
    server = await listen(t.app);
    chromium = await launchChromium();
    browser = chromium.browser;
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it("loads with the nested site query, runs it with a bearer token and shows the result", async () => {
    const org = await seedOrganization(t.db, "Browser Org");
    const token = org.members.admin.token;
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token,
      body: { title: "Handbook" },
    });
    await t.rest("POST", `/orgs/${org.organizationId}/sites`, {
      token,
      body: { title: "Browser Docs", spaces: [space.body.id] },
    });

    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    const visit = await page.goto(`${server.url}/graphql`);
    expect(["br", "gzip"]).toContain(visit?.headers()["content-encoding"]);
    await page.getByText("query SiteStructure").first().waitFor();

    // The headers editor is open by default; replace its placeholder with the token.
    const headersEditor = page.locator(".graphiql-editor-tool .graphiql-editor").last();
    await headersEditor.click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${token}` }));
    // The editor auto-closes quotes and braces as text arrives: drop what it added after the cursor.
    await page.keyboard.press("Shift+End");
    await page.keyboard.press("Delete");

    const graphqlResponse = page.waitForResponse(
      (response) => response.url().endsWith("/graphql") && response.request().method() === "POST",
    );
    await page.locator(".graphiql-execute-button").click();
    const response = await graphqlResponse;
    expect(response.request().headers().authorization).toBe(`Bearer ${token}`);
    // GraphiQL sends the default query (minified): the same document.
    const sent = JSON.parse(response.request().postData() ?? "{}").query;
    expect(print(parse(sent))).toBe(print(parse(defaultGraphiQLQuery)));
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    const organization = body.data.organizations.nodes.find((node: { id: string }) => node.id === org.organizationId);
    expect(organization.sites.nodes[0]).toMatchObject({
      title: "Browser Docs",
      siteSpaces: { totalCount: 1, nodes: [{ space: { title: "Handbook" } }] },
    });
    await page.getByText('"Browser Docs"').first().waitFor();
    // Monaco's workers run from the page's files on this origin, allowed by its policy.
    const workers = page.workers().map((worker) => new URL(worker.url()).pathname);
    expect(workers).toEqual(expect.arrayContaining([expect.stringMatching(/^\/graphiql\/editor\.\w+\.js$/)]));
    expect(workers).toEqual(expect.arrayContaining([expect.stringMatching(/^\/graphiql\/graphql\.\w+\.js$/)]));
    expect(errors).toEqual([]);

    mkdirSync(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, "graphiql.png"), fullPage: true });
  }, 90_000);
});
