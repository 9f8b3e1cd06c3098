import type { Translation } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput, timeRangeKeys } from "../../graphql/list-order.ts";
import { idColumn } from "../../graphql/node-ids.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { viewerCanFields } from "../../graphql/viewer-can.ts";
import { edgeOf } from "../../paging/pagination.ts";
import { RevisionRef, revisionOf } from "../content/content.public.ts";
import { addOrganizationParent, OrganizationRef } from "../organization/organization.public.ts";
import { LanguageEnum, SpaceRef, visibleSpaceLoader } from "../space/space.public.ts";
import type { TranslationProvider } from "./providers.ts";
import { translationProvider } from "./providers.ts";
import {
  createTranslation,
  createTranslationSchema,
  deleteTranslation,
  getTranslation,
  listTranslations,
  loadVisibleTranslations,
  runTranslation,
  translationFilterSchema,
  translationListOrder,
  translationOrder,
  translationPermissions,
  translationSourceSchema,
  updateTranslation,
  updateTranslationSchema,
} from "./translation.service.ts";

const TranslationRef = builder.node(builder.objectRef<Translation>("Translation"), {
  description:
    "A space kept translated into another language; each run writes a new revision of the result space. Readable " +
    "by members of the organization; its create role changes and runs it.",
  id: idColumn,
  loadMany: (ids, ctx) => loadVisibleTranslations(ctx, ids),
  fields: (t) => ({
    status: t.expose("status", { type: TranslationStatusEnum, description: "Where its latest run is." }),
    failureReason: t.exposeString("failureReason", {
      nullable: true,
      description: "Why the latest run failed (at most 500 characters); null unless status is failed.",
    }),
    provider: t.field({
      type: TranslationProviderEnum,
      description: "Who translates.",
      resolve: (_translation, _args, ctx): TranslationProvider["name"] => translationProvider(ctx.config).name,
    }),
    source: t.field({
      type: builder.objectRef<{ space: string; language: string }>("TranslationSource").implement({
        description: "The space a translation translates.",
        fields: (s) => ({
          spaceId: s.exposeID("space", { description: "Id of the space (the id of `space`)." }),
          space: s.field({
            type: SpaceRef,
            nullable: true,
            description: "The space; null when the viewer may not read it.",
            resolve: (source, _args, ctx) => visibleSpaceLoader(ctx).load(source.space),
          }),
          language: s.expose("language", { type: LanguageEnum, description: "The language it is written in." }),
        }),
      }),
      description: "The space translated and its language.",
      resolve: (translation) => ({ space: translation.sourceSpaceId, language: translation.sourceLanguage }),
    }),
    language: t.expose("language", { type: LanguageEnum, description: "The language translated into." }),
    instructions: t.field({
      type: "JSON",
      description: "Guidance for the translator, as a rich-text document.",
      resolve: (translation) => translation.instructions,
    }),
    result: t.field({
      type: builder.objectRef<{ space: string; revision: string }>("TranslationResult").implement({
        description: "The translated space a translation's runs write.",
        fields: (r) => ({
          spaceId: r.exposeID("space", { description: "Id of the translated space (the id of `space`)." }),
          space: r.field({
            type: SpaceRef,
            nullable: true,
            description: "The translated space; null when the viewer may not read it.",
            resolve: (result, _args, ctx) => visibleSpaceLoader(ctx).load(result.space),
          }),
          revisionId: r.exposeID("revision", {
            description: "Id of the revision the latest run wrote (the id of `revision`).",
          }),
          revision: r.field({
            type: RevisionRef,
            nullable: true,
            description: "The revision the latest run wrote; null when the viewer may not read its space.",
            resolve: async (result, _args, ctx) =>
              (await visibleSpaceLoader(ctx).load(result.space)) ? revisionOf(ctx, result.revision) : null,
          }),
        }),
      }),
      nullable: true,
      description: "The translated space; null until a run completed.",
      resolve: (translation) =>
        translation.resultSpaceId && translation.resultRevisionId
          ? { space: translation.resultSpaceId, revision: translation.resultRevisionId }
          : null,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When it was created." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When it or its status last changed." }),
    stats: t.field({
      type: builder.objectRef<Record<string, number>>("TranslationStats").implement({
        description: "What a translation's runs did.",
        fields: (s) => ({
          runs: s.exposeInt("runs", { description: "Runs completed." }),
          totalWords: s.exposeInt("totalWords", { description: "Words translated by all runs." }),
          totalPages: s.exposeInt("totalPages", { description: "Distinct pages translated by all runs." }),
          totalDuration: s.exposeInt("totalDuration", { description: "Time of all runs, in seconds." }),
          latestRunDuration: s.exposeInt("latestRunDuration", { description: "Time of the latest run, in seconds." }),
          latestPages: s.exposeInt("latestPages", { description: "Pages translated by the latest run." }),
          latestWords: s.exposeInt("latestWords", { description: "Words translated by the latest run." }),
        }),
      }),
      description: "What its runs did.",
      resolve: (translation) => ({
        runs: translation.runs,
        totalWords: translation.totalWords,
        totalPages: translation.translatedPageIds.length,
        totalDuration: translation.totalDuration,
        latestRunDuration: translation.latestRunDuration,
        latestPages: translation.latestPages,
        latestWords: translation.latestWords,
      }),
    }),
    ...viewerCanFields(t, (translation, ctx) => translationPermissions(ctx, translation), {
      viewerCanView: ["view", "Whether the viewer may read it: read role in the organization."],
      viewerCanUpdate: ["edit", "Whether the viewer may change, run and delete it: create role in the organization."],
    }),
    urls: t.field({
      type: builder.objectRef<{ location: string }>("TranslationURLs").implement({
        description: "Addresses of a translation.",
        fields: (u) => ({
          location: u.expose("location", { type: "URL", description: "The translation on this server's API." }),
        }),
      }),
      description: "Where the translation is.",
      resolve: (translation, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${translation.organizationId}/translations/${translation.id}`,
      }),
    }),
  }),
});

const TranslationStatusEnum = publicEnum<string>("TranslationStatus", "Where a translation's latest run is.", {
  pending: "Queued.",
  running: "Being translated.",
  completed: "Done: the target space holds the translation.",
  failed: "Out of attempts; failureReason says why.",
});

const TranslationProviderEnum = publicEnum("TranslationProvider", "Who translates.", {
  "pseudo-localization": "Built in and offline: makes text look foreign, not a translation.",
  libretranslate: "A machine-translation API speaking LibreTranslate's protocol.",
  openai: "An OpenAI-compatible chat endpoint.",
});

const TranslationOrderInput = orderInput("Translation", "translations", translationListOrder.fields);

const translationFilter = (key: keyof typeof translationFilterSchema.shape) =>
  describeInputField(translationFilterSchema, key);

const TranslationFilterInput = builder.inputType("TranslationFilter", {
  description: "Conditions on the translations listed, all of which must hold.",
  fields: (t) => ({
    status: t.field({ type: TranslationStatusEnum, description: translationFilter("status") }),
    language: t.field({ type: LanguageEnum, description: translationFilter("language") }),
    ...dateBoundFields(t, translationFilterSchema, timeRangeKeys),
  }),
});

/** The edge of an organization's `translations`, shared with `createTranslation`'s payload. */
const TranslationEdgeRef = builder.edgeObject({ type: TranslationRef, name: "OrganizationTranslationsConnectionEdge" });

builder.objectFields(OrganizationRef, (t) => ({
  translations: t.connection(
    {
      type: TranslationRef,
      description: "The organization's translations (listTranslations). Members of the organization.",
      args: {
        orderBy: t.arg({ type: [TranslationOrderInput], description: orderByDescription("oldest first") }),
        filter: t.arg({ type: TranslationFilterInput, description: "Conditions on the translations listed." }),
      },
      resolve: (organization, args, ctx) => listTranslations(ctx, organization.id, args, args),
    },
    {},
    TranslationEdgeRef,
  ),
  translation: t.field({
    type: TranslationRef,
    description: "One of the organization's translations (getTranslation); an error (NOT_FOUND) when none.",
    args: { id: t.arg.id({ required: true, description: "The translation's id." }) },
    resolve: (organization, args, ctx) => getTranslation(ctx, organization.id, args.id),
  }),
}));

const create = (key: keyof typeof createTranslationSchema.shape) => describeInputField(createTranslationSchema, key);

const CreateTranslationInput = builder.inputType("CreateTranslationInput", {
  description: "A new translation of a space of the organization.",
  fields: (t) => ({
    source: t.field({
      required: true,
      type: builder.inputType("TranslationSourceInput", {
        description: "The space to translate.",
        fields: (s) => ({
          space: s.id({ required: true, description: describeInputField(translationSourceSchema, "space") }),
          language: s.field({
            type: LanguageEnum,
            required: true,
            description: describeInputField(translationSourceSchema, "language"),
            // The service checks the whole input: the language's problem comes with the others'.
            extensions: checkedByService(createTranslationSchema, 2),
          }),
        }),
      }),
      description: create("source"),
    }),
    language: t.field({
      type: LanguageEnum,
      required: true,
      description: create("language"),
      extensions: checkedByService(createTranslationSchema, 1),
    }),
    instructions: t.field({ type: "JSON", description: create("instructions") }),
  }),
});

const UpdateTranslationInput = builder.inputType("UpdateTranslationInput", {
  description: "New settings of a translation.",
  fields: (t) => ({
    instructions: t.field({
      type: "JSON",
      required: true,
      description: describeInputField(updateTranslationSchema, "instructions"),
    }),
  }),
});

const organizationArg = builder.args((t) => ({
  organizationId: t.id({ required: true, description: "The organization." }),
}));
const translationArgs = builder.args((t) => ({
  organizationId: t.id({
    description:
      "The organization. Optional: the translation names it; when given and not the translation's, NOT_FOUND.",
  }),
  translationId: t.id({ required: true, description: "The translation." }),
}));
const createRole = "Needs the create role in the organization.";

const CreateTranslationPayloadRef = payloadType<{
  translation: typeof TranslationRef.$inferType;
  translationEdge: typeof TranslationEdgeRef.$inferType;
}>("createTranslation", {
  translation: { type: TranslationRef, description: "The new translation." },
  translationEdge: {
    type: TranslationEdgeRef,
    description: "The new translation's edge in the organization's `translations`.",
  },
});

const UpdateTranslationPayloadRef = payloadType<{ translation: typeof TranslationRef.$inferType }>(
  "updateTranslation",
  {
    translation: { type: TranslationRef, description: "The translation, changed." },
  },
);

const DeleteTranslationPayloadRef = payloadType<{ deletedId: string }>("deleteTranslation", {
  deletedId: { type: "ID", description: "The deleted translation's id (for Relay's `@deleteRecord`)." },
});

const RunTranslationPayloadRef = payloadType<{ translation: typeof TranslationRef.$inferType }>("runTranslation", {
  translation: { type: TranslationRef, description: "The translation, queued to run." },
});

builder.mutationFields((t) => ({
  createTranslation: t.field({
    type: CreateTranslationPayloadRef,
    ...describeMutation(
      `Sets up a translation of a space; runTranslation writes it (createTranslation). ${createRole}`,
      {
        NOT_FOUND: "no such organization or space for the caller",
        FORBIDDEN: "below the create role",
        BAD_USER_INPUT: "invalid input",
      },
    ),
    args: {
      ...organizationArg,
      input: t.arg({ type: CreateTranslationInput, required: true, description: "What to translate." }),
    },
    resolve: async (_root, a, ctx) => {
      const translation = await createTranslation(ctx, a.organizationId, a.input);
      return { translation, translationEdge: edgeOf(translationOrder, translation) };
    },
  }),
  updateTranslation: t.field({
    type: UpdateTranslationPayloadRef,
    ...describeMutation(`Replaces the translator's instructions (updateTranslation). ${createRole}`, {
      NOT_FOUND: "no such organization or translation for the caller",
      FORBIDDEN: "below the create role",
      BAD_USER_INPUT: "invalid input",
    }),
    args: {
      ...translationArgs,
      input: t.arg({ type: UpdateTranslationInput, required: true, description: "The new settings." }),
    },
    resolve: async (_root, a, ctx) => ({
      translation: await updateTranslation(ctx, a.organizationId, a.translationId, a.input),
    }),
  }),
  deleteTranslation: t.field({
    type: DeleteTranslationPayloadRef,
    ...describeMutation(
      "Deletes the translation's settings; the translated space stays. True also when it did not exist, " +
        `given \`organizationId\` (deleteTranslation). ${createRole}`,
      { NOT_FOUND: "no such organization or translation for the caller", FORBIDDEN: "below the create role" },
    ),
    args: translationArgs,
    resolve: async (_root, a, ctx) => {
      await deleteTranslation(ctx, a.organizationId, a.translationId);
      return { deletedId: a.translationId };
    },
  }),
  runTranslation: t.field({
    type: RunTranslationPayloadRef,
    ...describeMutation(
      "Queues a run (one at a time); the translation's status and stats show its progress (runTranslation). " +
        createRole,
      {
        NOT_FOUND: "no such organization or translation for the caller",
        FORBIDDEN: "below the create role",
      },
    ),
    args: translationArgs,
    resolve: async (_root, a, ctx) => ({ translation: await runTranslation(ctx, a.organizationId, a.translationId) }),
  }),
}));

addOrganizationParent(TranslationRef);
