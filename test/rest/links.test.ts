import { ContentReferenceStatus, GitBookAPI } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSpace } from "../factories.ts";
import {
  baseUrl,
  listen,
  type SeededOrganization,
  seedOrganization,
  startTestApp,
  type TestApp,
} from "../helpers/app.ts";
import { editContent } from "../helpers/content.ts";
import { expectMatchesSpec } from "../helpers/contract.ts";

let t: TestApp;
let org: SeededOrganization;
let editor: string;

interface Location {
  kind: string;
  url?: string;
  page?: { id: string; title: string };
  file?: { id: string };
  space?: { id: string };
  organization?: { id: string };
  internalLocation?: { type: string; anchor: string };
}
interface LinkItem {
  status: string;
  relation: string;
  targetReference: Location;
  locationReferences: Location[];
}
interface LinkList {
  items: LinkItem[];
  count: number;
  next?: { page: string };
  stats: { total: number; broken: { total: number; changeRequest?: number } };
}
interface BacklinkList {
  items: Location[];
  count: number;
  next?: { page: string };
}

const newSpace = async (title: string) => (await createSpace(t, org, { title })).id;
const edit = (path: string, changes: unknown[]) => editContent(t, editor, path, changes);

async function get<Body>(path: string, query?: Record<string, string | number>) {
  const response = await t.rest<Body>("GET", path, { token: editor, query });
  expect(response.status).toBe(200);
  return response.body;
}

/** A short text naming a link item: its status and target. */
function describeItem(item: LinkItem): string {
  const target = item.targetReference;
  const name =
    target.kind === "page"
      ? `page:${target.page?.title}${target.internalLocation ? `#${target.internalLocation.anchor}` : ""}`
      : target.kind === "file"
        ? `file:${target.file?.id}`
        : target.kind === "space"
          ? `space:${target.space?.id}`
          : `url:${target.url}`;
  return `${item.status} ${name} <- ${item.locationReferences.map((location) => location.page?.title).join(",")}`;
}

const logo = { name: "logo.png", contentType: "image/png", content: "iVBORw0KGgo=", width: 4, height: 2 };

/**
 * A space: Guide (with subpage Install) and Reference, a file, and links of every kind between them. Guide has
 * subpages, so its relative links start from `guide/` (it is `guide/README.md`); Install's too (`guide/install.md`).
 */
async function seedLinkedSpace() {
  const spaceId = await newSpace("Linked");
  const otherSpaceId = await newSpace("Other");
  const created = await edit(`/spaces/${spaceId}/content`, [
    { type: "insert", page: { title: "Guide", markdown: "# Guide" } },
    { type: "insert", page: { title: "Reference", markdown: "# Reference" } },
    { type: "insert", file: logo },
  ]);
  const [guideId, referenceId, logoId] = created.inserted.map((item) => item.id) as [string, string, string];
  const files = await get<{ items: { id: string; downloadURL: string }[] }>(`/spaces/${spaceId}/content/files`);
  const logoUrl = files.items[0]?.downloadURL as string;
  const guideMarkdown = [
    "# Intro",
    "",
    "See [install](install.md), [the reference](../reference.md) and [its API](../reference.md#api).",
    "",
    "[Nowhere](nowhere.md), [example](https://example.com), [settings](http://gateway.test/settings), [top](#intro).",
    "",
    "![logo](.gitbook/assets/logo.png)",
    "",
    "```md",
    "[not a link](in-code.md)",
    "```",
  ].join("\n");
  const inserted = await edit(`/spaces/${spaceId}/content`, [
    { type: "update", pageId: guideId, page: { markdown: guideMarkdown } },
    {
      type: "insert",
      page: {
        title: "Install",
        parent: guideId,
        markdown: `[Back](README.md), [reference](../reference.md), [logo](${logoUrl}), [gone][gone].\n\n[gone]: missing.md\n`,
      },
    },
    {
      type: "update",
      pageId: referenceId,
      page: {
        markdown: [
          "[example](https://example.com)",
          `[guide](${baseUrl}/v1/spaces/${spaceId}/content/page/${guideId})`,
          "[no file](.gitbook/assets/nope.png)",
          `[other space](${baseUrl}/v1/spaces/${otherSpaceId})`,
        ].join(" "),
      },
    },
  ]);
  const installId = inserted.inserted[0]?.id as string;
  return { spaceId, otherSpaceId, guideId, referenceId, installId, logoId };
}

