import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "../graphql/builder.ts";
import "../graphql/scalars.ts";
import "../graphql/connections.ts";
import "../graphql/rate-limit.ts";
import "../modules/organization/organization.graphql.ts";
import "../modules/organization/link-invite.graphql.ts";
import "../modules/user/user.graphql.ts";
import "../modules/member/member.graphql.ts";
import "../modules/team/team.graphql.ts";
import "../modules/space/space.graphql.ts";
import "../modules/space/space-list.graphql.ts";
import "../modules/space/space-write.graphql.ts";
import "../modules/site-structure/site.graphql.ts";
import "../modules/site-structure/site-write.graphql.ts";
import "../modules/site-structure/share-link.graphql.ts";
import "../modules/site-structure/site-space.graphql.ts";
import "../modules/site-structure/site-section.graphql.ts";
import "../modules/site-structure/section-group.graphql.ts";
import "../modules/site-structure/published.graphql.ts";
import "../modules/site-structure/site-parents.graphql.ts";
import "../modules/content/content.graphql.ts";
import "../modules/content/content-write.graphql.ts";
import "../modules/change-request/change-request.graphql.ts";
import "../modules/change-request/change-request-write.graphql.ts";
import "../modules/change-request/change-request-review.graphql.ts";
import "../modules/change-request/change-request-events.graphql.ts";
import "../modules/template/template.graphql.ts";
import "../modules/translation/translation.graphql.ts";
import "../modules/openapi-spec/openapi-spec.graphql.ts";
import "../modules/openapi-spec/openapi-spec-write.graphql.ts";
import "../modules/saml-provider/saml-provider.graphql.ts";
import "../modules/comment/comment.graphql.ts";
import "../modules/comment/comment-write.graphql.ts";
import "../modules/link/link.graphql.ts";
import "../modules/search/search.graphql.ts";
import "../modules/job/job.graphql.ts";
import "../modules/git-sync/git-sync.graphql.ts";

builder.queryType({
  description: "Reads: nouns on the graph; each field's description names its public operation id.",
});
builder.mutationType({
  description:
    "Writes, named for what they do (each description names its public operation id); each answers its own payload.",
});
builder.subscriptionType({
  description: "Live updates over server-sent events (`Accept: text/event-stream`), from every instance.",
});

export const schema = builder.toSchema({ sortSchema: true });

/** The SDL committed as `schema.graphql` (sorted, so diffs show real changes only). */
export function printSortedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
