import type { JobUpdate } from "../../events/topics.ts";
import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { watchJob, watchOrganizationJobs } from "./job.service.ts";

const JobStatusEnum = publicEnum("JobStatus", "Where a background job is.", {
  pending: "Waiting to run, or to be retried after a failed attempt.",
  running: "Running now.",
  done: "Finished successfully.",
  failed: "Out of attempts; lastError says why.",
});

const JobUpdateRef = builder.objectRef<JobUpdate>("JobUpdate").implement({
  description: "The state of a background job (an import, an export, a processing run) at one moment.",
  fields: (t) => ({
    jobId: t.exposeID("id", { description: "The job's id." }),
    type: t.exposeString("type", { description: "What the job does, such as git-import or translation-run." }),
    status: t.expose("status", { type: JobStatusEnum, description: "Where the job is." }),
    progressDone: t.exposeInt("progressDone", { description: "Steps done so far." }),
    progressTotal: t.exposeInt("progressTotal", { description: "Steps in all (0 until the job knows)." }),
    progressMessage: t.exposeString("progressMessage", {
      nullable: true,
      description: "What the job is doing now; null when it said nothing.",
    }),
    lastError: t.exposeString("lastError", {
      nullable: true,
      description: "The error of the latest failed attempt; null when no attempt failed.",
    }),
    updatedAt: t.field({
      type: "DateTime",
      description: "When the job's state last changed.",
      resolve: (update) => new Date(update.updatedAt),
    }),
  }),
});

builder.subscriptionFields((t) => ({
  jobProgress: t.field({
    type: JobUpdateRef,
    description:
      "The job's current state, then every change until it is done or failed (server-sent events). For members " +
      "of the job's organization.",
    args: { jobId: t.arg.id({ required: true, description: "The job to follow." }) },
    subscribe: (_root, args, ctx) => watchJob(ctx, args.jobId),
    resolve: (update) => update,
  }),
  jobUpdates: t.field({
    type: JobUpdateRef,
    description: "Every change of the organization's jobs from now on (server-sent events). For its members.",
    args: { organizationId: t.arg.id({ required: true, description: "The organization whose jobs to follow." }) },
    subscribe: (_root, args, ctx) => watchOrganizationJobs(ctx, args.organizationId),
    resolve: (update) => update,
  }),
}));
