import type { Site } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { loadVisibleSites } from "./site.service.ts";

export const SiteRef = builder.objectRef<Site>("Site");

builder.node(SiteRef, {
  description: "A published documentation site of an organization.",
  id: { resolve: (site) => site.id },
  loadMany: (ids, ctx) => loadVisibleSites(ctx, ids),
  fields: (t) => ({
    object: t.string({ resolve: () => "site" }),
    title: t.exposeString("title"),
    type: t.exposeString("type"),
    visibility: t.exposeString("visibility"),
    published: t.exposeBoolean("published"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});
