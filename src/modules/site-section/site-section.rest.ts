import type { RestRoute } from "../../rest/route.ts";

export const siteSectionRoutes: RestRoute[] = [];
