import { createHash } from "node:crypto";
import type { PrismaClient } from "../../db/generated/client.ts";
import type { ModuleJobs } from "../../jobs/queue.ts";
import { decryptSecret, encryptSecret } from "../../platform/secrets.ts";

/** Records are kept this long; the same key after that starts a new request. */
const idempotencyRetentionMs = 24 * 60 * 60 * 1000;
/** A record still `running` after this long belongs to a process that died: the key may be used again. */
const runningLockMs = 5 * 60 * 1000;

export type IdempotencyStart =
  | { kind: "started" }
  | { kind: "replay"; status: number; body: string }
  | { kind: "running" }
  | { kind: "mismatch" };

export function requestHash(method: string, path: string, body: string): string {
  return createHash("sha256").update(`${method} ${path}\n${body}`).digest("hex");
}

/**
 * Where records are kept: bodies are stored encrypted with `secretsKey`, since a response may show a secret once
 * (a new API token, a share-link key) and the record keeps it for the retention.
 */
export interface IdempotencyStore {
  prisma: PrismaClient;
  secretsKey: Buffer;
}

/**
 * Claims `key` for this caller and request in one atomic upsert (a new key, or one whose record expired or whose
 * process died), or says what the earlier request with that key left: its response, still running, or another body.
 */
export async function startIdempotentRequest(
  { prisma, secretsKey }: IdempotencyStore,
  callerKey: string,
  key: string,
  hash: string,
  now: Date,
): Promise<IdempotencyStart> {
  const at = now.toISOString();
  const expired = new Date(now.getTime() - idempotencyRetentionMs).toISOString();
  const stale = new Date(now.getTime() - runningLockMs).toISOString();
  const claimed = await prisma.$queryRaw<{ key: string }[]>`
    INSERT INTO "IdempotencyRecord" ("callerKey", "key", "requestHash", "state", "createdAt")
    VALUES (${callerKey}, ${key}, ${hash}, 'running', ${at}::timestamp)
    ON CONFLICT ("callerKey", "key") DO UPDATE
      SET "requestHash" = EXCLUDED."requestHash", "state" = 'running', "status" = NULL, "bodyEncrypted" = NULL,
        "createdAt" = EXCLUDED."createdAt"
      WHERE "IdempotencyRecord"."createdAt" < ${expired}::timestamp
        OR ("IdempotencyRecord"."state" = 'running' AND "IdempotencyRecord"."createdAt" < ${stale}::timestamp)
    RETURNING "key"`;
  if (claimed.length > 0) return { kind: "started" };
  const record = await prisma.idempotencyRecord.findUnique({ where: { callerKey_key: { callerKey, key } } });
  // Deleted in between (the first request failed): the caller may simply retry.
  if (!record || record.state === "running") return { kind: "running" };
  if (record.requestHash !== hash) return { kind: "mismatch" };
  const body = record.bodyEncrypted === null ? "" : decryptSecret(secretsKey, record.bodyEncrypted);
  return { kind: "replay", status: record.status ?? 200, body };
}

/** Stores the response to replay. */
export async function finishIdempotentRequest(
  { prisma, secretsKey }: IdempotencyStore,
  callerKey: string,
  key: string,
  response: { status: number; body: string },
): Promise<void> {
  await prisma.idempotencyRecord.updateMany({
    where: { callerKey, key, state: "running" },
    data: { state: "done", status: response.status, bodyEncrypted: encryptSecret(secretsKey, response.body) },
  });
}

/** Forgets a request that failed unexpectedly, so that a retry with the same key runs again. */
export async function abandonIdempotentRequest(prisma: PrismaClient, callerKey: string, key: string): Promise<void> {
  await prisma.idempotencyRecord.deleteMany({ where: { callerKey, key, state: "running" } });
}

/** Drops records older than the retention (a recurring job). */
async function purgeIdempotencyRecords(prisma: PrismaClient, now: Date): Promise<number> {
  const { count } = await prisma.idempotencyRecord.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - idempotencyRetentionMs) } },
  });
  return count;
}

// Idempotency keys are kept 24 hours.
export const idempotencyJobs: ModuleJobs = {
  scheduled: {
    "purge-idempotency-records": {
      cron: "0 * * * *",
      run: async (prisma, now) => void (await purgeIdempotencyRecords(prisma, now)),
    },
  },
};
