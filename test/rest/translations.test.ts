import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { GitBookAPI } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../../src/platform/config.ts";
import type { SeededOrganization, TestApp } from "../helpers/app.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";
import { startOfficialClient } from "../helpers/official-client.ts";

let t: TestApp;
let org: SeededOrganization;
let api: GitBookAPI;

type Stats = { runs: number; totalWords: number; totalPages: number; latestPages: number; latestWords: number };
type TranslationBody = {
  id: string;
  status: string;
  provider: string;
  failureReason?: string;
  result?: { space: string; revision: string };
  stats: Stats;
};
type PageBody = { id: string; title: string; markdown?: string; pages: PageBody[] };

const guide = [
  "# Install the tool",
  "",
  "Run the installer and read the [release notes](https://example.com/notes) first.",
  "",
  "```sh",
  "npm install tool",
  "```",
  "",
  "![A diagram of the flow](https://example.com/flow.png)",
  "",
  '{% hint style="warning" %}',
  "Keep `config.json` safe.",
  "{% endhint %}",
  "",
].join("\n");

async function seedSource(title: string) {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title },
  });
  await t.rest("POST", `/spaces/${space.body.id}/content`, {
    token: org.members.admin.token,
    body: {
      changes: [
        { type: "insert", page: { title: "Guide", markdown: guide } },
        { type: "insert", page: { title: "Hello world", markdown: "Hello world.\n" } },
        { type: "insert", page: { title: "Section", type: "group" } },
      ],
    },
  });
  return space.body.id;
}

async function translationOf(id: string) {
  const response = await t.rest<TranslationBody>("GET", `/orgs/${org.organizationId}/translations/${id}`, {
    token: org.members.read.token,
  });
  expect(response.status).toBe(200);
  return response.body;
}

/** A loopback server speaking a translation protocol: `answer` maps a request body to the response body. */
async function fakeService(answer: (body: Record<string, unknown>, request: IncomingMessage) => unknown) {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    const result = answer(body, request);
    if (result === undefined) return response.writeHead(503).end();
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  ({ t, org, api } = await startOfficialClient("Translations Org"));
});

