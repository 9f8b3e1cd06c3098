import { GitBookAPI } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  baseUrl,
  listen,
  type SeededOrganization,
  seedOrganization,
  startTestApp,
  type TestApp,
} from "../helpers/app.ts";
import { expectMatchesSpec, expectMatchesSpecSchema } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let otherOrg: SeededOrganization;
let editor: string;
let admin: string;

interface PageBody {
  id: string;
  title: string;
  type: string;
  markdown?: string;
  document?: { nodes: unknown[] };
  computed?: { type: string; dependencies: { spec: { ref: { kind: string; spec: string } } }; props: unknown };
  computedSeed?: string;
  pages: PageBody[];
}
interface RevisionBody {
  id: string;
  pages: PageBody[];
  files: { id: string; name: string }[];
}
interface ErrorBody {
  error: { code: number; message: string };
}

const petstore = {
  openapi: "3.0.3",
  info: { title: "Petstore", version: "1.0.0" },
  tags: [{ name: "pets", description: "Everything about pets" }, { name: "store" }],
  paths: {
    "/pets": {
      get: {
        tags: ["pets"],
        operationId: "listPets",
        summary: "List all pets",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", format: "int32" } }],
        responses: { "200": { description: "A page of pets" } },
      },
      post: {
        tags: ["pets"],
        summary: "Create a pet",
        requestBody: {
          content: { "application/json": { schema: { type: "object", properties: { name: { type: "string" } } } } },
        },
        responses: { "201": { description: "Created" } },
      },
    },
    "/store/orders/{orderId}": {
      parameters: [{ name: "orderId", in: "path", required: true, schema: { type: "string" } }],
      get: { tags: ["store"], summary: "Find an order", responses: { "404": { description: "No such order" } } },
    },
  },
};

const webhooks = {
  openapi: "3.0.3",
  info: { title: "Hooks", version: "1.0.0" },
  paths: { "/hooks": { delete: { summary: "Remove every hook", responses: { "204": { description: "Gone" } } } } },
};

const swagger = {
  swagger: "2.0",
  info: { title: "Legacy", version: "1" },
  paths: {
    "/users": {
      post: {
        tags: ["users"],
        parameters: [
          { name: "body", in: "body", schema: { type: "array", items: { type: "object" } } },
          { name: "X-Trace", in: "header", type: "string", description: "a | trace" },
        ],
        responses: { "200": { description: "Created\nthem" } },
      },
    },
  },
};

async function createSpec(organization: SeededOrganization, slug: string, document: unknown) {
  const created = await t.rest<{ id: string }>("POST", `/orgs/${organization.organizationId}/openapi`, {
    token: organization.members.admin.token,
    body: { slug, source: { text: JSON.stringify(document) } },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

async function newSpace(title: string) {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: admin,
    body: { title },
  });
  return space.body.id;
}

const openapiTemplate = (spec: string) => ({
  id: "openapi-reference",
  params: { contentRefs: { spec: { kind: "openapi", spec } } },
});

function applyTemplate(spaceId: string, body: unknown, token = editor) {
  return t.rest<ErrorBody | "">("POST", `/spaces/${spaceId}/content/template`, { token, body });
}

async function readContent(path: string, query: Record<string, string | boolean> = {}) {
  const response = await t.rest<RevisionBody>("GET", path, { token: editor, query });
  expect(response.status).toBe(200);
  return response.body;
}

/**
 * The public spec's document page is `oneOf` [{computed, computedSeed}, {documentId?}], and the second alternative
 * requires nothing, so a computed page matches both and no computed page can pass `oneOf`. Bodies are checked
 * with `computed` checked on its own (against the OpenAPI computed source) and left out of the page.
 */
function expectContentMatchesSpec(operationId: string, status: number, body: RevisionBody | PageBody) {
  const strip = (page: PageBody): PageBody => {
    if (page.computed) expectMatchesSpecSchema("ComputedContentSourceDocumentOpenAPI", page.computed);
    const { computed: _computed, computedSeed: _seed, ...rest } = page;
    return { ...rest, pages: page.pages.map(strip) };
  };
  const page = "title" in body;
  expectMatchesSpec(operationId, status, page ? strip(body) : { ...body, pages: body.pages.map(strip) });
}

/** What a refused write must leave untouched: the space's head and its revisions. */
async function contentSnapshot(spaceId: string) {
  const space = await t.db.prisma.space.findUniqueOrThrow({ where: { id: spaceId } });
  const revisions = await t.db.prisma.revision.count({ where: { spaceId } });
  const changeRequests = await t.db.prisma.changeRequest.count({ where: { spaceId } });
  return { revisionId: space.revisionId, revisions, changeRequests, counter: space.changeRequests };
}

let petstoreId: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Templates Org");
  otherOrg = await seedOrganization(t.db, "Other Templates Org");
  editor = org.members.edit.token;
  admin = org.members.admin.token;
  petstoreId = await createSpec(org, "petstore", petstore);
  await createSpec(org, "hooks", webhooks);
  await createSpec(org, "legacy", swagger);
  await createSpec(otherOrg, "foreign", petstore);
  await t.runJobs();
});

