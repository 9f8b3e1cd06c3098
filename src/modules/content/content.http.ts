import type { RequestContext } from "../../context.ts";
import { DomainError } from "../../errors.ts";
import { restError } from "../../rest/errors.ts";
import { readFileDownload, renderPdfExport } from "./content.service.ts";

const filePath = /^\/files\/([^/]+)\/([^/]+)\/([^/]+)$/;
const exportPath = /^\/exports\/([A-Za-z0-9]{40})\.pdf$/;

/** Whether a path is one of the binary downloads below (files and PDF exports), which are not JSON routes. */
export function isDownloadPath(pathname: string): boolean {
  return filePath.test(pathname) || exportPath.test(pathname);
}

/**
 * Serves file bytes (to callers who may read the space, with their token) and PDF export links (the link's key
 * is the credential, for an hour). Domain errors answer the public error body like every other route.
 */
export async function serveDownload(request: Request, pathname: string, ctx: RequestContext): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return restError(405, `Method ${request.method} is not allowed on ${pathname}`, { Allow: "GET, HEAD" });
  }
  try {
    const file = filePath.exec(pathname);
    if (file) {
      const [, spaceId, revisionId, fileId] = file.map(decodeURIComponent) as [string, string, string, string];
      const download = await readFileDownload(ctx, spaceId, revisionId, fileId);
      return new Response(request.method === "HEAD" ? null : download.bytes, {
        headers: {
          "content-type": download.contentType,
          "content-length": String(download.bytes.length),
          "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(download.name)}`,
          "cache-control": "private, max-age=31536000, immutable",
          "x-content-type-options": "nosniff",
        },
      });
    }
    const key = (exportPath.exec(pathname) as RegExpExecArray)[1] as string;
    const pdf = await renderPdfExport(ctx.prisma, key, ctx.clock.now());
    return new Response(request.method === "HEAD" ? null : Buffer.from(pdf), {
      headers: { "content-type": "application/pdf", "content-length": String(pdf.length), "cache-control": "no-store" },
    });
  } catch (error) {
    if (error instanceof DomainError) return restError(error.status, error.message);
    throw error;
  }
}
