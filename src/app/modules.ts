import { changeRequestModule } from "../modules/change-request/change-request.module.ts";
import { commentModule } from "../modules/comment/comment.module.ts";
import { contentModule } from "../modules/content/content.module.ts";
import { demoModule } from "../modules/demo/demo.module.ts";
import { gitSyncModule } from "../modules/git-sync/git-sync.module.ts";
import { idempotencyModule } from "../modules/idempotency/idempotency.module.ts";
import { jobModule } from "../modules/job/job.module.ts";
import { linkModule } from "../modules/link/link.module.ts";
import { memberModule } from "../modules/member/member.module.ts";
import type { ModuleManifest } from "../modules/module-manifest.ts";
import { openapiSpecModule } from "../modules/openapi-spec/openapi-spec.module.ts";
import { organizationModule } from "../modules/organization/organization.module.ts";
import { samlProviderModule } from "../modules/saml-provider/saml-provider.module.ts";
import { searchModule } from "../modules/search/search.module.ts";
import { siteStructureModule } from "../modules/site-structure/site-structure.module.ts";
import { spaceModule } from "../modules/space/space.module.ts";
import { teamModule } from "../modules/team/team.module.ts";
import { templateModule } from "../modules/template/template.module.ts";
import { translationModule } from "../modules/translation/translation.module.ts";
import { userModule } from "../modules/user/user.module.ts";
import type { RestRoute } from "../rest/route.ts";
import type { PlainRoute } from "../web/plain-routes.ts";

/**
 * Every module of the service, the one list that names them (a new module is one folder and one line here). Their
 * REST routes are matched in this order, so it follows the REST reference's: organizations first.
 */
export const modules: readonly ModuleManifest[] = [
  organizationModule,
  memberModule,
  teamModule,
  spaceModule,
  siteStructureModule,
  contentModule,
  templateModule,
  changeRequestModule,
  translationModule,
  openapiSpecModule,
  samlProviderModule,
  commentModule,
  linkModule,
  searchModule,
  gitSyncModule,
  userModule,
  jobModule,
  demoModule,
  idempotencyModule,
];

/** The `/v1` routes of `list`, in its order. */
export const restRoutesOf = (list: readonly ModuleManifest[]): readonly RestRoute[] =>
  list.flatMap((module) => module.restRoutes ?? []);

/** The endpoints of `list` outside GraphQL and REST. */
export const plainRoutesOf = (list: readonly ModuleManifest[]): readonly PlainRoute[] =>
  list.flatMap((module) => module.plainRoutes ?? []);

/** Every `/v1` route the server serves. */
export const restRoutes = restRoutesOf(modules);
