import "./notice.graphql.ts";
import { Response } from "@whatwg-node/fetch";
import type { ModuleManifest } from "../../../src/modules/module-manifest.ts";
import { readNotice } from "./notice.service.ts";

/** A module as a new resource adds one: its folder, and this manifest for the module list. */
export const noticeModule: ModuleManifest = {
  name: "notice",
  restRoutes: [
    {
      method: "GET",
      path: "/orgs/{organizationId}/notice",
      operation: "getOrganizationNotice",
      status: 200,
      document: `query getOrganizationNotice($organizationId: ID!) {
        organizationNotice(organizationId: $organizationId) { object: __typename id text }
      }`,
      result: "organizationNotice",
    },
  ],
  plainRoutes: [
    {
      method: "GET",
      pattern: /^\/notices\/([^/]+)\.txt$/,
      async handle(_request, [organizationId = ""], ctx) {
        const notice = await readNotice(ctx, organizationId);
        return new Response(notice.text, { headers: { "content-type": "text/plain; charset=utf-8" } });
      },
    },
  ],
};
