import type { ApiToken, User } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import {
  createViewerApiToken,
  getViewerUser,
  listViewerApiTokens,
  loadViewerApiTokens,
  loadVisibleUsers,
  revokeViewerApiToken,
} from "./user.service.ts";

export const UserRef = builder.objectRef<User>("User");

builder.node(UserRef, {
  description: "A person. Visible to themselves and to members of the organizations they belong to.",
  id: { resolve: (user) => user.id },
  loadMany: (ids, ctx) => loadVisibleUsers(ctx, ids),
  fields: (t) => ({
    displayName: t.exposeString("displayName"),
    email: t.exposeString("email"),
    photoURL: t.exposeString("photoURL", { nullable: true }),
    urls: t.field({
      type: builder.objectRef<{ location: string }>("UserUrls").implement({
        fields: (u) => ({ location: u.exposeString("location") }),
      }),
      resolve: (user, _args, ctx) => ({ location: `${ctx.config.publicUrl}/v1/users/${user.id}` }),
    }),
  }),
});

const ApiTokenRef = builder.node(builder.objectRef<ApiToken>("ApiToken"), {
  description: "An API token of the caller. The secret itself is shown only once, when it is created.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadViewerApiTokens(ctx, ids),
  fields: (t) => ({
    label: t.exposeString("label", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
  }),
});

interface ViewerShape {
  kind: "viewer";
}

const ViewerRef = builder.objectRef<ViewerShape>("Viewer").implement({
  description: "The caller: the user behind the token, and that user's tokens.",
  fields: (t) => ({
    user: t.field({ type: UserRef, resolve: (_viewer, _args, ctx) => getViewerUser(ctx) }),
    apiTokens: t.connection({
      type: ApiTokenRef,
      resolve: (_viewer, args, ctx) => listViewerApiTokens(ctx, args),
    }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef,
    description: "The authenticated caller.",
    resolve: async (_root, _args, ctx) => {
      await getViewerUser(ctx);
      return { kind: "viewer" } as const;
    },
  }),
}));

const CreatedApiTokenRef = builder.objectRef<{ token: string; apiToken: ApiToken }>("CreatedApiToken").implement({
  fields: (t) => ({
    token: t.exposeString("token", { description: "The secret: shown now and never again." }),
    apiToken: t.field({ type: ApiTokenRef, resolve: (created) => created.apiToken }),
  }),
});

const CreateApiTokenInput = builder.inputType("CreateApiTokenInput", {
  fields: (t) => ({ label: t.string() }),
});

builder.mutationFields((t) => ({
  createApiToken: t.field({
    type: CreatedApiTokenRef,
    description: "Creates a token for the caller.",
    args: { input: t.arg({ type: CreateApiTokenInput }) },
    resolve: (_root, args, ctx) => createViewerApiToken(ctx, args.input ?? {}),
  }),
  revokeApiToken: t.field({
    type: ApiTokenRef,
    description: "Revokes one of the caller's tokens; requests with it then get 401.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => revokeViewerApiToken(ctx, String(args.id)),
  }),
}));