describe("the OpenAPI reference template", () => {
  it("adds a computed page whose body is rendered from the spec's latest version, and computed=false leaves it out", async () => {
    const spaceId = await newSpace("API docs");
    const before = await contentSnapshot(spaceId);
    const applied = await applyTemplate(spaceId, openapiTemplate("petstore"));
    expect(applied.status).toBe(204);
    expect(applied.body).toBeUndefined();
    const after = await contentSnapshot(spaceId);
    expect(after.revisions).toBe(before.revisions + 1);

    const content = await readContent(`/spaces/${spaceId}/content`);
    expectContentMatchesSpec("getCurrentRevision", 200, content);
    const [page] = content.pages;
    expect(content.pages).toHaveLength(1);
    expect(page).toMatchObject({
      title: "API reference",
      type: "document",
      computed: {
        type: "builtin:openapi",
        dependencies: { spec: { ref: { kind: "openapi", spec: "petstore" } } },
        props: { doc: "operations", page: "*" },
      },
    });
    expect(page?.computedSeed).toMatch(/^[A-Za-z0-9]{16}$/);
    const markdown = page?.markdown ?? "";
    for (const expected of [
      "## pets",
      "Everything about pets",
      "### GET /pets",
      "List all pets",
      "| limit | query | integer (int32) | no |",
      "### POST /pets",
      "- `application/json`: object",
      "| 201 | Created |",
      "## store",
      "### GET /store/orders/{orderId}",
      "| orderId | path | string | yes |",
      "| 404 | No such order |",
    ]) {
      expect(markdown).toContain(expected);
    }
    expect(markdown.indexOf("## pets")).toBeLessThan(markdown.indexOf("## store"));

    const pagePath = `/spaces/${spaceId}/content/page/${page?.id}`;
    const asDocument = await t.rest<PageBody>("GET", pagePath, { token: editor });
    expect(asDocument.status).toBe(200);
    expectContentMatchesSpec("getPageById", 200, asDocument.body);
    expect(JSON.stringify(asDocument.body.document)).toContain("GET /pets");

    const skipped = await readContent(`/spaces/${spaceId}/content`, { computed: false });
    expect(skipped.pages[0]?.computed?.type).toBe("builtin:openapi");
    expect(skipped.pages[0]?.markdown).toBe("");
    const skippedPage = await t.rest<PageBody>("GET", pagePath, {
      token: editor,
      query: { computed: false, format: "markdown" },
    });
    expect(skippedPage.body.markdown).toBe("");
  });

  it("takes the spec by id too, stores its slug, and renders each spec a read needs in one statement", async () => {
    const spaceId = await newSpace("Two APIs");
    expect((await applyTemplate(spaceId, openapiTemplate(petstoreId))).status).toBe(204);
    const statementsOfRead = async () => {
      const before = t.db.statementCount();
      const content = await readContent(`/spaces/${spaceId}/content`);
      return { statements: t.db.statementCount() - before, content };
    };
    const one = await statementsOfRead();
    expect(one.content.pages[0]?.computed?.dependencies.spec.ref.spec).toBe("petstore");

    expect((await applyTemplate(spaceId, openapiTemplate("hooks"))).status).toBe(204);
    expect((await applyTemplate(spaceId, openapiTemplate("petstore"))).status).toBe(204);
    const three = await statementsOfRead();
    expect(three.content.pages.map((page) => page.title)).toEqual(["API reference", "API reference", "API reference"]);
    expect(three.content.pages[1]?.markdown).toContain("### DELETE /hooks");
    expect(three.content.pages[1]?.markdown).toContain("## default");
    expect(three.content.pages[2]?.markdown).toContain("### GET /pets");
    expect(three.statements).toBe(one.statements);
  });

  it("renders Swagger 2.0 body parameters as the request body, and escapes table cells", async () => {
    const spaceId = await newSpace("Legacy API");
    expect((await applyTemplate(spaceId, openapiTemplate("legacy"))).status).toBe(204);
    const markdown = (await readContent(`/spaces/${spaceId}/content`)).pages[0]?.markdown ?? "";
    expect(markdown).toContain("### POST /users");
    expect(markdown).toContain("**Request body**\n\n- array of object");
    expect(markdown).toContain("| X-Trace | header | string | no | a \\| trace |");
    expect(markdown).not.toContain("| body | body |");
    expect(markdown).toContain("| 200 | Created them |");
  });

  it("writes into a change request, which merges the computed page into the space", async () => {
    const spaceId = await newSpace("Reviewed API");
    const created = await t.rest<{ id: string }>("POST", `/spaces/${spaceId}/change-requests`, {
      token: editor,
      body: { subject: "Add the API" },
    });
    expect(created.status).toBe(201);
    const changeRequestId = created.body.id;
    const applied = await applyTemplate(spaceId, { ...openapiTemplate("petstore"), changeRequestId });
    expect(applied.status).toBe(204);

    expect((await readContent(`/spaces/${spaceId}/content`)).pages).toEqual([]);
    const crContent = await readContent(`/spaces/${spaceId}/change-requests/${changeRequestId}/content`);
    expectContentMatchesSpec("getRevisionOfChangeRequestById", 200, crContent);
    expect(crContent.pages[0]?.markdown).toContain("### POST /pets");
    const crSkipped = await readContent(`/spaces/${spaceId}/change-requests/${changeRequestId}/content`, {
      computed: false,
    });
    expect(crSkipped.pages[0]?.markdown).toBe("");

    const merged = await t.rest("POST", `/spaces/${spaceId}/change-requests/${changeRequestId}/merge`, {
      token: admin,
    });
    expect(merged.status).toBe(200);
    const spaceContent = await readContent(`/spaces/${spaceId}/content`);
    expect(spaceContent.pages[0]?.computed?.dependencies.spec.ref.spec).toBe("petstore");
    expect(spaceContent.pages[0]?.computedSeed).toBe(crContent.pages[0]?.computedSeed);
    expect(spaceContent.pages[0]?.markdown).toContain("### GET /store/orders/{orderId}");
  });

  it("keeps a computed page's body generated: updates of its markdown are refused", async () => {
    const spaceId = await newSpace("Guarded API");
    await applyTemplate(spaceId, openapiTemplate("petstore"));
    const pageId = (await readContent(`/spaces/${spaceId}/content`)).pages[0]?.id;
    const refused = await t.rest<ErrorBody>("POST", `/spaces/${spaceId}/content`, {
      token: editor,
      body: { changes: [{ type: "update", pageId, page: { markdown: "hand written" } }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("computed");
    const renamed = await t.rest("POST", `/spaces/${spaceId}/content`, {
      token: editor,
      body: { changes: [{ type: "update", pageId, page: { title: "Pets API" } }] },
    });
    expect(renamed.status).toBe(200);
    const [page] = (await readContent(`/spaces/${spaceId}/content`)).pages;
    expect(page).toMatchObject({ title: "Pets API", computed: { type: "builtin:openapi" } });
    expect(page?.markdown).toContain("### GET /pets");
  });
});

describe("the file page template", () => {
  it("places a page embedding a file of the content", async () => {
    const spaceId = await newSpace("Files");
    const png = Buffer.from("89504e470d0a1a0a", "hex");
    const uploaded = await t.rest<{ inserted: { id: string }[] }>("POST", `/spaces/${spaceId}/content`, {
      token: editor,
      body: {
        changes: [
          {
            type: "insert",
            file: { name: "logo [v2].png", contentType: "image/png", content: png.toString("base64") },
          },
          { type: "insert", file: { name: "terms.pdf", contentType: "application/pdf", content: "JVBERg==" } },
        ],
      },
    });
    const [imageId, pdfId] = uploaded.body.inserted.map((entry) => entry.id);
    const fileTemplate = (file: string | undefined) => ({
      id: "file-page",
      params: { contentRefs: { file: { kind: "file", file, space: spaceId } } },
    });
    expect((await applyTemplate(spaceId, fileTemplate(imageId))).status).toBe(204);
    expect((await applyTemplate(spaceId, fileTemplate(pdfId))).status).toBe(204);

    const content = await readContent(`/spaces/${spaceId}/content`);
    expect(content.pages.map((page) => page.title)).toEqual(["logo [v2].png", "terms.pdf"]);
    const image = content.pages[0]?.markdown ?? "";
    const imageUrl = /^!\[logo \\\[v2\\\]\.png\]\(<(.+)>\)$/.exec(image)?.[1];
    expect(imageUrl).toContain(`/files/${spaceId}/`);
    expect(imageUrl).toMatch(new RegExp(`/${imageId}$`));
    expect(content.pages[1]?.markdown).toMatch(new RegExp(`^\\[terms\\.pdf\\]\\(<.+/${pdfId}>\\)$`));

    const download = await t.app.fetch(
      new Request(`${baseUrl}${new URL(imageUrl as string).pathname}`, {
        headers: { authorization: `Bearer ${editor}` },
      }),
    );
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer())).toEqual(png);
  });
});

describe("refusals", () => {
  it("answers 400 or 404 with the error body for bad templates and references, and writes nothing", async () => {
    const spaceId = await newSpace("Refusals");
    const before = await contentSnapshot(spaceId);
    const cases: [unknown, number, string][] = [
      [{ id: "nope" }, 400, "Unknown template nope"],
      [{ id: "openapi-reference" }, 400, "contentRefs.spec"],
      [{ id: "openapi-reference", params: { contentRefs: { spec: { kind: "file", file: "x" } } } }, 400, "kind"],
      [
        {
          ...openapiTemplate("petstore"),
          params: { contentRefs: { spec: { kind: "openapi", spec: "petstore" }, extra: {} } },
        },
        400,
        "extra",
      ],
      [openapiTemplate("missing"), 404, "missing not found"],
      [openapiTemplate("foreign"), 404, "foreign not found"],
      [
        { id: "file-page", params: { contentRefs: { file: { kind: "file", file: "file_missing" } } } },
        400,
        "file_missing",
      ],
      [
        { id: "file-page", params: { contentRefs: { file: { kind: "file", file: "f", space: "space_x" } } } },
        400,
        "only files of this space",
      ],
      [{ ...openapiTemplate("petstore"), changeRequestId: "cr_missing" }, 404, ""],
      [{ ...openapiTemplate("petstore"), unknown: true }, 400, ""],
      [{ id: "constructor" }, 400, "Unknown template"],
    ];
    for (const [body, status, message] of cases) {
      const response = await applyTemplate(spaceId, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect((response.body as ErrorBody).error).toMatchObject({ code: status });
      expect((response.body as ErrorBody).error.message).toContain(message);
    }
    expect(await contentSnapshot(spaceId)).toEqual(before);
  });

  it("refuses locked spaces (403) and readers (403)", async () => {
    const spaceId = await newSpace("Locked");
    const reader = await applyTemplate(spaceId, openapiTemplate("petstore"), org.members.read.token);
    expect(reader.status).toBe(403);
    await t.rest("PATCH", `/spaces/${spaceId}`, { token: admin, body: { editMode: "locked" } });
    const before = await contentSnapshot(spaceId);
    const locked = await applyTemplate(spaceId, openapiTemplate("petstore"), admin);
    expect(locked.status).toBe(403);
    expect((locked.body as ErrorBody).error.message).toContain("locked");
    expect(await contentSnapshot(spaceId)).toEqual(before);
  });
});

describe("creating a change request with a template", () => {
  it("applies the template to the new change request's content in the same write", async () => {
    const spaceId = await newSpace("CR template");
    const created = await t.rest<{ id: string; number: number }>("POST", `/spaces/${spaceId}/change-requests`, {
      token: editor,
      body: { subject: "API from a template", template: openapiTemplate("petstore") },
    });
    expect(created.status).toBe(201);
    expectMatchesSpec("createChangeRequest", 201, created.body);
    const crContent = await readContent(`/spaces/${spaceId}/change-requests/${created.body.id}/content`);
    expect(crContent.pages[0]?.markdown).toContain("### GET /pets");
    expect((await readContent(`/spaces/${spaceId}/content`)).pages).toEqual([]);
    const contributors = await t.db.prisma.changeRequestContributor.count({
      where: { changeRequestId: created.body.id },
    });
    expect(contributors).toBe(1);

    const before = await contentSnapshot(spaceId);
    for (const template of [openapiTemplate("missing"), { id: "nope" }]) {
      const refused = await t.rest<ErrorBody>("POST", `/spaces/${spaceId}/change-requests`, {
        token: editor,
        body: { subject: "Refused", template },
      });
      expect([400, 404]).toContain(refused.status);
      expect(refused.body.error.code).toBe(refused.status);
    }
    expect(await contentSnapshot(spaceId)).toEqual(before);
  });
});

describe("the official client", () => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await listen(t.app);
  });
  afterAll(() => server.close());

  it("applies a template with applyTemplateToSpace", async () => {
    const spaceId = await newSpace("Client template");
    const api = new GitBookAPI({ endpoint: server.url, authToken: editor });
    const response = await api.spaces.applyTemplateToSpace(spaceId, {
      id: "openapi-reference",
      params: { contentRefs: { spec: { kind: "openapi", spec: "petstore" } } },
    });
    expect(response.status).toBe(204);
    const { data } = await api.spaces.getCurrentRevision(spaceId);
    const [page] = data.pages;
    expect(page && "computed" in page ? page.computed : undefined).toMatchObject({ type: "builtin:openapi" });
    expect(page && "markdown" in page ? page.markdown : "").toContain("### GET /pets");
  });
});
