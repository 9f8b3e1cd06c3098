import { builder } from "../../graphql/builder.ts";
import type { StructureUrls } from "./urls.ts";

export const structureUrlsRef = builder.objectRef<StructureUrls>("SiteStructureURLs").implement({
  description: "Where a section or site space is found.",
  fields: (t) => ({
    published: t.expose("published", {
      type: "URL",
      nullable: true,
      description: "Its URL under the site's published content; null while the site is not published.",
    }),
  }),
});
