import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { maxLoopDelayDuring } from "../helpers/event-loop.ts";
import { extractPdfText } from "../helpers/pdf.ts";

// Off: each test converts hundreds of kilobytes of pathological content in one burst, far past one person's points;
// this file tests the workers, not the rate limit (test/contract/default-limits.test.ts does).
const noPointLimit = { RATE_LIMIT_USER: "0" };

/*
 * Content that takes seconds of CPU to convert (markdown the parser handles in superlinear time) or to render (big
 * PDFs) is worked on in worker threads within a time budget, and cached: the event loop stays free for everyone
 * else. The bound on the loop's delay is generous: the delay measured is wall-clock time, so on the shared 2-core
 * machine it includes the time the scheduler gives other processes (200-300 ms seen at load average ~10 with
 * nothing blocking the loop), and embedded PostgreSQL runs its statements on this thread (WebAssembly): parallel
 * requests' statements chain in promise callbacks, ~1-2 s measured at load average ~24. Before, each of these held
 * the loop for seconds more (the comment ~2 s per read, 8 at once; the PDFs ~10 s in all; the page write ~2-4 s
 * per page, all in one go).
 */

let t: TestApp;
let org: SeededOrganization;
const maxLoopDelayMs = 2500;

type ErrorBody = { error: { code: number; message: string } };
type CommentBody = { id: string; body: { document?: { object: string; nodes: unknown[] } } };

/** 99 KB of link openers that never close: ~2 s for the markdown parser. */
const pathologicalLinks = "[a](b ".repeat(16_500);

beforeAll(async () => {
  // A budget that lets the pathological links convert (once) on a loaded machine.
  t = await startTestApp({ env: { CONVERSION_TIMEOUT_MS: "60000", ...noPointLimit } });
  org = await seedOrganization(t.db, "Heavy Work Org");
});

async function newSpace(title: string) {
  const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
    token: org.members.admin.token,
    body: { title },
  });
  expect(space.status).toBe(201);
  return space.body.id;
}

describe("markdown conversion", () => {
  it("serves parallel reads of a stored pathological comment without holding the event loop", async () => {
    const spaceId = await newSpace("Pathological comments");
    const posted = await t.rest<CommentBody>("POST", `/spaces/${spaceId}/comments`, {
      token: org.members.comment.token,
      body: { body: { markdown: "A short comment." } },
    });
    expect(posted.status).toBe(200);
    // As a comment posted before bodies were converted at write time sits in the database.
    await t.db.prisma.comment.update({ where: { id: posted.body.id }, data: { markdown: pathologicalLinks } });

    const { result: reads, maxDelayMs } = await maxLoopDelayDuring(() =>
      Promise.all(
        Array.from({ length: 8 }, () =>
          t.rest<{ items: CommentBody[] }>("GET", `/spaces/${spaceId}/comments`, { token: org.members.read.token }),
        ),
      ),
    );
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(read.body.items[0]?.body.document?.object).toBe("document");
      expect(JSON.stringify(read.body.items[0]?.body.document)).toContain("[a](b [a](b");
    }
    expect(maxDelayMs).toBeLessThan(maxLoopDelayMs);
  }, 120_000);

  it("refuses with 422 a comment that takes longer than the time budget to convert, storing nothing", async () => {
    const strict = await startTestApp({ db: t.db, env: { CONVERSION_TIMEOUT_MS: "250", ...noPointLimit } });
    const spaceId = await newSpace("Too complex");
    const { result: posted, maxDelayMs } = await maxLoopDelayDuring(() =>
      strict.rest<ErrorBody>("POST", `/spaces/${spaceId}/comments`, {
        token: org.members.comment.token,
        body: { body: { markdown: pathologicalLinks } },
      }),
    );
    expect(posted.status).toBe(422);
    expect(posted.body).toEqual({ error: { code: 422, message: expect.stringContaining("250 ms") } });
    expect(await t.db.prisma.comment.count({ where: { spaceId } })).toBe(0);
    expect(maxDelayMs).toBeLessThan(maxLoopDelayMs);

    // Jobs queued behind one whose thread was ended run on the next thread: each answers, none waits forever.
    const queued = await Promise.all(
      [1, 2, 3].map((variant) =>
        strict.rest<ErrorBody>("POST", `/spaces/${spaceId}/comments`, {
          token: org.members.comment.token,
          body: { body: { markdown: `${variant} ${pathologicalLinks}` } },
        }),
      ),
    );
    expect(queued.map((answer) => answer.status)).toEqual([422, 422, 422]);

    // Stored before this check existed, it reads as the same 422 (remembered: the worker is not tied up again).
    const stored = await strict.rest<CommentBody>("POST", `/spaces/${spaceId}/comments`, {
      token: org.members.comment.token,
      body: { body: { markdown: "Fine." } },
    });
    await t.db.prisma.comment.update({ where: { id: stored.body.id }, data: { markdown: pathologicalLinks } });
    for (const format of ["document", "document"]) {
      const read = await strict.rest<ErrorBody>("GET", `/spaces/${spaceId}/comments/${stored.body.id}`, {
        token: org.members.read.token,
        query: { format },
      });
      expect(read.status).toBe(422);
      expect(read.body.error.code).toBe(422);
    }
    const asMarkdown = await strict.rest<{ body: { markdown: string } }>(
      "GET",
      `/spaces/${spaceId}/comments/${stored.body.id}`,
      { token: org.members.read.token, query: { format: "markdown" } },
    );
    expect(asMarkdown.status).toBe(200);
    expect(asMarkdown.body.body.markdown).toBe(pathologicalLinks);
  });
});

