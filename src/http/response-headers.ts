import { createHash } from "node:crypto";

/** On every response: no MIME sniffing, no framing by other sites, no URL (ids, keys) leaked in Referer. */
const everyResponse: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

/**
 * Every response but the GraphiQL page: nothing may load or run. JSON needs nothing, and an uploaded HTML or SVG
 * file served from `/files` cannot run scripts on this origin.
 */
const lockedDown = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function setSecurityHeaders(headers: Headers, contentSecurityPolicy = lockedDown): void {
  for (const [name, value] of Object.entries(everyResponse)) headers.set(name, value);
  headers.set("content-security-policy", contentSecurityPolicy);
}

/**
 * The GraphiQL page with its Content-Security-Policy. `@graphql-yoga/render-graphiql` inlines everything: one
 * `<script>` (allowed by its hash, so no other inline script runs), a `<style>` and styles Monaco adds at run time,
 * fonts and icons as `data:` URLs, and Monaco's workers from `blob:` URLs. It talks to `/graphql` on its own origin.
 * `loadRenderer` runs on the first page asked for: the renderer is a large script, costly in heap, that an API-only
 * process never needs.
 */
export function graphiqlPage<Options>(loadRenderer: () => Promise<(options: Options) => string>): {
  render(options: Options): Promise<string>;
  /** The policy of the page last rendered (the options never change, so of every page). */
  contentSecurityPolicy(): string;
} {
  let rendered: { key: string; html: string; policy: string } | undefined;
  return {
    async render(options) {
      const key = JSON.stringify(options);
      if (rendered?.key !== key) {
        const html = (await loadRenderer())(options);
        const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
          ([, script]) =>
            `'sha256-${createHash("sha256")
              .update(script ?? "")
              .digest("base64")}'`,
        );
        const policy = [
          "default-src 'none'",
          `script-src ${hashes.join(" ")}`,
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data:",
          "font-src 'self' data:",
          "connect-src 'self'",
          "worker-src blob:",
          "frame-ancestors 'none'",
          "base-uri 'none'",
          "form-action 'none'",
        ].join("; ");
        rendered = { key, html, policy };
      }
      return rendered.html;
    },
    contentSecurityPolicy: () => rendered?.policy ?? lockedDown,
  };
}
