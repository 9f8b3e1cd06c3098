import type { Translation } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import type { TranslationProvider } from "./providers.ts";
import { translationProvider } from "./providers.ts";
import {
  createTranslation,
  deleteTranslation,
  getTranslation,
  listTranslations,
  loadVisibleTranslations,
  runTranslation,
  translationPermissions,
  updateTranslation,
} from "./translation.service.ts";

const TranslationRef = builder.node(builder.objectRef<Translation>("Translation"), {
  description: "A space kept translated into another language; each run writes a new revision of the result space.",
  id: { resolve: (row) => row.id },
  loadMany: (ids, ctx) => loadVisibleTranslations(ctx, ids),
  fields: (t) => ({
    status: t.exposeString("status", { description: "pending, running, completed, or failed (see failureReason)." }),
    failureReason: t.exposeString("failureReason", { nullable: true }),
    provider: t.string({
      description:
        "Who translates: pseudo-localization (built in, offline, not a translation), libretranslate or openai.",
      resolve: (_translation, _args, ctx): TranslationProvider["name"] => translationProvider(ctx.config).name,
    }),
    source: t.field({
      type: builder.objectRef<{ space: string; language: string }>("TranslationSource").implement({
        fields: (s) => ({ space: s.exposeString("space"), language: s.exposeString("language") }),
      }),
      resolve: (translation) => ({ space: translation.sourceSpaceId, language: translation.sourceLanguage }),
    }),
    language: t.exposeString("language"),
    instructions: t.field({ type: "JSON", resolve: (translation) => translation.instructions }),
    result: t.field({
      type: builder.objectRef<{ space: string; revision: string }>("TranslationResult").implement({
        fields: (r) => ({ space: r.exposeString("space"), revision: r.exposeString("revision") }),
      }),
      nullable: true,
      resolve: (translation) =>
        translation.resultSpaceId && translation.resultRevisionId
          ? { space: translation.resultSpaceId, revision: translation.resultRevisionId }
          : null,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    stats: t.field({
      type: builder.objectRef<Record<string, number>>("TranslationStats").implement({
        fields: (s) => ({
          runs: s.exposeInt("runs"),
          totalWords: s.exposeInt("totalWords"),
          totalPages: s.exposeInt("totalPages"),
          totalDuration: s.exposeInt("totalDuration", { description: "Seconds." }),
          latestRunDuration: s.exposeInt("latestRunDuration", { description: "Seconds." }),
          latestPages: s.exposeInt("latestPages"),
          latestWords: s.exposeInt("latestWords"),
        }),
      }),
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
    permissions: t.field({
      type: builder.objectRef<{ view: boolean; edit: boolean }>("TranslationPermissions").implement({
        fields: (p) => ({ view: p.exposeBoolean("view"), edit: p.exposeBoolean("edit") }),
      }),
      resolve: (translation, _args, ctx) => translationPermissions(ctx, translation),
    }),
    urls: t.field({
      type: builder.objectRef<{ location: string }>("TranslationUrls").implement({
        fields: (u) => ({ location: u.exposeString("location") }),
      }),
      resolve: (translation, _args, ctx) => ({
        location: `${ctx.config.publicUrl}/v1/orgs/${translation.organizationId}/translations/${translation.id}`,
      }),
    }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  translations: t.connection({
    type: TranslationRef,
    description: "listTranslations",
    resolve: (organization, args, ctx) => listTranslations(ctx, organization.id, args),
  }),
  translation: t.field({
    type: TranslationRef,
    description: "getTranslation",
    args: { id: t.arg.string({ required: true }) },
    resolve: (organization, args, ctx) => getTranslation(ctx, organization.id, args.id),
  }),
}));

const CreateTranslationInput = builder.inputType("CreateTranslationInput", {
  fields: (t) => ({
    source: t.field({
      required: true,
      type: builder.inputType("TranslationSourceInput", {
        fields: (s) => ({ space: s.string({ required: true }), language: s.string({ required: true }) }),
      }),
    }),
    language: t.string({ required: true, description: "The language to translate into." }),
    instructions: t.field({ type: "JSON", description: "A rich-text document of guidance for the translator." }),
  }),
});

const UpdateTranslationInput = builder.inputType("UpdateTranslationInput", {
  fields: (t) => ({ instructions: t.field({ type: "JSON", required: true }) }),
});

builder.mutationFields((t) => {
  const args = { organizationId: t.arg.id({ required: true }), translationId: t.arg.string({ required: true }) };
  return {
    createTranslation: t.field({
      type: TranslationRef,
      args: {
        organizationId: t.arg.id({ required: true }),
        input: t.arg({ type: CreateTranslationInput, required: true }),
      },
      resolve: (_root, a, ctx) => createTranslation(ctx, String(a.organizationId), a.input),
    }),
    updateTranslation: t.field({
      type: TranslationRef,
      args: { ...args, input: t.arg({ type: UpdateTranslationInput, required: true }) },
      resolve: (_root, a, ctx) => updateTranslation(ctx, String(a.organizationId), a.translationId, a.input),
    }),
    deleteTranslation: t.boolean({
      args,
      resolve: async (_root, a, ctx) => {
        await deleteTranslation(ctx, String(a.organizationId), a.translationId);
        return true;
      },
    }),
    runTranslation: t.boolean({
      description: "Queues a run; the translation's status and stats show its progress.",
      args,
      resolve: async (_root, a, ctx) => {
        await runTranslation(ctx, String(a.organizationId), a.translationId);
        return true;
      },
    }),
  };
});
