import { createHash } from "node:crypto";
import { Response } from "@whatwg-node/fetch";
import type { GraphiQLOptions } from "graphql-yoga";
import { lockedDown } from "./response-headers.ts";

/** What `@graphql-yoga/render-graphiql` builds its page from: the GraphiQL bundle, its styles and Monaco's workers. */
type GraphiQLAssets = typeof import("@graphql-yoga/render-graphiql/graphiql");

/** Where the page's workers and icon are served: their names carry a hash of their content, so they never change. */
export const graphiqlAssetsPath = "/graphiql/";

const sha256 = (text: string, encoding: "base64" | "hex") => createHash("sha256").update(text).digest(encoding);

const workerNames = { editorWorkerService: "editor", json: "json", graphql: "graphql" } as const;

/** The page's files besides itself, by path, and the path of each worker by Monaco's label. */
function assetFiles(assets: GraphiQLAssets) {
  const workers = {
    editorWorkerService: assets.editorWorkerService,
    json: assets.jsonWorker,
    graphql: assets.graphqlWorker,
  };
  const files = new Map<string, { body: Buffer<ArrayBuffer>; contentType: string }>();
  const workerUrls: Record<string, string> = {};
  for (const [label, source] of Object.entries(workers)) {
    const path = `${graphiqlAssetsPath}${workerNames[label as keyof typeof workers]}.${sha256(source, "hex").slice(0, 16)}.js`;
    files.set(path, { body: Buffer.from(source), contentType: "text/javascript; charset=utf-8" });
    workerUrls[label] = path;
  }
  const [, iconType = "image/x-icon", iconBase64 = ""] = /^data:([^;,]+);base64,(.*)$/s.exec(assets.favicon) ?? [];
  const iconPath = `${graphiqlAssetsPath}favicon.${sha256(iconBase64, "hex").slice(0, 16)}.ico`;
  files.set(iconPath, { body: Buffer.from(iconBase64, "base64"), contentType: iconType });
  return { files, workerUrls, iconPath };
}

/**
 * `@graphql-yoga/render-graphiql`'s page, but Monaco's three workers and the icon are files of their own instead of
 * strings inlined in the page: the page compresses under 2 MB (inlined, the workers repeat Monaco's editor worker
 * three times, which gzip's 32 KB window cannot see), the workers load only when an editor needs them, and the
 * browser keeps them. Everything else is inlined (no CDN): it works offline and behind strict networks.
 */
function pageHtml(
  assets: GraphiQLAssets,
  workerUrls: Record<string, string>,
  iconPath: string,
  options: GraphiQLOptions,
) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${options.title ?? "GraphiQL"}</title>
    <link rel="icon" href="${iconPath}" />
    <style>${assets.css}</style>
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div>
    <script>
      const workers = ${JSON.stringify(workerUrls)};
      self["MonacoEnvironment"] = { globalAPI: false, getWorkerUrl: (moduleId, label) => workers[label] };
      ${assets.js};
      YogaGraphiQL.renderYogaGraphiQL(window.document.querySelector("#root"), ${JSON.stringify(options)});
    </script>
  </body>
</html>
`;
}

/** The page's policy: its one inline script by hash, Monaco's styles, data: fonts, workers and API on this origin. */
function pagePolicy(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, script]) => `'sha256-${sha256(script ?? "", "base64")}'`,
  );
  return [
    "default-src 'none'",
    `script-src ${hashes.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/**
 * The GraphiQL page with its Content-Security-Policy, and its files under `graphiqlAssetsPath`. `loadAssets` runs
 * on the first page or file asked for: the assets are megabytes of strings, costly in heap, that an API-only
 * process never needs.
 */
export function graphiqlPage(loadAssets: () => Promise<GraphiQLAssets>): {
  render(options: GraphiQLOptions): Promise<string>;
  /** The policy of the page last rendered (the options never change, so of every page). */
  contentSecurityPolicy(): string;
  /** The page's file at this path, or undefined when there is none. */
  asset(pathname: string): Promise<Response | undefined>;
} {
  let loaded: Promise<GraphiQLAssets & ReturnType<typeof assetFiles>> | undefined;
  const load = () => {
    loaded ??= loadAssets().then((assets) => ({ ...assets, ...assetFiles(assets) }));
    return loaded;
  };
  let rendered: { key: string; html: string; policy: string } | undefined;
  return {
    async render(options) {
      const key = JSON.stringify(options);
      if (rendered?.key !== key) {
        const assets = await load();
        const html = pageHtml(assets, assets.workerUrls, assets.iconPath, options);
        rendered = { key, html, policy: pagePolicy(html) };
      }
      return rendered.html;
    },
    contentSecurityPolicy: () => rendered?.policy ?? lockedDown,
    async asset(pathname) {
      const file = (await load()).files.get(pathname);
      if (!file) return undefined;
      return new Response(file.body, {
        headers: {
          "content-type": file.contentType,
          "content-length": String(file.body.length),
          "cache-control": "public, max-age=31536000, immutable",
        },
      });
    },
  };
}
