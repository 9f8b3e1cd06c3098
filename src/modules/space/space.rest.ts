import type { RestRoute } from "../../rest/route.ts";

export const spaceRoutes: RestRoute[] = [];
