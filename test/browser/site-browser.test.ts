import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SiteBrowserServer, serveSiteBrowser } from "../../examples/site-browser/serve.ts";
import { listen, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { type HeadlessChromium, hasChromium, launchChromium, screenshotDir } from "../helpers/chromium.ts";

describe.skipIf(!hasChromium)("the site browser example (skipped without /usr/bin/chromium)", () => {
  let t: TestApp;
  let page: SiteBrowserServer;
  let gateway: { url: string; close(): Promise<void> };
  let browser: BrowserContext;
  let chromium: HeadlessChromium | undefined;

  beforeAll(async () => {
    page = await serveSiteBrowser();
    // The page is another origin than the gateway's: CORS is off unless its origin is listed. Only registered
    // documents run: the page sends the SDK's, by id.
    t = await startTestApp({ env: { CORS_ORIGINS: page.url, TRUSTED_DOCUMENTS_ONLY: "true" } });
    gateway = await listen(t.app);
    chromium = await launchChromium();
    browser = chromium.browser;
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await gateway?.close();
    await page?.close();
  });

  /** The titles of a list of the page, in order, once it shows `expected`. */
  async function expectList(tab: Page, name: string, expected: string[]) {
    await expect.poll(() => tab.getByRole("list", { name }).getByRole("listitem").allTextContents()).toEqual(expected);
  }

  async function expectTraffic(tab: Page, queries: number, mutations: number) {
    await expect.poll(() => tab.locator("#queries-sent").textContent()).toBe(String(queries));
    await expect.poll(() => tab.locator("#mutations-sent").textContent()).toBe(String(mutations));
  }

  it("browses sites with paging, ordering and a filter, and adds and removes a site space without a refetch", async () => {
    const org = await seedOrganization(t.db, "Browser Org");
    const token = org.members.admin.token;
    const orgPath = `/orgs/${org.organizationId}`;
    const space = async (title: string) =>
      (await t.rest<{ id: string }>("POST", `${orgPath}/spaces`, { token, body: { title } })).body.id;
    const [guide, api, extra] = [await space("Guide"), await space("API"), await space("Extra")];
    const siteIds: Record<string, string> = {};
    // Sites come oldest first: the clock moves between them so that the order is theirs.
    for (const title of ["Alpha docs", "Beta docs", "Gamma docs", "Delta portal", "Epsilon docs"]) {
      t.clock.advance(1000);
      const created = await t.rest<{ id: string }>("POST", `${orgPath}/sites`, { token, body: { title } });
      siteIds[title] = created.body.id;
    }
    const alpha = `${orgPath}/sites/${siteIds["Alpha docs"]}`;
    await t.rest("POST", `${alpha}/sections`, { token, body: { spaceId: guide, title: "Guides" } });
    const reference = await t.rest<{ id: string }>("POST", `${alpha}/sections`, {
      token,
      body: { spaceId: api, title: "Reference" },
    });
    expect(reference.status).toBe(201);

    const tab = await browser.newPage();
    const graphqlRequests: string[] = [];
    tab.on("request", (request) => {
      if (new URL(request.url()).pathname === "/graphql") graphqlRequests.push(request.method());
    });
    await tab.goto(`${page.url}/?gateway=${encodeURIComponent(gateway.url)}`);
    await tab.getByLabel("API token").fill(token);
    await tab.getByRole("button", { name: "Connect" }).click();
    await tab.getByRole("button", { name: "Browser Org" }).click();
    await expectList(tab, "Sites", [
      "Alpha docs (unpublished)",
      "Beta docs (unpublished)",
      "Gamma docs (unpublished)",
      "Delta portal (unpublished)",
      "Epsilon docs (unpublished)",
    ]);

    // Pages of two, forward and back.
    await tab.getByLabel("Page size").selectOption("2");
    await tab.getByRole("button", { name: "Apply" }).click();
    await expectList(tab, "Sites", ["Alpha docs (unpublished)", "Beta docs (unpublished)"]);
    await expect.poll(() => tab.getByRole("button", { name: "Previous" }).isDisabled()).toBe(true);
    await tab.getByRole("button", { name: "Next" }).click();
    await expectList(tab, "Sites", ["Gamma docs (unpublished)", "Delta portal (unpublished)"]);
    await tab.getByRole("button", { name: "Next" }).click();
    await expectList(tab, "Sites", ["Epsilon docs (unpublished)"]);
    await expect.poll(() => tab.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    await tab.getByRole("button", { name: "Previous" }).click();
    await expectList(tab, "Sites", ["Gamma docs (unpublished)", "Delta portal (unpublished)"]);

    // Newest first, only titles with "DOCS" (the filter ignores case): four sites, two pages.
    await tab.getByLabel("Order").selectOption("newest");
    await tab.getByLabel("Title contains").fill("DOCS");
    await tab.getByRole("button", { name: "Apply" }).click();
    await expectList(tab, "Sites", ["Epsilon docs (unpublished)", "Gamma docs (unpublished)"]);
    await expect.poll(() => tab.locator("#sites-summary").textContent()).toBe("4 sites");
    await tab.getByRole("button", { name: "Next" }).click();
    await expectList(tab, "Sites", ["Beta docs (unpublished)", "Alpha docs (unpublished)"]);
    await expect.poll(() => tab.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
    await tab.getByRole("button", { name: "Previous" }).click();
    await expectList(tab, "Sites", ["Epsilon docs (unpublished)", "Gamma docs (unpublished)"]);
    await tab.getByRole("button", { name: "Next" }).click();

    // A site, then a section: its site spaces and the spaces not yet on the site.
    await tab.getByRole("button", { name: "Alpha docs (unpublished)" }).click();
    await expectList(tab, "Sections", ["Guides (1)", "Reference (1)"]);
    await tab.getByRole("button", { name: "Reference" }).click();
    await expectList(tab, "Site spaces", ["API /api Remove"]);
    // Connect, organizations, 1 + 3 + 2 + 3 pages of sites, the site: what each step read.
    await expectTraffic(tab, 11, 0);
    expect(graphqlRequests.filter((method) => method === "GET")).toHaveLength(11);

    // Adding a space shows the site space the mutation returned, with no query sent.
    await tab.getByLabel("Space to add").selectOption({ label: "Extra" });
    await tab.getByRole("button", { name: "Add" }).click();
    await expectList(tab, "Site spaces", ["API /api Remove", "Extra /extra Remove"]);
    await expectList(tab, "Sections", ["Guides (1)", "Reference (2)"]);
    await expectTraffic(tab, 11, 1);
    const afterAdd = await t.rest<{ items: { id: string; section: string | null; space: { id: string } }[] }>(
      "GET",
      `${alpha}/site-spaces`,
      { token },
    );
    const added = afterAdd.body.items.find((item) => item.space.id === extra);
    expect(added?.section).toBe(reference.body.id);
    mkdirSync(screenshotDir, { recursive: true });
    await tab.screenshot({ path: join(screenshotDir, "site-browser.png"), fullPage: true });

    // Removing it drops it from the list, again with no query sent.
    await tab.getByRole("button", { name: "Remove Extra" }).click();
    await expectList(tab, "Site spaces", ["API /api Remove"]);
    await expectTraffic(tab, 11, 2);
    const afterRemove = await t.rest<{ items: { space: { id: string } }[] }>("GET", `${alpha}/site-spaces`, { token });
    expect(afterRemove.body.items.map((item) => item.space.id).sort()).toEqual([guide, api].sort());
    // What the browser sent agrees with the page's counters: queries by GET, the two mutations by POST.
    expect(graphqlRequests.filter((method) => method === "GET")).toHaveLength(11);
    expect(graphqlRequests.filter((method) => method === "POST")).toHaveLength(2);
  }, 120_000);
});
