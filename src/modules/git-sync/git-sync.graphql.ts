import type { GitSync } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { RevisionRef, revisionOf } from "../content/content.public.ts";
import { getSpace, SpaceRef, spaceGitSync } from "../space/space.public.ts";
import {
  deleteLegacyGitInstallation,
  exportSchema,
  exportToGitRepository,
  getSpaceGitInfo,
  gitInfoSchema,
  importGitRepository,
  importSchema,
  operationFieldsSchema,
  repoNameOf,
} from "./git-sync.service.ts";

const GitSyncDirectionEnum = publicEnum<string>("GitSyncDirection", "Which way a Git sync operation goes.", {
  import: "From the repository into the space.",
  export: "From the space into the repository.",
});

const GitSyncOperationStateEnum = publicEnum<string>("GitSyncOperationState", "Where a Git sync operation stands.", {
  running: "Running now.",
  success: "Finished successfully.",
  failure: "Failed; error says why.",
});

const GitProviderEnum = publicEnum<string>("GitProvider", "A Git host.", {
  github: "GitHub.",
  gitlab: "GitLab.",
  "github-legacy": "GitHub, synced through the former integration.",
});

const GitSyncOperationRef = builder.objectRef<GitSync>("GitSyncOperation").implement({
  description: "The latest import or export of the space: failures stay visible here until the next operation.",
  fields: (t) => ({
    direction: t.expose("operationDirection", { type: GitSyncDirectionEnum, description: "Import or export." }),
    state: t.expose("operationState", { type: GitSyncOperationStateEnum, description: "Where it stands." }),
    error: t.exposeString("operationError", { nullable: true, description: "Why it failed (state failure)." }),
    skipped: t.exposeBoolean("operationSkipped", {
      description: "True when it did nothing: a newer operation (by timestamp) was already applied.",
    }),
    commit: t.exposeString("commitOid", { nullable: true, description: "The commit last imported or exported." }),
    revisionId: t.exposeID("operationRevisionId", {
      nullable: true,
      description: "Id of the revision an import made (the id of `revision`); null for exports.",
    }),
    revision: t.field({
      type: RevisionRef,
      nullable: true,
      description: "The revision an import made; null for exports.",
      resolve: (sync, _args, ctx) => (sync.operationRevisionId ? revisionOf(ctx, sync.operationRevisionId) : null),
    }),
    startedAt: t.expose("operationStartedAt", { type: "DateTime", description: "When it was queued." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When its state last changed." }),
    completedAt: t.expose("operationCompletedAt", {
      type: "DateTime",
      nullable: true,
      description: "When it succeeded or failed; null while running.",
    }),
  }),
});

const GitSyncStateRef = builder.objectRef<GitSync>("GitSyncState").implement({
  description:
    "The Git repository a space is synchronized with (never with credentials). Readable by whoever may read the " +
    "space.",
  fields: (t) => ({
    repoName: t.string({
      description: "owner/name: the last two path segments of the repository URL, without .git.",
      resolve: (sync) => repoNameOf(sync.url),
    }),
    installationProvider: t.expose("provider", {
      type: GitProviderEnum,
      nullable: true,
      description: "The Git host; null when none was given.",
    }),
    integration: t.string({
      description: "The provider (github, gitlab or github-legacy), or git when none was given.",
      resolve: (sync) => sync.provider ?? "git",
    }),
    url: t.string({
      description: "The repository tree URL (gitInfo.url or repoTreeURL), else the repository URL.",
      resolve: (sync) => sync.treeUrl ?? sync.url,
    }),
    ref: t.exposeString("ref", { description: "The branch, as refs/heads/<branch>." }),
    updatedAt: t.expose("updatedAt", { type: "DateTime", description: "When the synchronization last changed." }),
    operation: t.field({
      type: GitSyncOperationRef,
      description: "The latest import or export.",
      resolve: (sync) => sync,
    }),
  }),
});

builder.objectFields(SpaceRef, (t) => ({
  gitSync: t.field({
    type: GitSyncStateRef,
    nullable: true,
    description: "The Git repository the space is synchronized with; null when none.",
    resolve: (space, _args, ctx) => spaceGitSync(ctx, space),
  }),
  gitInfo: t.field({
    type: GitSyncStateRef,
    nullable: true,
    description: "Like gitSync: null when the space has no Git repository (getSpaceGitInfo).",
    resolve: (space, _args, ctx) => getSpaceGitInfo(ctx, space.id),
  }),
}));

const GitInfoInput = builder.inputType("GitSyncInfoInput", {
  description: "How the repository is shown on the space.",
  fields: (t) => ({
    provider: t.field({
      type: GitProviderEnum,
      description: describeInputField(gitInfoSchema, "provider"),
      // Import and export share this input, and check it with the fields they share.
      extensions: checkedByService(operationFieldsSchema, 2),
    }),
    url: t.string({ description: describeInputField(gitInfoSchema, "url") }),
  }),
});

const operation = (key: keyof typeof importSchema.shape) => describeInputField(importSchema, key);

type InputFields = Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0];

/** The fields import and export share (the public API's ImportGitRepository and ExportToGitRepository). */
const gitOperationFields = (t: InputFields) => ({
  url: t.string({ required: true, description: operation("url") }),
  ref: t.string({ required: true, description: operation("ref") }),
  repoTreeURL: t.string({ description: operation("repoTreeURL") }),
  repoCommitURL: t.string({ description: operation("repoCommitURL") }),
  repoProjectDirectory: t.string({ description: operation("repoProjectDirectory") }),
  // The generated limits of an ISO date-time are its whole regular expression: the format is named instead.
  timestamp: t.field({
    type: "DateTime",
    description: `${importSchema.shape.timestamp.description}. An ISO 8601 date-time with offset.`,
    // REST refuses what the service refuses (a date-time without offset too), in its words.
    extensions: checkedByService(operationFieldsSchema, 1, importSchema.shape.timestamp),
  }),
  force: t.boolean({ description: operation("force") }),
  gitInfo: t.field({ type: GitInfoInput, description: operation("gitInfo") }),
});

/** The operation as the service checks it: the timestamp as the ISO text it validates. */
const operationInput = <Input extends { timestamp?: Date | null }>(input: Input) => ({
  ...input,
  timestamp: input.timestamp instanceof Date ? input.timestamp.toISOString() : input.timestamp,
});

const ImportGitRepositoryInput = builder.inputType("ImportGitRepositoryInput", {
  description: "A Git branch to import as the space's content.",
  fields: (t) => ({ ...gitOperationFields(t), standalone: t.boolean({ description: operation("standalone") }) }),
});

const ExportToGitRepositoryInput = builder.inputType("ExportToGitRepositoryInput", {
  description: "A Git branch to export the space's content to, as one commit.",
  fields: (t) => ({
    ...gitOperationFields(t),
    commitMessage: t.string({ required: true, description: describeInputField(exportSchema, "commitMessage") }),
  }),
});

const spaceArg = builder.args((t) => ({ spaceId: t.id({ required: true, description: "The space." }) }));
const createRole = "Needs the create role on the space.";

const ImportGitRepositoryPayloadRef = payloadType<{ space: typeof SpaceRef.$inferType }>("importGitRepository", {
  space: { type: SpaceRef, description: "The space; its `gitSync` shows the queued import." },
});

const ExportToGitRepositoryPayloadRef = payloadType<{ space: typeof SpaceRef.$inferType }>("exportToGitRepository", {
  space: { type: SpaceRef, description: "The space; its `gitSync` shows the queued export." },
});

const DeleteLegacyGitInstallationPayloadRef = payloadType<{ space: typeof SpaceRef.$inferType }>(
  "deleteLegacyGitInstallation",
  {
    space: { type: SpaceRef, description: "The space, without its legacy installation." },
  },
);

builder.mutationFields((t) => ({
  importGitRepository: t.field({
    type: ImportGitRepositoryPayloadRef,
    ...describeMutation(
      "Queues an import of a Git branch; the space's gitSync shows its progress and outcome (importGitRepository). " +
        createRole,
      {
        NOT_FOUND: "no such space for the caller",
        FORBIDDEN: "below the create role on the space",
        BAD_USER_INPUT: "invalid input",
      },
    ),
    args: {
      ...spaceArg,
      input: t.arg({ type: ImportGitRepositoryInput, required: true, description: "The branch to import." }),
    },
    resolve: async (_root, args, ctx) => {
      await importGitRepository(ctx, args.spaceId, operationInput(args.input));
      return { space: await getSpace(ctx, args.spaceId) };
    },
  }),
  exportToGitRepository: t.field({
    type: ExportToGitRepositoryPayloadRef,
    ...describeMutation(
      "Queues an export of the space's content as one commit; the space's gitSync shows the outcome " +
        `(exportToGitRepository). ${createRole}`,
      {
        NOT_FOUND: "no such space for the caller",
        FORBIDDEN: "below the create role on the space",
        BAD_USER_INPUT: "invalid input",
      },
    ),
    args: {
      ...spaceArg,
      input: t.arg({ type: ExportToGitRepositoryInput, required: true, description: "The branch to export to." }),
    },
    resolve: async (_root, args, ctx) => {
      await exportToGitRepository(ctx, args.spaceId, operationInput(args.input));
      return { space: await getSpace(ctx, args.spaceId) };
    },
  }),
  deleteLegacyGitInstallation: t.field({
    type: DeleteLegacyGitInstallationPayloadRef,
    ...describeMutation(
      "Removes the space's legacy (github-legacy) Git installation so it can move to a Git integration; succeeds " +
        "also when it had none (deleteLegacyGitInstallation). Needs the admin role on the space.",
      { NOT_FOUND: "no such space for the caller", FORBIDDEN: "not an admin of the space" },
    ),
    args: spaceArg,
    resolve: async (_root, args, ctx) => {
      await deleteLegacyGitInstallation(ctx, args.spaceId);
      return { space: await getSpace(ctx, args.spaceId) };
    },
  }),
}));
