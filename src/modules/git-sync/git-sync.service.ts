import { z } from "zod";
import { requireViewer } from "../../auth/access.ts";
import type { GitSync, Job, PrismaClient, Space } from "../../db/generated/client.ts";
import { enqueueJob, type ModuleJobs } from "../../jobs/queue.ts";
import { InvalidInputError } from "../../lib/errors.ts";
import { parseInput } from "../../lib/validation.ts";
import type { Config } from "../../platform/config.ts";
import { decryptSecret, encryptSecret } from "../../platform/secrets.ts";
import type { RequestContext } from "../../request/context.ts";
import { checkedAddress } from "../../web/safe-fetch.ts";
import { JobWorkRefusedError, mapTextsForJob, runJobWork } from "../../workers/job-work.ts";
import { WorkOutOfMemoryError, WorkTimeoutError } from "../../workers/pool.ts";
import {
  type ContentState,
  markdownLinkUrls,
  onLatestHead,
  readContentState,
  writeRevision,
} from "../content/content.public.ts";
import { getSpace, requireSpaceRole, spaceGitSync } from "../space/space.public.ts";
import { type GitAccess, type GitCredential, GitError, GitWorkdir, scrub, splitCredential } from "./git-cli.ts";
import { exportTree, importTree, readLayout, writeTree } from "./layout.ts";
import { summaryEntries, type TreeEntry } from "./summary.ts";

const gitImportJobType = "git-import";
const gitExportJobType = "git-export";

const repositoryUrl = z
  .string()
  .max(2048)
  .transform((value, context) => {
    try {
      const url = new URL(value);
      if (["http:", "https:", "file:"].includes(url.protocol)) return url;
    } catch {
      // reported below, without echoing the value (it may carry credentials)
    }
    context.addIssue({ code: "custom", message: "must be an http(s):// or file:// repository URL" });
    return z.NEVER;
  })
  .describe(
    "The repository URL: http(s)://, or file:// where the server enables it; may carry user:password, which is " +
      "stored encrypted and never shown",
  );

export const gitInfoSchema = z.strictObject({
  provider: z.enum(["github", "gitlab"]).optional().describe("The Git host, shown as installationProvider"),
  url: z.url().max(2048).optional().describe("The repository's tree URL, shown as url (wins over repoTreeURL)"),
});

const operationFields = {
  url: repositoryUrl,
  ref: z
    .string()
    .max(255)
    .regex(/^refs\/heads\/[A-Za-z0-9._/-]+$/, "must have the form refs/heads/<branch>")
    .refine((ref) => !ref.includes("..") && !ref.endsWith("/") && !ref.endsWith(".lock"), "is not a valid branch")
    .describe("The branch, as refs/heads/<branch>"),
  repoTreeURL: z.url().max(2048).optional().describe("The repository's tree URL, shown as url"),
  repoCommitURL: z
    .url()
    .max(2048)
    .optional()
    .describe("Prefix of the host's commit URLs: a revision's git.url is it followed by the commit id"),
  repoProjectDirectory: z
    .string()
    .max(1024)
    .refine((path) => !path.split("/").includes(".."), "must stay inside the repository")
    .optional()
    .describe("The directory of the repository that holds the content; default its root"),
  timestamp: z.iso
    .datetime({ offset: true })
    .optional()
    .describe("When the triggering event happened: an operation older than the last one applied is skipped"),
  force: z.boolean().optional().describe("Apply even when older than the last operation, or over a moved branch"),
  gitInfo: gitInfoSchema.optional().describe("How the repository is shown: its host and tree URL"),
};

/** The fields import and export share, checked as both check them; other keys are left to each one's schema. */
export const operationFieldsSchema = z.object(operationFields);

export const importSchema = z.strictObject({
  ...operationFields,
  standalone: z.boolean().optional().describe("Make a revision without making it the space's content"),
});
export const exportSchema = z.strictObject({
  ...operationFields,
  commitMessage: z.string().trim().min(1).max(10_000).describe("The message of the commit the export makes"),
});

/** What a Git job needs; the credential travels encrypted (AES-256-GCM with SECRETS_KEY), never in plain text. */
interface GitJobPayload {
  spaceId: string;
  userId: string;
  url: string;
  credential: string | null;
  ref: string;
  projectDirectory: string;
  commitUrl: string | null;
  commitMessage?: string;
  timestamp: string | null;
  force: boolean;
  standalone: boolean;
}