/** 5 KB: a GFM table of 1,000 columns and 600 empty rows, each row padded to every column: a 108 MB document. */
const wideTable = `|${"a|".repeat(1000)}\n|${"-|".repeat(1000)}\n${"|\n".repeat(600)}`;

async function conversionCacheBytes(app: TestApp) {
  const metrics = await (await app.app.fetch(new Request(`${baseUrl}/metrics`))).text();
  return Number(/cache_bytes\{cache="conversions"\} (\d+)/.exec(metrics)?.[1]);
}

describe("converted size", () => {
  it("refuses at write a comment or page converting past the byte bound, naming it, and never rebuilds one on a read", async () => {
    const spaceId = await newSpace("Wide tables");
    expect(wideTable.length).toBeLessThan(5300);
    const bound = `more than ${t.config.maxConvertedBytes} bytes (MAX_CONVERTED_BYTES`;
    const posted = await t.rest<ErrorBody>("POST", `/spaces/${spaceId}/comments`, {
      token: org.members.comment.token,
      body: { body: { markdown: wideTable } },
    });
    expect(posted.status).toBe(422);
    expect(posted.body).toEqual({ error: { code: 422, message: expect.stringContaining(bound) } });
    expect(await t.db.prisma.comment.count({ where: { spaceId } })).toBe(0);

    // Stored before the bound existed, it reads as the same 422, remembered: the document is not built per read.
    const stored = await t.rest<CommentBody>("POST", `/spaces/${spaceId}/comments`, {
      token: org.members.comment.token,
      body: { body: { markdown: "Fine." } },
    });
    await t.db.prisma.comment.update({ where: { id: stored.body.id }, data: { markdown: wideTable } });
    const reads = await Promise.all(
      [1, 2, 3, 4].map(() =>
        t.rest<ErrorBody>("GET", `/spaces/${spaceId}/comments/${stored.body.id}`, { token: org.members.read.token }),
      ),
    );
    for (const read of reads) {
      expect(read.status).toBe(422);
      expect(read.body.error.message).toContain(bound);
    }
    // A page holding it is refused when written too (its links are taken from its document), storing nothing.
    const page = await t.rest<ErrorBody>("POST", `/spaces/${spaceId}/content`, {
      token: org.members.edit.token,
      body: { changes: [{ type: "insert", page: { title: "Wide", markdown: `Intro.\n\n${wideTable}` } }] },
    });
    expect(page.status).toBe(422);
    expect(page.body.error.message).toContain(bound);
    expect(await t.db.prisma.pageVersion.count({ where: { spaceId } })).toBe(0);
    // Nothing of the document is kept: the conversion cache holds the refusals (256 bytes each), not megabytes.
    expect(await conversionCacheBytes(t)).toBeLessThan(1024 * 1024);
  }, 120_000);
});

describe("page writes", () => {
  /**
   * A link, then 15 KB of link openers that never close: a second or more of parsing each on the loaded machine.
   * Punctuation only: embedded PostgreSQL indexes a page's words for search on this thread too, which words would
   * make the test measure.
   */
  const bigPage = (name: string) => `A [link](https://example.com/${name}).\n\n${"[](< ".repeat(3000)}`;

  it("converts several large pages off the event loop and outside the transaction, storing them and their links", async () => {
    const spaceId = await newSpace("Large pages");
    const names = ["one", "two", "three", "four", "five", "six"];
    // Embedded PostgreSQL loads its search dictionary (a WebAssembly module, on this thread) on the first page write.
    const small = await t.rest("POST", `/spaces/${spaceId}/content`, {
      token: org.members.edit.token,
      body: { changes: [{ type: "insert", page: { title: "Small", markdown: "A small page." } }] },
    });
    expect(small.status).toBe(200);
    const { result: edit, maxDelayMs } = await maxLoopDelayDuring(() =>
      t.rest<{ inserted: { id: string }[] }>("POST", `/spaces/${spaceId}/content`, {
        token: org.members.edit.token,
        body: { changes: names.map((name) => ({ type: "insert", page: { title: name, markdown: bigPage(name) } })) },
      }),
    );
    expect(edit.status).toBe(200);
    expect(maxDelayMs).toBeLessThan(maxLoopDelayMs);
    const pageIds = edit.body.inserted.map((item) => item.id);
    expect(pageIds).toHaveLength(names.length);
    const versions = await t.db.prisma.pageVersion.findMany({ where: { spaceId, pageId: { in: pageIds } } });
    expect(Object.fromEntries(versions.map((version) => [version.title, version.markdown]))).toEqual(
      Object.fromEntries(names.map((name) => [name, bigPage(name)])),
    );
    const linkRows = await t.db.prisma.pageVersionLink.groupBy({
      by: ["pageVersionId"],
      where: { pageVersionId: { in: versions.map((version) => version.id) } },
      _count: true,
    });
    expect(linkRows.map((row) => row._count)).toEqual(names.map(() => 1));
    const links = await t.rest<{ items: { target: { url?: string } }[] }>(
      "GET",
      `/spaces/${spaceId}/content/page/${pageIds[4]}/links`,
      { token: org.members.read.token },
    );
    expect(links.status).toBe(200);
    expect(JSON.stringify(links.body)).toContain("https://example.com/five");
  }, 120_000);
});

