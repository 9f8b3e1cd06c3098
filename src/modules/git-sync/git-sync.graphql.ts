import type { GitSync } from "../../db/generated/client.ts";
import { builder } from "../../graphql/builder.ts";
import { SpaceRef } from "../space/space.graphql.ts";
import {
  deleteLegacyGitInstallation,
  exportToGitRepository,
  getSpaceGitInfo,
  importGitRepository,
  repoNameOf,
  spaceGitSync,
} from "./git-sync.service.ts";

const GitSyncOperationRef = builder.objectRef<GitSync>("GitSyncOperation").implement({
  description: "The latest import or export of the space: failures stay visible here until the next operation.",
  fields: (t) => ({
    direction: t.exposeString("operationDirection", { description: "import or export." }),
    state: t.exposeString("operationState", { description: "running, success or failure." }),
    error: t.exposeString("operationError", { nullable: true, description: "Why it failed (state failure)." }),
    skipped: t.exposeBoolean("operationSkipped", {
      description: "True when it did nothing: a newer operation (by timestamp) was already applied.",
    }),
    commit: t.exposeString("commitOid", { nullable: true, description: "The commit last imported or exported." }),
    revision: t.exposeString("operationRevisionId", { nullable: true, description: "The revision an import made." }),
    startedAt: t.expose("operationStartedAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    completedAt: t.expose("operationCompletedAt", { type: "DateTime", nullable: true }),
  }),
});

const GitSyncStateRef = builder.objectRef<GitSync>("GitSyncState").implement({
  description: "The Git repository a space is synchronized with (never with credentials).",
  fields: (t) => ({
    repoName: t.string({ resolve: (sync) => repoNameOf(sync.url) }),
    installationProvider: t.exposeString("provider", {
      nullable: true,
      description: "github, gitlab or github-legacy.",
    }),
    integration: t.string({ resolve: (sync) => sync.provider ?? "git" }),
    url: t.string({
      description: "The repository tree URL (gitInfo.url or repoTreeURL), else the repository URL.",
      resolve: (sync) => sync.treeUrl ?? sync.url,
    }),
    ref: t.exposeString("ref"),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    operation: t.field({ type: GitSyncOperationRef, resolve: (sync) => sync }),
  }),
});

builder.objectFields(SpaceRef, (t) => ({
  gitSync: t.field({
    type: GitSyncStateRef,
    nullable: true,
    description: "The Git repository the space is synchronized with; null when none.",
    resolve: (space, _args, ctx) => spaceGitSync(ctx, space.id),
  }),
  gitInfo: t.field({
    type: GitSyncStateRef,
    description: "getSpaceGitInfo: like gitSync, but an error (404) when the space has no Git repository.",
    resolve: (space, _args, ctx) => getSpaceGitInfo(ctx, space.id),
  }),
}));

const GitInfoInput = builder.inputType("GitSyncInfoInput", {
  fields: (t) => ({
    provider: t.string({ description: "github or gitlab." }),
    url: t.string({ description: "The repository's tree URL." }),
  }),
});

type InputFields = Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0];

/** The fields import and export share (the public API's ImportGitRepository and ExportToGitRepository). */
const gitOperationFields = (t: InputFields) => ({
  url: t.string({ required: true, description: "Repository URL (http(s):// or file://); may carry user:password." }),
  ref: t.string({ required: true, description: "refs/heads/<branch>." }),
  repoCacheID: t.string({ deprecationReason: "Not used: every operation fetches what it needs." }),
  repoTreeURL: t.string(),
  repoCommitURL: t.string({ description: "Prefix of commit URLs (revision git.url)." }),
  repoProjectDirectory: t.string(),
  timestamp: t.string({ description: "ISO 8601 time of the triggering event: older operations are skipped." }),
  force: t.boolean({ description: "Apply even when older than the last operation, or over a moved branch." }),
  gitInfo: t.field({ type: GitInfoInput }),
});

const ImportGitRepositoryInput = builder.inputType("ImportGitRepositoryInput", {
  fields: (t) => ({
    ...gitOperationFields(t),
    standalone: t.boolean({ description: "Make a revision without making it the space's content." }),
  }),
});

const ExportToGitRepositoryInput = builder.inputType("ExportToGitRepositoryInput", {
  fields: (t) => ({ ...gitOperationFields(t), commitMessage: t.string({ required: true }) }),
});

builder.mutationFields((t) => ({
  importGitRepository: t.boolean({
    description: "Queues an import of a Git ref; the space's gitSync shows its progress and outcome.",
    args: { spaceId: t.arg.id({ required: true }), input: t.arg({ type: ImportGitRepositoryInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      await importGitRepository(ctx, String(args.spaceId), args.input);
      return true;
    },
  }),
  exportToGitRepository: t.boolean({
    description: "Queues an export of the space's content as one commit; the space's gitSync shows the outcome.",
    args: {
      spaceId: t.arg.id({ required: true }),
      input: t.arg({ type: ExportToGitRepositoryInput, required: true }),
    },
    resolve: async (_root, args, ctx) => {
      await exportToGitRepository(ctx, String(args.spaceId), args.input);
      return true;
    },
  }),
  deleteLegacyGitInstallation: t.boolean({
    args: { spaceId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await deleteLegacyGitInstallation(ctx, String(args.spaceId));
      return true;
    },
  }),
}));