type OperationInput = z.infer<typeof importSchema> & { commitMessage?: string };

/** Records the repository on the space and queues the job; the caller answers 204 at once. */
async function startOperation(
  ctx: RequestContext,
  space: Space,
  direction: "import" | "export",
  data: OperationInput,
): Promise<void> {
  const spaceId = space.id;
  if (data.url.protocol === "file:" && !ctx.config.gitFileUrls) {
    throw new InvalidInputError("url: file:// repositories are not enabled on this server (GIT_FILE_URLS)");
  }
  const { url, credential } = splitCredential(data.url);
  const now = ctx.clock.now();
  const payload: GitJobPayload = {
    spaceId,
    userId: requireViewer(ctx).userId,
    url,
    credential: credential ? encryptSecret(ctx.config.secretsKey, JSON.stringify(credential)) : null,
    ref: data.ref,
    projectDirectory: data.repoProjectDirectory ?? "",
    commitUrl: data.repoCommitURL ?? null,
    commitMessage: data.commitMessage,
    timestamp: data.timestamp ? new Date(data.timestamp).toISOString() : null,
    force: data.force ?? false,
    standalone: data.standalone ?? false,
  };
  const repository = {
    url,
    ref: data.ref,
    projectDirectory: payload.projectDirectory,
    provider: data.gitInfo?.provider ?? null,
    treeUrl: data.gitInfo?.url ?? data.repoTreeURL ?? null,
    commitUrl: payload.commitUrl,
  };
  const operation = {
    operationDirection: direction,
    operationState: "running",
    operationError: null,
    operationSkipped: false,
    operationRevisionId: null,
    operationStartedAt: now,
    operationCompletedAt: null,
    updatedAt: now,
  };
  await ctx.prisma.$transaction(async (tx) => {
    const existing = await tx.gitSync.findUnique({ where: { spaceId } });
    // Another repository or branch: what we knew of the old one's head says nothing about this one.
    const sameRemote = existing?.url === url && existing.ref === data.ref;
    await tx.gitSync.upsert({
      where: { spaceId },
      create: { spaceId, ...repository, ...operation },
      update: { ...repository, ...operation, ...(sameRemote ? {} : { commitOid: null }) },
    });
    await enqueueJob(
      tx,
      direction === "import" ? gitImportJobType : gitExportJobType,
      payload,
      now,
      space.organizationId,
    );
  });
}

/** Import and export need `create` on the space (its `triggerGitSync` permission). */
export async function importGitRepository(ctx: RequestContext, spaceId: string, input: unknown): Promise<void> {
  const space = await requireSpaceRole(ctx, spaceId, "create");
  await startOperation(ctx, space, "import", parseInput(importSchema, input));
}

export async function exportToGitRepository(ctx: RequestContext, spaceId: string, input: unknown): Promise<void> {
  const space = await requireSpaceRole(ctx, spaceId, "create");
  await startOperation(ctx, space, "export", parseInput(exportSchema, input));
}

/** The space's Git sync state (readers of the space); null when it was never synchronized. */
export async function getSpaceGitInfo(ctx: RequestContext, spaceId: string): Promise<GitSync | null> {
  return spaceGitSync(ctx, await getSpace(ctx, spaceId));
}

/** Removes a legacy (`github-legacy`) installation so the space can move to the Git integrations; 204 always. */
export async function deleteLegacyGitInstallation(ctx: RequestContext, spaceId: string): Promise<void> {
  await requireSpaceRole(ctx, spaceId, "admin");
  await ctx.prisma.gitSync.deleteMany({ where: { spaceId, provider: "github-legacy" } });
}

/** `owner/name` of a repository URL (the last two path segments, without `.git`). */
export function repoNameOf(url: string): string {
  const segments = new URL(url).pathname
    .replace(/\.git\/?$/, "")
    .split("/")
    .filter(Boolean);
  return segments.slice(-2).join("/");
}

function credentialOf(payload: GitJobPayload, config: Config): GitCredential | null {
  return payload.credential
    ? (JSON.parse(decryptSecret(config.secretsKey, payload.credential)) as GitCredential)
    : null;
}

type Outcome = { commitOid: string | null; revisionId?: string; skipped?: boolean };

/**
 * Runs an import or export job: skipped when this job already applied (a re-run after a crash) or when a newer
 * operation was applied (by `timestamp`, unless `force`); the outcome and any failure are recorded on the space's
 * Git sync state. Failures are rethrown scrubbed of credentials, so the job's retries and logs never carry them.
 */
