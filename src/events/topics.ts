/**
 * Every live-update topic and the payload it carries. An event is published on a topic with a key (the id a
 * subscriber filters on: a job id, an organization id, a change request id) and reaches the subscribers of that
 * topic and key on every instance. Payloads travel through PostgreSQL NOTIFY: keep them small (< 8 kB).
 */
export interface EventTopics {
  /** Key: the job id. */
  jobUpdated: JobUpdate;
  /** Key: the job's organization id. */
  organizationJobUpdated: JobUpdate;
  /** Key: the change request id. Its status, subject or revision changed (created, edited, updated, merged). */
  changeRequestUpdated: ChangeRequestUpdate;
  /** Key: the change request id. A comment or a reply was posted on it. */
  changeRequestCommentPosted: ChangeRequestCommentPosted;
  /** Key: `all`. API tokens were revoked (committed): every instance drops them from its token cache. */
  apiTokensRevoked: ApiTokensRevoked;
  /** Key: `all`. A person's write committed at this WAL position: their reads wait for a replica to replay it. */
  personWrote: PersonWrote;
}

export type Topic = keyof EventTopics;

export type JobStatus = "pending" | "running" | "done" | "failed";

export interface JobUpdate {
  id: string;
  type: string;
  organizationId: string | null;
  status: JobStatus;
  progressDone: number;
  progressTotal: number;
  progressMessage: string | null;
  lastError: string | null;
  updatedAt: string;
}

export interface ChangeRequestUpdate {
  id: string;
  spaceId: string;
  number: number;
  status: "draft" | "open" | "archived" | "merged";
  subject: string;
  revision: string;
  revisionMerged: string | null;
  updatedAt: string;
}

export interface ChangeRequestCommentPosted {
  changeRequestId: string;
  /** The thread: the comment itself, or the comment a reply answers. */
  commentId: string;
  /** Set for replies. */
  replyId: string | null;
  postedBy: string;
  postedAt: string;
}

interface ApiTokensRevoked {
  tokenIds: string[];
}

interface PersonWrote {
  /** The user id. */
  person: string;
  /** The primary's WAL position after the write (`pg_lsn` text). */
  position: string;
}
