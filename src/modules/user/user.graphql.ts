import type { ApiToken, User } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { edgeOf } from "../../paging/pagination.ts";
import {
  apiTokenOrder,
  createViewerApiToken,
  getViewerUser,
  listViewerApiTokens,
  loadViewerApiTokens,
  loadVisibleUsers,
  revokeViewerApiToken,
  tokenLabelSchema,
} from "./user.service.ts";

export const UserRef = builder.objectRef<User>("User");

builder.node(UserRef, {
  description: "A person. Visible to themselves and to members of the organizations they belong to.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleUsers(ctx, ids),
  fields: (t) => ({
    displayName: t.exposeString("displayName", { description: "The person's name (1..100 characters)." }),
    email: t.exposeString("email", { description: "Their email address, in lower case." }),
    photoURL: t.exposeString("photoURL", { nullable: true, description: "URL of their photo; null if none." }),
    urls: t.field({
      type: builder.objectRef<{ location: string }>("UserURLs").implement({
        description: "Where a user is found.",
        fields: (u) => ({
          location: u.expose("location", { type: "URL", description: "The user's URL in the REST API." }),
        }),
      }),
      description: "Where the user is found.",
      resolve: (user, _args, ctx) => ({ location: `${ctx.config.publicUrl}/v1/users/${user.id}` }),
    }),
  }),
});

const ApiTokenRef = builder.node(builder.objectRef<ApiToken>("APIToken"), {
  description: "An API token of the caller. The secret itself is shown only once, when it is created.",
  id: idColumn,
  loadMany: (ids, ctx) => loadViewerApiTokens(ctx, ids),
  fields: (t) => ({
    userId: t.exposeID("userId", { description: "Id of the user it acts as (the id of `user`): the caller." }),
    user: t.field({
      type: UserRef,
      description: "The user it acts as: the caller (only its owner reads a token).",
      resolve: (_token, _args, ctx) => getViewerUser(ctx),
    }),
    label: t.exposeString("label", { nullable: true, description: "The name given at creation; null if none." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created (ISO 8601)." }),
    revokedAt: t.expose("revokedAt", {
      type: "DateTime",
      nullable: true,
      description: "When it was revoked (ISO 8601); null while it works.",
    }),
  }),
});

interface ViewerShape {
  kind: "viewer";
}

/** The edge of the viewer's `apiTokens`, shared with `createAPIToken`'s payload. */
const ApiTokenEdgeRef = builder.edgeObject({ type: ApiTokenRef, name: "ViewerAPITokensConnectionEdge" });

const ViewerRef = builder.objectRef<ViewerShape>("Viewer").implement({
  description: "The caller: the user behind the token, and that user's tokens.",
  fields: (t) => ({
    user: t.field({
      type: UserRef,
      description: "The caller's user.",
      resolve: (_viewer, _args, ctx) => getViewerUser(ctx),
    }),
    apiTokens: t.connection(
      {
        type: ApiTokenRef,
        description: "The caller's API tokens, revoked ones too, newest first.",
        resolve: (_viewer, args, ctx) => listViewerApiTokens(ctx, args),
      },
      { name: "ViewerAPITokensConnection" },
      ApiTokenEdgeRef,
    ),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef,
    description: "The authenticated caller (a token or an SSO session; unauthenticated requests are refused).",
    resolve: async (_root, _args, ctx) => {
      await getViewerUser(ctx);
      return { kind: "viewer" } as const;
    },
  }),
}));

const CreateApiTokenInput = builder.inputType("CreateAPITokenInput", {
  description: "A new API token.",
  fields: (t) => ({ label: t.string({ description: describeInputField(tokenLabelSchema, "label") }) }),
});

const CreateApiTokenPayloadRef = payloadType<{
  token: string;
  apiToken: typeof ApiTokenRef.$inferType;
  apiTokenEdge: typeof ApiTokenEdgeRef.$inferType;
}>("createAPIToken", {
  token: {
    type: "String",
    description: "The secret, sent as `Authorization: Bearer <token>`: shown now and never again.",
  },
  apiToken: { type: ApiTokenRef, description: "The token's record." },
  apiTokenEdge: { type: ApiTokenEdgeRef, description: "The token's edge in the viewer's `apiTokens`." },
});

const RevokeApiTokenPayloadRef = payloadType<{ apiToken: typeof ApiTokenRef.$inferType }>("revokeAPIToken", {
  apiToken: { type: ApiTokenRef, description: "The token, revoked." },
});

builder.mutationFields((t) => ({
  createAPIToken: t.field({
    type: CreateApiTokenPayloadRef,
    ...describeMutation("Creates an API token for the caller, acting as the caller; it does not expire.", {
      BAD_USER_INPUT: "invalid input",
      TOO_MANY_API_TOKENS: "the caller already holds MAX_API_TOKENS_PER_USER (50) active tokens",
    }),
    args: { input: t.arg({ type: CreateApiTokenInput, description: "The new token; omitted: no label." }) },
    resolve: async (_root, args, ctx) => {
      const created = await createViewerApiToken(ctx, args.input ?? {});
      return { ...created, apiTokenEdge: edgeOf(apiTokenOrder, created.apiToken) };
    },
  }),
  revokeAPIToken: t.field({
    type: RevokeApiTokenPayloadRef,
    ...describeMutation("Revokes one of the caller's tokens; requests with it then get 401.", {
      NOT_FOUND: "no such token of the caller",
    }),
    args: { id: t.arg.id({ required: true, description: "The token's id (not its secret)." }) },
    resolve: async (_root, args, ctx) => ({ apiToken: await revokeViewerApiToken(ctx, args.id) }),
  }),
}));