/**
 * For an http(s) repository, `host:port:address` of its address, checked like OpenAPI fetches: no loopback,
 * private or link-local address unless the operator opened the host (GIT_ALLOW_HOSTS). `file://` is opened
 * separately (GIT_FILE_URLS).
 */
async function checkedRemote(url: string, config: Config): Promise<string | null> {
  const parsed = new URL(url);
  if (parsed.protocol === "file:") return null;
  const { address, family } = await checkedAddress(parsed, { allowHosts: config.gitAllowHosts });
  const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
  return `${parsed.hostname.replace(/^\[|\]$/g, "")}:${port}:${family === 6 ? `[${address}]` : address}`;
}

async function runGitJob(
  prisma: PrismaClient,
  job: Job,
  now: Date,
  config: Config,
  work: (payload: GitJobPayload, sync: GitSync, access: GitAccess) => Promise<Outcome>,
): Promise<void> {
  const payload = job.payload as unknown as GitJobPayload;
  const sync = await prisma.gitSync.findUnique({ where: { spaceId: payload.spaceId } });
  const space = await prisma.space.findUnique({ where: { id: payload.spaceId } });
  if (!sync || !space || space.deletedAt || sync.appliedJobId === job.id) return;
  const timestamp = payload.timestamp ? new Date(payload.timestamp) : null;
  const finish = (data: Partial<GitSync>) =>
    prisma.gitSync.update({
      where: { spaceId: payload.spaceId },
      data: { ...data, operationCompletedAt: now, updatedAt: now },
    });
  if (!payload.force && timestamp && sync.appliedTimestamp && timestamp < sync.appliedTimestamp) {
    await finish({ operationState: "success", operationSkipped: true, operationError: null, appliedJobId: job.id });
    return;
  }
  const credential = credentialOf(payload, config);
  try {
    const outcome = await work(payload, sync, { credential, resolve: await checkedRemote(payload.url, config) });
    await finish({
      operationState: "success",
      operationError: null,
      operationSkipped: outcome.skipped ?? false,
      operationRevisionId: outcome.revisionId ?? null,
      commitOid: outcome.commitOid,
      appliedJobId: job.id,
      appliedTimestamp:
        timestamp && (!sync.appliedTimestamp || timestamp > sync.appliedTimestamp) ? timestamp : sync.appliedTimestamp,
    });
  } catch (error) {
    const message = scrub(workFailureMessage(error, config), credential).slice(0, 1000);
    await finish({ operationState: "failure", operationError: message });
    // Parsing that ran out of time or memory, or content past its bound, would fail the same way again.
    if (error instanceof WorkTimeoutError || error instanceof WorkOutOfMemoryError) return;
    if (error instanceof JobWorkRefusedError) return;
    throw new GitError(message);
  }
}

