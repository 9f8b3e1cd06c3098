import { changeRequestRoutes } from "./modules/change-request/change-request.rest.ts";
import { commentRoutes } from "./modules/comment/comment.rest.ts";
import { contentRoutes } from "./modules/content/content.rest.ts";
import { gitSyncRoutes } from "./modules/git-sync/git-sync.rest.ts";
import { linkRoutes } from "./modules/link/link.rest.ts";
import { memberRoutes } from "./modules/member/member.rest.ts";
import { openApiSpecRoutes } from "./modules/openapi-spec/openapi-spec.rest.ts";
import { organizationRoutes } from "./modules/organization/organization.rest.ts";
import { samlProviderRoutes } from "./modules/saml-provider/saml-provider.rest.ts";
import { searchRoutes } from "./modules/search/search.rest.ts";
import { sectionGroupRoutes } from "./modules/site-structure/section-group.rest.ts";
import { shareLinkRoutes } from "./modules/site-structure/share-link.rest.ts";
import { siteRoutes } from "./modules/site-structure/site.rest.ts";
import { siteSectionRoutes } from "./modules/site-structure/site-section.rest.ts";
import { siteSpaceRoutes } from "./modules/site-structure/site-space.rest.ts";
import { spaceRoutes } from "./modules/space/space.rest.ts";
import { teamRoutes } from "./modules/team/team.rest.ts";
import { templateRoutes } from "./modules/template/template.rest.ts";
import { translationRoutes } from "./modules/translation/translation.rest.ts";
import type { RestRoute } from "./rest/route.ts";

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
