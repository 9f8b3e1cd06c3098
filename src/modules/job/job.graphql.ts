import type { JobUpdate } from "../../events/topics.ts";
import { builder } from "../../graphql/builder.ts";
import { watchJob, watchOrganizationJobs } from "./job.service.ts";

const JobStatusEnum = builder.enumType("JobStatus", {
  description: "pending: waiting to run (or to be retried); running; done; failed: out of attempts.",
  values: ["pending", "running", "done", "failed"] as const,
});

const JobUpdateRef = builder.objectRef<JobUpdate>("JobUpdate").implement({
  description: "The state of a background job (an import, an export, a processing run) at one moment.",
  fields: (t) => ({
    id: t.exposeID("id"),
    type: t.exposeString("type"),
    status: t.expose("status", { type: JobStatusEnum }),
    progressDone: t.exposeInt("progressDone", { description: "Steps done so far." }),
    progressTotal: t.exposeInt("progressTotal", { description: "Steps in all (0 until the job knows)." }),
    progressMessage: t.exposeString("progressMessage", { nullable: true }),
    lastError: t.exposeString("lastError", { nullable: true }),
    updatedAt: t.field({ type: "DateTime", resolve: (update) => new Date(update.updatedAt) }),
  }),
});

builder.subscriptionFields((t) => ({
  jobProgress: t.field({
    type: JobUpdateRef,
    description: "The job's current state, then every change until it is done or failed (server-sent events).",
    args: { jobId: t.arg.id({ required: true }) },
    subscribe: (_root, args, ctx) => watchJob(ctx, String(args.jobId)),
    resolve: (update) => update,
  }),
  jobUpdates: t.field({
    type: JobUpdateRef,
    description: "Every change of the organization's jobs from now on (members of the organization).",
    args: { organizationId: t.arg.id({ required: true }) },
    subscribe: (_root, args, ctx) => watchOrganizationJobs(ctx, String(args.organizationId)),
    resolve: (update) => update,
  }),
}));