/** Why an operation failed, in words its owner can act on. */
function workFailureMessage(error: unknown, config: Config): string {
  if (error instanceof WorkTimeoutError) {
    return `Parsing the repository's content takes more than the ${config.jobWorkTimeoutMs} ms allowed (JOB_WORK_TIMEOUT_MS)`;
  }
  if (error instanceof WorkOutOfMemoryError) {
    return `Parsing the repository's content needs more than the ${config.workerMemoryMb} MiB allowed (WORKER_MEMORY_MB)`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * What the new page versions of `state` link to, parsed before the write's transaction opens (a transaction never
 * waits on parsing): large pages on a worker thread under the job's deadline.
 */
async function newVersionLinks(state: ContentState, config: Config, signal: AbortSignal) {
  const pages = [...state.pages.values()].filter((page) => page.versionId === null && page.type === "document");
  const texts = pages.map((page) => page.markdown);
  const urls = await mapTextsForJob(config, "page-links", texts, signal, (text) =>
    markdownLinkUrls(text, config.maxConvertedBytes),
  );
  return new Map(pages.map((page, index) => [page.id, urls[index] ?? []]));
}

/**
 * Import job: fetches the ref, reads the layout and writes one revision (the space's new primary content, or only
 * a standalone revision). SUMMARY.md and the new pages' links are parsed on a worker thread under the job's work
 * deadline, before the transaction. The revision and the applied-job mark are one transaction, so a crash leaves
 * either nothing (the re-run imports) or both (the re-run does nothing).
 */
export function processGitImport(
  prisma: PrismaClient,
  job: Job,
  now: Date,
  config: Config,
  signal: AbortSignal,
): Promise<void> {
  const parseSummary = (markdown: string, summaryDir: string) =>
    runJobWork<TreeEntry[]>(config, "git-summary", { markdown, summaryDir }, signal, {
      bytes: Buffer.byteLength(markdown),
      run: () => summaryEntries(markdown, summaryDir),
    });
  return runGitJob(prisma, job, now, config, (payload, _sync, access) =>
    GitWorkdir.use(access, async (git) => {
      const oid = await git.checkout(payload.url, payload.ref);
      const message = await git.commitMessage(oid);
      const layout = await readLayout(git.dir, payload.projectDirectory);
      const blobIds = await git.blobIds();
      const revisionId = await onLatestHead(async (headMoved) => {
        const space = await prisma.space.findUniqueOrThrow({ where: { id: payload.spaceId } });
        const base = await readContentState(prisma, space.revisionId);
        const { state, blobs } = await importTree(git.dir, layout, blobIds, base, now, parseSummary);
        const links = await newVersionLinks(state, config, signal);
        return prisma.$transaction(async (tx) => {
          const id = await writeRevision(tx, {
            spaceId: space.id,
            parents: [space.revisionId],
            from: { revisionId: space.revisionId, state: base },
            type: "edits",
            createdById: payload.userId,
            createdAt: now,
            state,
            blobs,
            links,
            git: {
              oid,
              message,
              ref: payload.ref,
              ...(payload.commitUrl ? { url: `${payload.commitUrl}${oid}` } : {}),
              createdByService: false,
            },
          });
          if (!payload.standalone) {
            const { count } = await tx.space.updateMany({
              where: { id: space.id, revisionId: space.revisionId, deletedAt: null },
              data: { revisionId: id, updatedAt: now },
            });
            if (count === 0) headMoved();
          }
          await tx.gitSync.update({ where: { spaceId: space.id }, data: { appliedJobId: job.id, commitOid: oid } });
          return id;
        });
      });
      return { commitOid: oid, revisionId };
    }),
  );
}

/**
 * Export job: writes the space's content in the Git layout as one commit with `commitMessage` on `ref` (created
 * when missing) and pushes it. A remote head other than the last commit we synchronized is refused unless
 * `force` (the commit then goes on top of it). When the remote tree already holds exactly this content (the
 * commit of a crashed run landed, or nothing changed), no commit is made.
 */
export function processGitExport(prisma: PrismaClient, job: Job, now: Date, config: Config): Promise<void> {
  return runGitJob(prisma, job, now, config, (payload, sync, access) =>
    GitWorkdir.use(access, async (git) => {
      const space = await prisma.space.findUniqueOrThrow({ where: { id: payload.spaceId } });
      const state = await readContentState(prisma, space.revisionId);
      const blobs = await prisma.fileBlob.findMany({
        where: { hash: { in: [...state.files.values()].map((file) => file.blobHash) } },
      });
      const bytesOf = new Map(blobs.map((blob) => [blob.hash, Buffer.from(blob.bytes)]));
      const assets = new Map(
        [...state.files.values()].map((file) => [file.name, bytesOf.get(file.blobHash) ?? Buffer.alloc(0)]),
      );
      const remoteHead = await git.remoteHead(payload.url, payload.ref);
      if (remoteHead) await git.checkout(payload.url, payload.ref);
      const layout = await readLayout(git.dir, payload.projectDirectory);
      await writeTree(git.dir, layout, exportTree(state, layout, assets).files);
      const commit = await git.commitAll(payload.commitMessage ?? "");
      if (!commit) return { commitOid: remoteHead };
      if (remoteHead && sync.commitOid && remoteHead !== sync.commitOid && !payload.force) {
        throw new GitError(
          `The branch ${payload.ref} moved to ${remoteHead} since the last synchronized commit ${sync.commitOid}: import it first, or export with force`,
        );
      }
      await git.push(payload.url, payload.ref);
      return { commitOid: commit };
    }),
  );
}

export const gitSyncJobs: ModuleJobs = {
  handlers: {
    [gitImportJobType]: {
      run: (prisma, job, now, { config, signal }) => processGitImport(prisma, job, now, config, signal),
    },
    [gitExportJobType]: { run: (prisma, job, now, { config }) => processGitExport(prisma, job, now, config) },
  },
};
