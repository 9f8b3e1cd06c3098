import { memberRoutes } from "../modules/member/member.rest.ts";
import { organizationRoutes } from "../modules/organization/organization.rest.ts";
import { teamRoutes } from "../modules/team/team.rest.ts";
import type { RestRoute } from "./route.ts";

/** Every `/v1` route the server serves. */
export const restRoutes: readonly RestRoute[] = [...organizationRoutes, ...memberRoutes, ...teamRoutes];
