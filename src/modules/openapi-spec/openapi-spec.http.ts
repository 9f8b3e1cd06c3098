import { Response } from "@whatwg-node/fetch";
import type { PlainRoute } from "../../web/plain-routes.ts";
import { readVersionSource } from "./openapi-spec.service.ts";

/** `versionSourceUrl`: a version's source as a file, for tools and "Try it" consoles. */
export const openApiSpecPlainRoutes: PlainRoute[] = [
  {
    method: "GET",
    pattern: /^\/openapi\/([^/]+)\/versions\/([^/]+)$/,
    async handle(_request, [specId = "", versionId = ""], ctx) {
      const { source, contentType } = await readVersionSource(ctx, specId, versionId);
      return new Response(source, { status: 200, headers: { "content-type": contentType } });
    },
  },
];
