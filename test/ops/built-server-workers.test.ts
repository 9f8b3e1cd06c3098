import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServerProcess } from "../helpers/server-process.ts";

/*
 * The worker threads' entry is bundled on its own (dist/heavy-work.worker.js): the built server, as `npm start`
 * runs it, converts markdown above 1 KiB and renders PDFs on threads started from it.
 */

const token = "built-server-workers-admin-token";
let server: ServerProcess;
let dataDir: string;

async function call<Body>(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "built-server-workers-"));
  server = await startServerProcess({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_TOKEN: token, RUN_JOBS: "false" });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the built server's worker threads", () => {
  it("convert a comment above 1 KiB and render a PDF export", async () => {
    const organizationId = (await call<{ items: { id: string }[] }>("GET", "/v1/orgs")).body.items[0]?.id;
    const space = await call<{ id: string }>("POST", `/v1/orgs/${organizationId}/spaces`, { title: "Built" });
    expect(space.status).toBe(201);
    const markdown = `# Long comment\n\n${"Some *emphasis* and a [link](https://example.com).\n\n".repeat(100)}`;
    const posted = await call<{ body: { document: { object: string; nodes: { type: string }[] } } }>(
      "POST",
      `/v1/spaces/${space.body.id}/comments`,
      { body: { markdown } },
    );
    expect(posted.status).toBe(200);
    expect(posted.body.body.document.object).toBe("document");
    expect(posted.body.body.document.nodes[0]?.type).toBe("heading-1");

    const changeRequest = await call<{ id: string }>("POST", `/v1/spaces/${space.body.id}/change-requests`, {
      subject: "Printed",
    });
    const base = `/v1/spaces/${space.body.id}/change-requests/${changeRequest.body.id}`;
    const edit = await call("POST", `${base}/content`, {
      changes: [{ type: "insert", page: { title: "Chapter", markdown } }],
    });
    expect(edit.status).toBe(200);
    const link = await call<{ url: string }>("GET", `${base}/pdf`);
    const pdf = await fetch(`${server.url}${new URL(link.body.url).pathname}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    for (const cache of ["conversions", "pdfs"]) {
      expect(Number(new RegExp(`^cache_bytes\\{cache="${cache}"\\} (\\d+)$`, "m").exec(metrics)?.[1])).toBeGreaterThan(
        0,
      );
    }
  });
});
