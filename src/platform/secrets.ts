import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createDataDir } from "./data-dir.ts";

const keyPattern = /^[0-9a-fA-F]{64}$/;

/**
 * The key secrets are encrypted with at rest: SECRETS_KEY (64 hex characters), else a random key created once in
 * DATA_DIR/secrets.key, so that a single machine needs no set-up (servers on several machines must share SECRETS_KEY).
 */
export function resolveSecretsKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, "hex");
  const file = join(dataDir, "secrets.key");
  if (!existsSync(file)) {
    createDataDir(dataDir);
    try {
      writeFileSync(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
    } catch (error) {
      // Another process starting at the same time created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  const stored = readFileSync(file, "utf8").trim();
  if (!keyPattern.test(stored)) throw new Error(`${file} must hold 64 hex characters`);
  return Buffer.from(stored, "hex");
}

export const secretsKeyPattern = keyPattern;

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts; tampering fails the decryption. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

export function decryptSecret(key: Buffer, stored: string): string {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== "v1" || !iv || !tag || ciphertext === undefined) throw new Error("Unknown secret format");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}