describe("translations", () => {
  it("creates, lists, updates and deletes through the official client, with roles", async () => {
    const spaceId = await seedSource("Client source");
    const created = await api.orgs.createTranslation(org.organizationId, {
      source: { space: spaceId, language: "en" },
      language: "fr",
    } as never);
    expect(created.status).toBe(201);
    expectMatchesSpec("createTranslation", 201, created.data);
    expect(created.data).toMatchObject({
      status: "pending",
      language: "fr",
      source: { space: spaceId, language: "en" },
    });
    const list = await api.orgs.listTranslations(org.organizationId);
    expectMatchesSpec("listTranslations", 200, list.data);
    expect(list.data.items.map((item) => item.id)).toContain(created.data.id);
    const instructions = { object: "document", data: {}, nodes: [] };
    const updated = await api.orgs.updateTranslation(org.organizationId, created.data.id, { instructions } as never);
    expectMatchesSpec("updateTranslation", 200, updated.data);
    const one = await api.orgs.getTranslation(org.organizationId, created.data.id);
    expectMatchesSpec("getTranslation", 200, one.data);

    const base = `/orgs/${org.organizationId}/translations`;
    const asEditor = { token: org.members.edit.token };
    expect(
      (
        await t.rest("POST", base, {
          ...asEditor,
          body: { source: { space: spaceId, language: "en" }, language: "de" },
        })
      ).status,
    ).toBe(403);
    expect((await t.rest("POST", `${base}/${created.data.id}/run`, asEditor)).status).toBe(403);
    expect((await t.rest("GET", `${base}/${created.data.id}`, { token: org.members.read.token })).status).toBe(200);
    const bad = [
      { source: { space: spaceId, language: "en" }, language: "en" },
      { source: { space: spaceId, language: "en" }, language: "klingon" },
      { source: { space: "space_nope", language: "en" }, language: "fr" },
      { source: { space: spaceId }, language: "fr" },
    ];
    for (const body of bad) {
      expect((await t.rest("POST", base, { token: org.members.admin.token, body })).status).toBe(400);
    }
    expect(
      (await t.rest("PUT", `${base}/${created.data.id}`, { token: org.members.admin.token, body: {} })).status,
    ).toBe(400);
    expect((await t.rest("POST", `${base}/trn_missing/run`, { token: org.members.admin.token })).status).toBe(404);

    await api.orgs.deleteTranslation(org.organizationId, created.data.id);
    expect((await t.rest("GET", `${base}/${created.data.id}`, { token: org.members.admin.token })).status).toBe(404);
    expect((await t.rest("DELETE", `${base}/${created.data.id}`, { token: org.members.admin.token })).status).toBe(204);
  });

  it("runs as a job with the built-in pseudo-localization: every page translated, structure kept, stats right", async () => {
    const spaceId = await seedSource("Pseudo source");
    const created = await api.orgs.createTranslation(org.organizationId, {
      source: { space: spaceId, language: "en" },
      language: "fr",
    } as never);
    const id = created.data.id;
    const run = await api.orgs.runTranslation(org.organizationId, id);
    expect(run.status).toBe(204);
    expect((await translationOf(id)).status).toBe("pending");
    expect(await t.runJobs()).toBeGreaterThan(0);

    const done = await translationOf(id);
    expectMatchesSpec("getTranslation", 200, done);
    expect(done).toMatchObject({ status: "completed", provider: "pseudo-localization" });
    expect(done.stats).toMatchObject({ runs: 1, latestPages: 3, totalPages: 3 });
    expect(done.stats.latestWords).toBeGreaterThan(15);
    const resultSpace = await t.rest<{ language: string; title: string; revision: string }>(
      "GET",
      `/spaces/${done.result?.space}`,
      { token: org.members.admin.token },
    );
    expect(resultSpace.body).toMatchObject({ language: "fr", revision: done.result?.revision });
    const pages = await t.rest<{ pages: PageBody[] }>("GET", `/spaces/${done.result?.space}/content/pages`, {
      token: org.members.admin.token,
    });
    expect(pages.body.pages.map((page) => page.title)).toEqual(["Ĝûîđé", "Ĥéĺĺö ŵöŕĺđ", "Šéçţîöñ"]);
    const markdown = pages.body.pages[0]?.markdown ?? "";
    expect(markdown).toContain("# Îñšţàĺĺ ţĥé ţööĺ");
    expect(markdown).toContain("[ŕéĺéàšé ñöţéš](https://example.com/notes)");
    expect(markdown).toContain("```sh\nnpm install tool\n```");
    expect(markdown).toContain("![A diagram of the flow](https://example.com/flow.png)");
    expect(markdown).toContain('{% hint style="warning" %}\nĶééþ `config.json` šàƒé.\n{% endhint %}');

    // A second run writes a new revision on top of the first and adds to the totals.
    await t.rest("POST", `/spaces/${spaceId}/content`, {
      token: org.members.admin.token,
      body: { changes: [{ type: "insert", page: { title: "New page", markdown: "More words here.\n" } }] },
    });
    await api.orgs.runTranslation(org.organizationId, id);
    await t.runJobs();
    const second = await translationOf(id);
    expect(second.stats).toMatchObject({ runs: 2, latestPages: 4, totalPages: 4 });
    expect(second.stats.totalWords).toBe(done.stats.latestWords + second.stats.latestWords);
    expect(second.result?.space).toBe(done.result?.space);
    const revision = await t.rest<{ parents: string[] }>("GET", `/spaces/${second.result?.space}/content`, {
      token: org.members.admin.token,
    });
    expect(revision.body.parents).toEqual([done.result?.revision]);
  });

  it("uses a LibreTranslate-compatible service or an OpenAI-compatible chat endpoint, and records failures", async () => {
    const spaceId = await seedSource("Provider source");
    const libre = await fakeService((body) => ({
      translatedText: (body.q as string[]).map((text) => `${body.target}:${text}`),
    }));
    const libreConfig: Config = { ...t.config, translationProvider: "libretranslate", translationApiUrl: libre };
    const created = await t.rest<TranslationBody>("POST", `/orgs/${org.organizationId}/translations`, {
      token: org.members.admin.token,
      body: { source: { space: spaceId, language: "en" }, language: "de" },
    });
    const id = created.body.id;
    await t.rest("POST", `/orgs/${org.organizationId}/translations/${id}/run`, { token: org.members.admin.token });
    await t.runJobs(libreConfig);
    const libreDone = await translationOf(id);
    expect(libreDone.status).toBe("completed");
    const pages = await t.rest<{ pages: PageBody[] }>("GET", `/spaces/${libreDone.result?.space}/content/pages`, {
      token: org.members.admin.token,
    });
    expect(pages.body.pages[1]).toMatchObject({ title: "de:Hello world", markdown: "de:Hello world.\n" });

    let authorization: string | undefined;
    const chat = await fakeService((body, request) => {
      authorization = request.headers.authorization;
      const texts = JSON.parse((body.messages as { content: string }[])[1]?.content ?? "[]") as string[];
      return { choices: [{ message: { content: JSON.stringify(texts.map((text) => text.toUpperCase())) } }] };
    });
    const chatConfig: Config = {
      ...t.config,
      translationProvider: "openai",
      translationApiUrl: chat,
      translationApiKey: "sk-test-key",
    };
    await t.rest("POST", `/orgs/${org.organizationId}/translations/${id}/run`, { token: org.members.admin.token });
    await t.runJobs(chatConfig);
    expect(authorization).toBe("Bearer sk-test-key");
    const chatDone = await translationOf(id);
    const chatPages = await t.rest<{ pages: PageBody[] }>("GET", `/spaces/${chatDone.result?.space}/content/pages`, {
      token: org.members.admin.token,
    });
    expect(chatPages.body.pages[1]).toMatchObject({ title: "HELLO WORLD", markdown: "HELLO WORLD.\n" });

    const down = await fakeService(() => undefined);
    await t.rest("POST", `/orgs/${org.organizationId}/translations/${id}/run`, { token: org.members.admin.token });
    await t.runJobs({
      ...t.config,
      translationProvider: "libretranslate",
      translationApiUrl: down,
    });
    const failed = await translationOf(id);
    expect(failed.status).toBe("failed");
    expect(failed.failureReason).toContain("503");
    // The result space keeps the last good translation.
    expect(failed.result?.revision).toBe(chatDone.result?.revision);
    expect(failed.stats.runs).toBe(2);
  });
});
