import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const here = import.meta.dirname;

/** The page's two files: index.html as written, and src/app/main.ts bundled with the SDK for browsers. */
async function buildSiteBrowser(): Promise<Map<string, { type: string; body: Uint8Array | string }>> {
  const bundle = await build({
    entryPoints: [join(here, "src", "main.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    outfile: "main.js",
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0];
  if (!script) throw new Error("esbuild wrote no bundle");
  const html = await readFile(join(here, "index.html"), "utf8");
  return new Map([
    ["/", { type: "text/html; charset=utf-8", body: html }],
    ["/main.js", { type: "text/javascript; charset=utf-8", body: script.contents }],
  ]);
}

export interface SiteBrowserServer {
  /** The page's origin (`http://host:port`): the gateway's CORS_ORIGINS must list it. */
  url: string;
  close(): Promise<void>;
}

/** Builds the page, then serves it on `port` of `host` (0: a free port). */
export async function serveSiteBrowser(port = 0, host = "127.0.0.1"): Promise<SiteBrowserServer> {
  const files = await buildSiteBrowser();
  const server = createServer((request, response) => {
    const file = files.get(new URL(request.url ?? "/", "http://page").pathname);
    if (!file || request.method !== "GET") return response.writeHead(404).end();
    response.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// `npm run example:site-browser`: serve the page for a gateway started with CORS_ORIGINS set to its origin.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.SITE_BROWSER_PORT ?? 5173);
  const page = await serveSiteBrowser(port, "localhost");
  const gateway = process.env.GATEWAY_URL ?? "http://localhost:4000";
  process.stdout.write(
    `Site browser on ${page.url} (the gateway needs CORS_ORIGINS=${page.url})\n` +
      `  Open ${page.url}/?gateway=${encodeURIComponent(gateway)}#token=<your token>\n`,
  );
}