describe("PDF exports", () => {
  /** A change request of four ~25 KB pages: seconds of rendering, ~0.5 s per page. */
  async function bigChangeRequest(title: string, app: TestApp = t) {
    const spaceId = await newSpace(title);
    const changeRequest = await app.rest<{ id: string }>("POST", `/spaces/${spaceId}/change-requests`, {
      token: org.members.edit.token,
      body: { subject: title },
    });
    expect(changeRequest.status).toBe(201);
    const prose = "A sentence of *plain* prose with a [link](https://example.com) and `code`.\n\n".repeat(330);
    const edit = await app.rest<{ inserted: { id: string }[] }>(
      "POST",
      `/spaces/${spaceId}/change-requests/${changeRequest.body.id}/content`,
      {
        token: org.members.edit.token,
        body: {
          changes: ["One", "Two", "Three", "Four"].map((name) => ({
            type: "insert",
            page: { title: `Chapter ${name}`, markdown: `Chapter ${name} begins.\n\n${prose}` },
          })),
        },
      },
    );
    expect(edit.status).toBe(200);
    const base = `/spaces/${spaceId}/change-requests/${changeRequest.body.id}`;
    return { base, pages: edit.body.inserted.map((item) => item.id) };
  }

  async function exportLink(app: TestApp, base: string, query: Record<string, string | boolean> = {}) {
    const link = await app.rest<{ url: string }>("GET", `${base}/pdf`, { token: org.members.edit.token, query });
    expect(link.status).toBe(200);
    return link.body.url;
  }

  it("renders parallel downloads off the event loop, once per revision, and anew when the content changes", async () => {
    const { base, pages } = await bigChangeRequest("Big export");
    const urls = [
      await exportLink(t, base),
      await exportLink(t, base, { page: pages[0] as string, only: true }),
      await exportLink(t, base, { page: pages[1] as string, only: true }),
    ];
    const { result: downloads, maxDelayMs } = await maxLoopDelayDuring(() =>
      Promise.all([...urls, ...urls].map((url) => t.app.fetch(new Request(url)))),
    );
    expect(downloads.map((download) => download.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(maxDelayMs).toBeLessThan(maxLoopDelayMs);
    const whole = new Uint8Array(await (downloads[0] as Response).arrayBuffer());
    expect(new Uint8Array(await (downloads[3] as Response).arrayBuffer())).toEqual(whole);
    expect(await extractPdfText(whole)).toContain("Chapter Four begins.");

    const metrics = await (await t.app.fetch(new Request(`${baseUrl}/metrics`))).text();
    const cached = Number(/^cache_bytes\{cache="pdfs"\} (\d+)$/m.exec(metrics)?.[1]);
    expect(cached).toBeGreaterThanOrEqual(whole.byteLength);

    // An edit makes a new revision: its link renders the new content.
    const changed = await t.rest("POST", `${base}/content`, {
      token: org.members.edit.token,
      body: { changes: [{ type: "update", pageId: pages[3], page: { markdown: "Rewritten ending." } }] },
    });
    expect(changed.status).toBe(200);
    const after = await t.app.fetch(new Request(await exportLink(t, base)));
    const text = await extractPdfText(new Uint8Array(await after.arrayBuffer()));
    expect(text).toContain("Rewritten ending.");
    expect(text).not.toContain("Chapter Four begins.");
  }, 120_000);

  it("answers 503 with Retry-After when every PDF worker is busy and the queue is full", async () => {
    const busy = await startTestApp({ db: t.db, env: { PDF_THREADS: "1", PDF_QUEUE: "0", ...noPointLimit } });
    const { base, pages } = await bigChangeRequest("Busy export", busy);
    const urls = [await exportLink(busy, base), await exportLink(busy, base, { page: pages[0] as string })];
    const downloads = await Promise.all(urls.map((url) => busy.app.fetch(new Request(url))));
    const statuses = downloads.map((download) => download.status).sort();
    expect(statuses).toEqual([200, 503]);
    const refused = downloads.find((download) => download.status === 503) as Response;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: { code: 503, message: expect.stringContaining("retry") } });
  }, 120_000);
});
