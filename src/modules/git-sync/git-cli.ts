import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A Git failure whose message is safe to show and log: credentials are scrubbed out of it. */
export class GitError extends Error {}

/** `user:password` of a repository URL, decoded; never stored or logged in plain text. */
export interface GitCredential {
  username: string;
  password: string;
}

/** Splits the credentials off a repository URL: the URL that may be stored and shown, and the credential. */
export function splitCredential(url: URL): { url: string; credential: GitCredential | null } {
  const credential =
    url.username || url.password
      ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
      : null;
  const bare = new URL(url.href);
  bare.username = "";
  bare.password = "";
  return { url: bare.href, credential };
}

/** Every form a credential may take in git's output. */
function secretForms(credential: GitCredential | null): string[] {
  if (!credential) return [];
  const pair = `${credential.username}:${credential.password}`;
  return [pair, Buffer.from(pair).toString("base64"), encodeURIComponent(credential.password), credential.password]
    .filter((form) => form.length >= 3)
    .sort((a, b) => b.length - a.length);
}

export function scrub(text: string, credential: GitCredential | null): string {
  return secretForms(credential).reduce((clean, secret) => clean.split(secret).join("***"), text);
}

/**
 * How git may reach a repository: its credential, and for http(s) `host:port:address` of the address checked
 * before the job, which every connection must use (a DNS answer cannot change it afterwards).
 */
export interface GitAccess {
  credential: GitCredential | null;
  resolve: string | null;
}

/**
 * Runs the git CLI in a working directory. The credential reaches git as an `http.extraHeader` in its
 * environment (GIT_CONFIG_*), never in the arguments, the URL or a config file, so it shows in no process list;
 * prompts, system and global configuration are off; only http(s) and file transports are allowed.
 */
export class GitWorkdir {
  private constructor(
    readonly dir: string,
    private readonly access: GitAccess,
  ) {}

  /** A fresh empty repository in a temporary directory; `use` runs with it and the directory is removed after. */
  static async use<T>(access: GitAccess, use: (git: GitWorkdir) => Promise<T>): Promise<T> {
    const dir = await mkdtemp(join(tmpdir(), "git-sync-"));
    try {
      const git = new GitWorkdir(dir, access);
      await git.run(["init", "--quiet"]);
      return await use(git);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private env(): NodeJS.ProcessEnv {
    const config: [string, string][] = [
      ["protocol.allow", "never"],
      ["protocol.http.allow", "always"],
      ["protocol.https.allow", "always"],
      ["protocol.file.allow", "always"],
      ["user.name", "Docs gateway"],
      ["user.email", "git-sync@docs-gateway.invalid"],
      ["commit.gpgSign", "false"],
    ];
    const { credential, resolve } = this.access;
    // Redirects could lead to a host that was not checked.
    if (resolve) config.push(["http.curloptResolve", resolve], ["http.followRedirects", "false"]);
    if (credential) {
      const basic = Buffer.from(`${credential.username}:${credential.password}`).toString("base64");
      config.push(["http.extraHeader", `Authorization: Basic ${basic}`]);
    }
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: this.dir,
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_COUNT: String(config.length),
    };
    for (const [index, [key, value]] of config.entries()) {
      env[`GIT_CONFIG_KEY_${index}`] = key;
      env[`GIT_CONFIG_VALUE_${index}`] = value;
    }
    return env;
  }

  /** Runs `git <args>` and returns its standard output; a failure is a GitError with a scrubbed message. */
  async run(args: string[], options: { allowFailure?: boolean } = {}): Promise<string> {
    try {
      const { stdout } = await run("git", args, {
        cwd: this.dir,
        env: this.env(),
        maxBuffer: 256 * 1024 * 1024,
        encoding: "utf8",
      });
      return stdout;
    } catch (error) {
      if (options.allowFailure) return "";
      const { stderr } = error as { stderr?: string };
      const detail = (stderr ?? "").trim().split("\n").slice(-3).join(" ") || (error as Error).message;
      throw new GitError(scrub(`git ${args[0]} failed: ${detail}`, this.access.credential));
    }
  }

  /** The commit id `ref` points at on the remote, or null when the remote has no such ref. */
  async remoteHead(url: string, ref: string): Promise<string | null> {
    const out = await this.run(["ls-remote", "--", url, ref]);
    const line = out.split("\n").find((entry) => entry.endsWith(`\t${ref}`));
    return line?.split("\t")[0] ?? null;
  }

  /** Fetches one commit of the remote (no history) and checks it out. */
  async checkout(url: string, ref: string): Promise<string> {
    await this.run(["fetch", "--quiet", "--depth", "1", "--", url, ref]);
    await this.run(["checkout", "--quiet", "--detach", "FETCH_HEAD"]);
    return (await this.run(["rev-parse", "HEAD"])).trim();
  }

  async commitMessage(oid: string): Promise<string> {
    return (await this.run(["log", "-1", "--format=%B", oid])).trim();
  }

  /** Object ids of every file of the checked-out tree, by path. */
  async blobIds(): Promise<Map<string, string>> {
    const out = await this.run(["ls-tree", "-r", "-z", "HEAD"], { allowFailure: true });
    const ids = new Map<string, string>();
    for (const entry of out.split("\0")) {
      const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
      if (match?.[1] && match[2]) ids.set(match[2], match[1]);
    }
    return ids;
  }

  /** Stages everything and commits it; null when the tree did not change (nothing to commit). */
  async commitAll(message: string): Promise<string | null> {
    await this.run(["add", "--all"]);
    const status = await this.run(["status", "--porcelain"]);
    if (status.trim() === "") return null;
    await this.run(["commit", "--quiet", "--no-verify", "-m", message]);
    return (await this.run(["rev-parse", "HEAD"])).trim();
  }

  /** Pushes HEAD to `ref`: a fast-forward only, so a remote that moved meanwhile refuses it. */
  async push(url: string, ref: string): Promise<void> {
    await this.run(["push", "--quiet", "--", url, `HEAD:${ref}`]);
  }
}
