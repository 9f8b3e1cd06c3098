import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";

/** Repositories on disk for Git sync tests: bare repositories in a temporary directory removed after the file. */

const gitEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Test Author",
  GIT_AUTHOR_EMAIL: "author@example.test",
  GIT_COMMITTER_NAME: "Test Author",
  GIT_COMMITTER_EMAIL: "author@example.test",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: gitEnv, encoding: "utf8" });
}

/** A directory of repositories for this test file. */
export function repositoryRoot(): string {
  const root = mkdtempSync(join(tmpdir(), "git-sync-test-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** A bare repository `<root>/<name>.git` that accepts pushes over HTTP; returns its path. */
export function createBareRepository(root: string, name: string): string {
  const path = join(root, `${name}.git`);
  execFileSync("git", ["init", "--quiet", "--bare", "--initial-branch=main", path], { env: gitEnv });
  git(path, "config", "http.receivepack", "true");
  return path;
}

/**
 * Commits `files` (path -> text or bytes) on `branch` of a bare repository, as a new commit on top of the
 * branch (created when missing); `replace` removes every other file first. Returns the commit id.
 */
export function commitFiles(
  bare: string,
  branch: string,
  files: Record<string, string | Buffer>,
  message: string,
  options: { replace?: boolean } = {},
): string {
  const work = mkdtempSync(join(tmpdir(), "git-sync-work-"));
  try {
    git(work, "init", "--quiet", `--initial-branch=${branch}`);
    git(work, "remote", "add", "origin", bare);
    const exists = git(work, "ls-remote", "origin", `refs/heads/${branch}`).trim() !== "";
    if (exists) {
      git(work, "fetch", "--quiet", "origin", branch);
      git(work, "checkout", "--quiet", "-B", branch, "FETCH_HEAD");
      if (options.replace) git(work, "rm", "-r", "--quiet", "--ignore-unmatch", ".");
    }
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(work, path)), { recursive: true });
      writeFileSync(join(work, path), content);
    }
    git(work, "add", "--all");
    git(work, "commit", "--quiet", "--allow-empty", "-m", message);
    git(work, "push", "--quiet", "origin", `HEAD:refs/heads/${branch}`);
    return git(work, "rev-parse", "HEAD").trim();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The files of a branch's head (path -> bytes) and its commit message. */
export function readBranch(bare: string, branch: string): { oid: string; message: string; files: Map<string, Buffer> } {
  const work = mkdtempSync(join(tmpdir(), "git-sync-read-"));
  try {
    git(work, "clone", "--quiet", "--branch", branch, bare, ".");
    const paths = git(work, "ls-files", "-z").split("\0").filter(Boolean);
    return {
      oid: git(work, "rev-parse", "HEAD").trim(),
      message: git(work, "log", "-1", "--format=%B").trim(),
      files: new Map(paths.map((path) => [path, readFileSync(join(work, path))])),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function commitCount(bare: string, branch: string): number {
  return Number(git(bare, "rev-list", "--count", `refs/heads/${branch}`).trim());
}

/**
 * Serves the bare repositories of `root` over HTTP on loopback with git's own smart HTTP backend
 * (`git http-backend` as a CGI), behind basic auth with one user. Records every request's Authorization header.
 */
export async function serveRepositories(root: string, user: { name: string; password: string }) {
  const expected = `Basic ${Buffer.from(`${user.name}:${user.password}`).toString("base64")}`;
  const authorizations: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    if (request.headers.authorization !== expected) {
      response.writeHead(401, { "www-authenticate": 'Basic realm="git"' }).end();
      return;
    }
    const url = new URL(request.url ?? "/", "http://loopback");
    const backend = spawn("git", ["http-backend"], {
      env: {
        ...gitEnv,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: request.method ?? "GET",
        CONTENT_TYPE: request.headers["content-type"] ?? "",
        HTTP_CONTENT_ENCODING: request.headers["content-encoding"] ?? "",
        GIT_PROTOCOL: String(request.headers["git-protocol"] ?? ""),
        REMOTE_USER: user.name,
        REMOTE_ADDR: "127.0.0.1",
      },
    });
    request.pipe(backend.stdin);
    const chunks: Buffer[] = [];
    backend.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    backend.on("close", () => {
      const output = Buffer.concat(chunks);
      const split = output.indexOf("\r\n\r\n");
      const head = output.subarray(0, split).toString("utf8");
      const headers: Record<string, string> = {};
      let status = 200;
      for (const line of head.split("\r\n")) {
        const [name, ...rest] = line.split(":");
        const value = rest.join(":").trim();
        if (name?.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else if (name) headers[name] = value;
      }
      response.writeHead(status, headers).end(output.subarray(split + 4));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return {
    /** `http://127.0.0.1:<port>/<name>.git`, with the credentials when `withCredentials`. */
    url(name: string, credentials?: { name: string; password: string }) {
      const auth = credentials
        ? `${encodeURIComponent(credentials.name)}:${encodeURIComponent(credentials.password)}@`
        : "";
      return `http://${auth}127.0.0.1:${port}/${name}.git`;
    },
    authorizations,
  };
}
