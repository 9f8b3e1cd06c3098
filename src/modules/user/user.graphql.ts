import type { ApiToken, User } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import {
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
  id: { resolve: (user) => user.id },
  loadMany: (ids, ctx) => loadVisibleUsers(ctx, ids),
  fields: (t) => ({
    displayName: t.exposeString("displayName", { description: "The person's name (1..100 characters)." }),
    email: t.exposeString("email", { description: "Their email address, in lower case." }),
    photoURL: t.exposeString("photoURL", { nullable: true, description: "URL of their photo; null if none." }),
    urls: t.field({
      type: builder.objectRef<{ location: string }>("UserUrls").implement({
        description: "Where a user is found.",
        fields: (u) => ({ location: u.exposeString("location", { description: "The user's URL in the REST API." }) }),
      }),
      description: "Where the user is found.",
      resolve: (user, _args, ctx) => ({ location: `${ctx.config.publicUrl}/v1/users/${user.id}` }),
    }),
  }),
});

const ApiTokenRef = builder.node(builder.objectRef<ApiToken>("ApiToken"), {
  description: "An API token of the caller. The secret itself is shown only once, when it is created.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadViewerApiTokens(ctx, ids),
  fields: (t) => ({
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

const ViewerRef = builder.objectRef<ViewerShape>("Viewer").implement({
  description: "The caller: the user behind the token, and that user's tokens.",
  fields: (t) => ({
    user: t.field({
      type: UserRef,
      description: "The caller's user.",
      resolve: (_viewer, _args, ctx) => getViewerUser(ctx),
    }),
    apiTokens: t.connection({
      type: ApiTokenRef,
      description: "The caller's API tokens, revoked ones too, newest first.",
      resolve: (_viewer, args, ctx) => listViewerApiTokens(ctx, args),
    }),
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

const CreatedApiTokenRef = builder.objectRef<{ token: string; apiToken: ApiToken }>("CreatedApiToken").implement({
  description: "A new API token with its secret.",
  fields: (t) => ({
    token: t.exposeString("token", {
      description: "The secret, sent as `Authorization: Bearer <token>`: shown now and never again.",
    }),
    apiToken: t.field({
      type: ApiTokenRef,
      description: "The token's record.",
      resolve: (created) => created.apiToken,
    }),
  }),
});

const CreateApiTokenInput = builder.inputType("CreateApiTokenInput", {
  description: "A new API token.",
  fields: (t) => ({ label: t.string({ description: describeInputField(tokenLabelSchema, "label") }) }),
});

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: CreatedApiTokenRef,
    description: "Creates an API token for the caller, acting as the caller; it does not expire.",
    args: { input: t.arg({ type: CreateApiTokenInput, description: "The new token; omitted: no label." }) },
    resolve: (_root, args, ctx) => createViewerApiToken(ctx, args.input ?? {}),
  }),
  revokeApiToken: t.field({
    type: ApiTokenRef,
    description: "Revokes one of the caller's tokens; requests with it then get 401.",
    args: { id: t.arg.id({ required: true, description: "The token's id (not its secret)." }) },
    resolve: (_root, args, ctx) => revokeViewerApiToken(ctx, args.id),
  }),
}));
