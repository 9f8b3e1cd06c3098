import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database, RawConnection } from "../db/database.ts";
import { decryptSecret, encryptSecret, secretsKeyPattern } from "../platform/secrets.ts";

/**
 * Every value stored encrypted with SECRETS_KEY (src/platform/secrets.ts): how to find it and how to write it back. `ref` names
 * the row; the update also matches the old value, so a row changed meanwhile is not overwritten.
 */
const encryptedValues: { name: string; select: string; update: string }[] = [
  {
    name: "siteVisitorKeys",
    select: `SELECT id AS ref, "visitorAuthKeyEncrypted" AS value FROM "Site" WHERE "visitorAuthKeyEncrypted" IS NOT NULL FOR UPDATE`,
    update: `UPDATE "Site" SET "visitorAuthKeyEncrypted" = $2 WHERE id = $1 AND "visitorAuthKeyEncrypted" = $3`,
  },
  {
    name: "shareLinks",
    select: `SELECT id AS ref, "keyEncrypted" AS value FROM "ShareLink" FOR UPDATE`,
    update: `UPDATE "ShareLink" SET "keyEncrypted" = $2 WHERE id = $1 AND "keyEncrypted" = $3`,
  },
  {
    name: "idempotentReplays",
    select: `SELECT json_build_array("callerKey", "key")::text AS ref, "bodyEncrypted" AS value FROM "IdempotencyRecord"
             WHERE "bodyEncrypted" IS NOT NULL FOR UPDATE`,
    update: `UPDATE "IdempotencyRecord" SET "bodyEncrypted" = $2
             WHERE "callerKey" = ($1::json)->>0 AND "key" = ($1::json)->>1 AND "bodyEncrypted" = $3`,
  },
  {
    // Git sync jobs carry the repository's credential until they run.
    name: "gitCredentialsOfJobs",
    select: `SELECT id AS ref, payload->>'credential' AS value FROM "Job" WHERE payload->>'credential' IS NOT NULL FOR UPDATE`,
    update: `UPDATE "Job" SET payload = jsonb_set(payload, '{credential}', to_jsonb($2::text))
             WHERE id = $1 AND payload->>'credential' = $3`,
  },
];

/** A stored value that decrypts with neither key: rotating would lose it, so nothing is changed. */
export class SecretsRotationError extends Error {}

function decrypts(key: Buffer, value: string): boolean {
  try {
    decryptSecret(key, value);
    return true;
  } catch {
    return false;
  }
}

async function rotateIn(connection: RawConnection, from: Buffer, to: Buffer) {
  const rotated: Record<string, number> = {};
  let already = 0;
  for (const { name, select, update } of encryptedValues) {
    rotated[name] = 0;
    for (const { ref, value } of await connection.query<{ ref: string; value: string }>(select)) {
      if (decrypts(from, value)) {
        await connection.query(update, [ref, encryptSecret(to, decryptSecret(from, value)), value]);
        rotated[name] += 1;
      } else if (decrypts(to, value)) {
        // Rotated by an earlier run that ended before the key file was replaced: running it again finishes it.
        already += 1;
      } else {
        throw new SecretsRotationError(
          `A value of ${name} decrypts with neither the current SECRETS_KEY nor the new key: nothing was changed (is SECRETS_KEY the key it was encrypted with?)`,
        );
      }
    }
  }
  return { rotated, alreadyWithNewKey: already };
}

/** Reads a key file: 64 hex characters (e.g. `openssl rand -hex 32 > new.key`). */
export function readKeyFile(path: string): Buffer {
  const text = existsSync(path) ? readFileSync(path, "utf8").trim() : "";
  if (!secretsKeyPattern.test(text)) throw new SecretsRotationError(`${path} must hold a key of 64 hex characters`);
  return Buffer.from(text, "hex");
}

/**
 * Re-encrypts every stored secret from `from` to `to` in one transaction (all or nothing), and replaces
 * DATA_DIR/secrets.key when that file held `from` (the embedded database's key when SECRETS_KEY is unset). Running it
 * again with the same new key finishes a run that was interrupted. The servers must then run with the new key.
 */
export async function rotateSecrets(
  db: Pick<Database, "withRawConnection">,
  { from, to, dataDir }: { from: Buffer; to: Buffer; dataDir: string },
) {
  const result = await db.withRawConnection(
    async (connection) => {
      await connection.exec("BEGIN");
      try {
        const counts = await rotateIn(connection, from, to);
        await connection.exec("COMMIT");
        return counts;
      } catch (error) {
        await connection.exec("ROLLBACK");
        throw error;
      }
    },
    { unbounded: true },
  );
  const keyFile = join(dataDir, "secrets.key");
  const keyFileReplaced = existsSync(keyFile) && readFileSync(keyFile, "utf8").trim() === from.toString("hex");
  if (keyFileReplaced) {
    writeFileSync(`${keyFile}.new`, to.toString("hex"), { mode: 0o600 });
    renameSync(`${keyFile}.new`, keyFile);
  }
  return { ...result, keyFileReplaced };
}
