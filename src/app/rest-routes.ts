import { changeRequestRoutes } from "../modules/change-request/change-request.public.ts";
import { commentRoutes } from "../modules/comment/comment.public.ts";
import { contentRoutes } from "../modules/content/content.public.ts";
import { gitSyncRoutes } from "../modules/git-sync/git-sync.public.ts";
import { linkRoutes } from "../modules/link/link.public.ts";
import { memberRoutes } from "../modules/member/member.public.ts";
import { openApiSpecRoutes } from "../modules/openapi-spec/openapi-spec.public.ts";
import { organizationRoutes } from "../modules/organization/organization.public.ts";
import { samlProviderRoutes } from "../modules/saml-provider/saml-provider.public.ts";
import { searchRoutes } from "../modules/search/search.public.ts";
import {
  sectionGroupRoutes,
  shareLinkRoutes,
  siteRoutes,
  siteSectionRoutes,
  siteSpaceRoutes,
} from "../modules/site-structure/site-structure.public.ts";
import { spaceRoutes } from "../modules/space/space.public.ts";
import { teamRoutes } from "../modules/team/team.public.ts";
import { templateRoutes } from "../modules/template/template.public.ts";
import { translationRoutes } from "../modules/translation/translation.public.ts";
import type { RestRoute } from "../rest/route.ts";

/** Every `/v1` route the server serves. */
export const restRoutes: readonly RestRoute[] = [
  ...organizationRoutes,
  ...memberRoutes,
  ...teamRoutes,
  ...spaceRoutes,
  ...siteRoutes,
  ...shareLinkRoutes,
  ...siteSectionRoutes,
  ...sectionGroupRoutes,
  ...siteSpaceRoutes,
  ...contentRoutes,
  ...templateRoutes,
  ...changeRequestRoutes,
  ...translationRoutes,
  ...openApiSpecRoutes,
  ...samlProviderRoutes,
  ...commentRoutes,
  ...linkRoutes,
  ...searchRoutes,
  ...gitSyncRoutes,
];