let space: Awaited<ReturnType<typeof seedLinkedSpace>>;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Links Org");
  editor = org.members.edit.token;
  space = await seedLinkedSpace();
});

const allLinks = () => [
  "broken url:.gitbook/assets/nope.png <- Reference",
  "broken url:missing.md <- Install",
  "broken url:nowhere.md <- Guide",
  "ok file:LOGO <- Guide,Install",
  "ok page:Guide <- Install,Reference",
  "ok page:Guide#intro <- Guide",
  "ok page:Install <- Guide",
  "ok page:Reference <- Guide,Install",
  "ok page:Reference#api <- Guide",
  "ok space:OTHER <- Reference",
  "ok url:https://example.com <- Guide,Reference",
  "in-app url:http://gateway.test/settings <- Guide",
];
const named = (lines: string[]) =>
  lines.map((line) => line.replace("LOGO", space.logoId).replace("OTHER", space.otherSpaceId)).sort();

describe("links", () => {
  it("lists a space's links, one per target, with exact stats and status filters", async () => {
    const list = await get<LinkList>(`/spaces/${space.spaceId}/links`);
    expectMatchesSpec("listSpaceLinks", 200, list);
    expect(list.items.map(describeItem).sort()).toEqual(named(allLinks()));
    expect(list.count).toBe(12);
    expect(list.stats).toEqual({ total: 12, broken: { total: 3, changeRequest: 0 } });
    expect(list.next).toBeUndefined();
    const page = list.items.find((item) => item.targetReference.page?.title === "Install");
    expect(page?.targetReference.organization?.id).toBe(org.organizationId);
    expect(page?.targetReference.space?.id).toBe(space.spaceId);
    expect(page?.relation).toBe("reference");

    for (const [status, count] of [
      ["broken", 3],
      ["in-app", 1],
      ["ok", 8],
    ] as const) {
      const filtered = await get<LinkList>(`/spaces/${space.spaceId}/links`, { status });
      expect(filtered.count).toBe(count);
      expect(filtered.items.every((item) => item.status === status)).toBe(true);
      expect(filtered.stats.total).toBe(12);
    }
    const bad = await t.rest<{ error: { code: number } }>("GET", `/spaces/${space.spaceId}/links`, {
      token: editor,
      query: { status: "dead" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe(400);
    expect((await t.rest("GET", `/spaces/${space.spaceId}/links`, { token: org.members.guest.token })).status).toBe(
      404,
    );
  });

  it("pages through the links without skipping or repeating one", async () => {
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const list: LinkList = await get<LinkList>(`/spaces/${space.spaceId}/links`, {
        limit: 5,
        ...(token ? { page: token } : {}),
      });
      expect(list.count).toBe(12);
      seen.push(...list.items.map(describeItem));
      token = list.next?.page;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual(named(allLinks()));
    const forged = await t.rest("GET", `/spaces/${space.spaceId}/links`, { token: editor, query: { page: "nope" } });
    expect(forged.status).toBe(400);
  });

  it("lists one page's links", async () => {
    const list = await get<LinkList>(`/spaces/${space.spaceId}/content/page/${space.guideId}/links`);
    expectMatchesSpec("listPageLinksInSpace", 200, list);
    expect(list.items.map(describeItem).sort()).toEqual(
      named([
        "broken url:nowhere.md <- Guide",
        "ok file:LOGO <- Guide",
        "ok page:Guide#intro <- Guide",
        "ok page:Install <- Guide",
        "ok page:Reference <- Guide",
        "ok page:Reference#api <- Guide",
        "ok url:https://example.com <- Guide",
        "in-app url:http://gateway.test/settings <- Guide",
      ]).sort(),
    );
    expect(list.stats).toEqual({ total: 8, broken: { total: 1, changeRequest: 0 } });
    const inApp = await get<LinkList>(`/spaces/${space.spaceId}/content/page/${space.guideId}/links`, {
      status: "in-app",
    });
    expect(inApp.items.map(describeItem)).toEqual(["in-app url:http://gateway.test/settings <- Guide"]);
    const missing = await t.rest("GET", `/spaces/${space.spaceId}/content/page/page_missing/links`, { token: editor });
    expect(missing.status).toBe(404);
  });

  it("lists the pages linking to a page or a file (not the page itself)", async () => {
    const titles = (list: BacklinkList) => list.items.map((location) => location.page?.title).sort();
    const reference = await get<BacklinkList>(`/spaces/${space.spaceId}/content/page/${space.referenceId}/backlinks`);
    expectMatchesSpec("listSpacePageBacklinks", 200, reference);
    expect(titles(reference)).toEqual(["Guide", "Install"]);
    expect(reference.items[0]).toMatchObject({ kind: "page", space: { id: space.spaceId } });
    const guide = await get<BacklinkList>(`/spaces/${space.spaceId}/content/page/${space.guideId}/backlinks`);
    expect(titles(guide)).toEqual(["Install", "Reference"]);
    const firstOnly = await get<BacklinkList>(`/spaces/${space.spaceId}/content/page/${space.guideId}/backlinks`, {
      limit: 1,
    });
    expect(firstOnly.items).toHaveLength(1);
    expect(firstOnly.count).toBe(2);
    const rest = await get<BacklinkList>(`/spaces/${space.spaceId}/content/page/${space.guideId}/backlinks`, {
      limit: 1,
      page: firstOnly.next?.page as string,
    });
    expect([...firstOnly.items, ...rest.items].map((item) => item.page?.title).sort()).toEqual([
      "Install",
      "Reference",
    ]);
    expect(rest.next).toBeUndefined();

    const file = await get<BacklinkList>(`/spaces/${space.spaceId}/content/files/${space.logoId}/backlinks`);
    expectMatchesSpec("listSpaceFileBacklinks", 200, file);
    expect(titles(file)).toEqual(["Guide", "Install"]);
    const install = await get<BacklinkList>(`/spaces/${space.spaceId}/content/page/${space.installId}/backlinks`);
    expect(titles(install)).toEqual(["Guide"]);
  });

  it("a change request that breaks a link changes its own page links, not the space's", async () => {
    const created = await t.rest<{ id: string; number: number }>("POST", `/spaces/${space.spaceId}/change-requests`, {
      token: editor,
      body: { subject: "Drop install" },
    });
    expect(created.status).toBe(201);
    const base = `/spaces/${space.spaceId}/change-requests/${created.body.id}`;
    await edit(`${base}/content`, [{ type: "delete", pageId: space.installId }]);

    const inChangeRequest = await get<LinkList>(`${base}/content/page/${space.guideId}/links`);
    expectMatchesSpec("listPageLinksInChangeRequest", 200, inChangeRequest);
    expect(inChangeRequest.stats).toEqual({ total: 8, broken: { total: 2, changeRequest: 1 } });
    const broken = await get<LinkList>(`${base}/content/page/${space.guideId}/links`, { status: "broken" });
    expect(broken.items.map(describeItem).sort()).toEqual([
      "broken url:install.md <- Guide",
      "broken url:nowhere.md <- Guide",
    ]);

    const inSpace = await get<LinkList>(`/spaces/${space.spaceId}/content/page/${space.guideId}/links`);
    expect(inSpace.stats).toEqual({ total: 8, broken: { total: 1, changeRequest: 0 } });

    const fileInChangeRequest = await get<BacklinkList>(`${base}/content/files/${space.logoId}/backlinks`);
    expectMatchesSpec("listChangeRequestFileBacklinks", 200, fileInChangeRequest);
    expect(fileInChangeRequest.items.map((item) => item.page?.title)).toEqual(["Guide"]);
    const byNumber = await get<BacklinkList>(
      `/spaces/${space.spaceId}/change-requests/${created.body.number}/content/files/${space.logoId}/backlinks`,
    );
    expect(byNumber.count).toBe(1);
    const fileInSpace = await get<BacklinkList>(`/spaces/${space.spaceId}/content/files/${space.logoId}/backlinks`);
    expect(fileInSpace.count).toBe(2);
  });

  it("extracts the links of page versions written before extraction existed when they are first read", async () => {
    const before = await get<LinkList>(`/spaces/${space.spaceId}/links`);
    const { revisionId } = await t.db.prisma.space.findUniqueOrThrow({ where: { id: space.spaceId } });
    const positions = await t.db.prisma.revisionPage.findMany({ where: { revisionId } });
    const ids = positions.map((position) => position.versionId);
    const stored = await t.db.prisma.pageVersionLink.count({ where: { pageVersionId: { in: ids } } });
    await t.db.prisma.pageVersionLink.deleteMany({ where: { pageVersionId: { in: ids } } });
    await t.db.prisma.pageVersion.updateMany({ where: { id: { in: ids } }, data: { linksExtracted: false } });

    const after = await get<LinkList>(`/spaces/${space.spaceId}/links`);
    expect(after).toEqual(before);
    expect(await t.db.prisma.pageVersionLink.count({ where: { pageVersionId: { in: ids } } })).toBe(stored);
    expect(await t.db.prisma.pageVersion.count({ where: { id: { in: ids }, linksExtracted: false } })).toBe(0);
  });

  it("reads links and backlinks in a fixed number of statements whatever the number of pages", async () => {
    const spaceWith = async (pages: number) => {
      const spaceId = await newSpace(`Book of ${pages}`);
      const changes = Array.from({ length: pages }, (_, index) => ({
        type: "insert",
        page: {
          title: `Chapter ${index}`,
          markdown: `[next](chapter-${index + 1}.md) [home](https://example.com/${index}) ![img](.gitbook/assets/x.png)`,
        },
      }));
      const { inserted } = await edit(`/spaces/${spaceId}/content`, changes);
      return { spaceId, firstPage: inserted[0]?.id as string };
    };
    const statementsFor = async (path: string) => {
      const before = t.db.statementCount();
      await get(path);
      return t.db.statementCount() - before;
    };
    const small = await spaceWith(3);
    const large = await spaceWith(40);
    const links = await get<LinkList>(`/spaces/${large.spaceId}/links`);
    // 40 chapters: 39 links to the next, one broken (chapter-40), 40 URLs, one missing image.
    expect(links.stats).toEqual({ total: 81, broken: { total: 2, changeRequest: 0 } });
    for (const path of ["links", `content/page/{page}/links`, `content/page/{page}/backlinks`]) {
      const of = (book: { spaceId: string; firstPage: string }) =>
        `/spaces/${book.spaceId}/${path.replace("{page}", book.firstPage)}`;
      const smallCount = await statementsFor(of(small));
      const largeCount = await statementsFor(of(large));
      expect(largeCount).toBe(smallCount);
      // Locations embed the space, whose `gitSync` is one more batched read.
      expect(largeCount).toBeLessThanOrEqual(13);
    }
  });
});

describe("links through GraphQL", () => {
  it("serves the same lists on the graph (Revision.links, RevisionPage.backlinks)", async () => {
    const query = /* GraphQL */ `
      query LinksAndBacklinks($spaceId: ID!, $pageId: ID!) {
        space(id: $spaceId) {
          content {
            links(status: BROKEN) {
              totalCount
              stats { total broken { total changeRequest } }
              nodes { status targetReference { kind url } }
            }
            page(id: $pageId) { backlinks { totalCount nodes { kind page { title } } } }
          }
        }
      }
    `;
    type Result = {
      space: {
        content: {
          links: { totalCount: number; stats: LinkList["stats"]; nodes: LinkItem[] };
          page: { backlinks: { totalCount: number; nodes: Location[] } };
        };
      };
    };
    const data = await t.graphql(editor).request<Result>(query, { spaceId: space.spaceId, pageId: space.referenceId });
    const { links, page } = data.space.content;
    expect(links.totalCount).toBe(3);
    expect(links.stats).toEqual({ total: 12, broken: { total: 3, changeRequest: 0 } });
    expect(links.nodes.map((node) => node.targetReference.url).sort()).toEqual([
      ".gitbook/assets/nope.png",
      "missing.md",
      "nowhere.md",
    ]);
    expect(page.backlinks.nodes.map((node) => node.page?.title).sort()).toEqual(["Guide", "Install"]);
  });
});

describe("links through the official client", () => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await listen(t.app);
  });
  afterAll(() => server.close());

  it("lists links and backlinks with GitBookAPI", async () => {
    const api = new GitBookAPI({ endpoint: server.url, authToken: editor });
    const links = await api.spaces.listSpaceLinks(space.spaceId, { status: ContentReferenceStatus.Broken });
    expect(links.data.stats.broken.total).toBe(3);
    expect(links.data.items).toHaveLength(3);
    const backlinks = await api.spaces.listSpacePageBacklinks(space.spaceId, space.referenceId);
    expect(backlinks.data.items.map((item) => item.kind)).toEqual(["page", "page"]);
  });
});
