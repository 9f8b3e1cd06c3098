import { Response } from "@whatwg-node/fetch";
import { restError } from "../../web/errors.ts";
import type { PlainRoute } from "../../web/plain-routes.ts";
import { WorkersBusyError } from "../../workers/heavy-work.ts";
import { readFileDownload, renderPdfExport } from "./content.service.ts";

/**
 * File bytes (to callers who may read the space, with their token) and PDF export links (the link's key is the
 * credential, for an hour): binary downloads, so outside the GraphQL schema.
 */
export const contentPlainRoutes: PlainRoute[] = [
  {
    method: "GET",
    pattern: /^\/files\/([^/]+)\/([^/]+)\/([^/]+)$/,
    async handle(_request, [spaceId = "", revisionId = "", fileId = ""], ctx) {
      const download = await readFileDownload(ctx, spaceId, revisionId, fileId);
      return new Response(download.bytes, {
        headers: {
          "content-type": download.contentType,
          "content-length": String(download.bytes.length),
          "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(download.name)}`,
          "cache-control": "private, max-age=31536000, immutable",
          "x-content-type-options": "nosniff",
        },
      });
    },
  },
  {
    method: "GET",
    pattern: /^\/exports\/([A-Za-z0-9]{40})\.pdf$/,
    async handle(_request, [key = ""], ctx) {
      let pdf: Uint8Array;
      try {
        pdf = await renderPdfExport(ctx, key);
      } catch (error) {
        if (error instanceof WorkersBusyError) return restError(error.code, error.message, error.headers);
        throw error;
      }
      // A view of the cached bytes, not a copy.
      return new Response(Buffer.from(pdf.buffer as ArrayBuffer, pdf.byteOffset, pdf.byteLength), {
        headers: {
          "content-type": "application/pdf",
          "content-length": String(pdf.length),
          "cache-control": "no-store",
        },
      });
    },
  },
];
