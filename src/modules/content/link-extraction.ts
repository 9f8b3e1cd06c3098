import { markdownLinkUrls } from "../../lib/markdown/text.ts";

/**
 * What a link in a page says, from its text alone (it does not depend on the revision or the server's address):
 * `#x` is an anchor of the same page, a relative path to a `.md` file is a page, `.gitbook/assets/<name>` a file
 * (GitBook's Git layout), anything else a URL. Revisions resolve them when links are read.
 */
export interface ExtractedLink {
  kind: "url" | "page" | "anchor" | "file";
  /** The link as written. */
  url: string;
  /** page: the relative path; file: the file name; otherwise null. */
  target: string | null;
  anchor: string | null;
}

const scheme = /^[a-z][a-z0-9+.-]*:/i;
const assetPath = /(?:^|\/)\.gitbook\/assets\/([^/]+)$/;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function classifyLink(url: string): ExtractedLink {
  if (url.startsWith("#")) return { kind: "anchor", url, target: null, anchor: decode(url.slice(1)) };
  if (scheme.test(url) || url.startsWith("//")) return { kind: "url", url, target: null, anchor: null };
  const hashAt = url.indexOf("#");
  const anchor = hashAt >= 0 ? decode(url.slice(hashAt + 1)) : null;
  const path = decode((hashAt >= 0 ? url.slice(0, hashAt) : url).replace(/\?.*$/, ""));
  const asset = assetPath.exec(path);
  if (asset) return { kind: "file", url, target: asset[1] as string, anchor: null };
  if (/\.md$/i.test(path)) return { kind: "page", url, target: path, anchor: anchor || null };
  return { kind: "url", url, target: null, anchor: null };
}

/**
 * The links of a page version: a document's links and images (`markdownUrls`, when its markdown was already
 * converted), or a link page's URL.
 */
function extractLinks(
  page: { type: string; markdown: string; href: string | null },
  markdownUrls?: readonly string[],
): ExtractedLink[] {
  const urls =
    page.type === "document"
      ? (markdownUrls ?? markdownLinkUrls(page.markdown))
      : page.type === "link" && page.href
        ? [page.href]
        : [];
  return urls.filter((url) => url.trim() !== "").map(classifyLink);
}

/**
 * The rows of PageVersionLink for one version. `markdownUrls`: what its markdown links to, converted off the event
 * loop beforehand (src/workers/heavy-work.ts); without them the markdown is parsed here.
 */
export function pageVersionLinkRows(
  pageVersionId: string,
  page: { type: string; markdown: string; href: string | null },
  markdownUrls?: readonly string[],
) {
  return extractLinks(page, markdownUrls).map((link, ordinal) => ({ pageVersionId, ordinal, ...link }));
}
