import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../../src/platform/config.ts";
import { missingStartSettings } from "../../src/platform/runtime-settings.ts";
import { listedVariables, variablesConfigReads } from "../helpers/config-variables.ts";

// The deployment files are checked against what they describe: .env.example against the variables config.ts reads,
// the Dockerfile and compose.yaml against what CI runs outside Docker (.ci/production-start, which cannot build the
// image: no registry is reachable).

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

/** The Dockerfile's runtime ENV, as NAME -> value. */
function dockerfileEnv(dockerfile: string): Record<string, string> {
  const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
  const block = /\nENV ((?:.*\\\n)*.*)/.exec(runtime)?.[1] ?? "";
  return Object.fromEntries([...block.matchAll(/([A-Z_]+)=(\S+)/g)].map((match) => [match[1], match[2]]));
}

describe(".env.example", () => {
  it("lists every variable config.ts reads, and NODE_ENV and the start-only memory settings", () => {
    const listed = listedVariables(read(".env.example"));
    const readByConfig = variablesConfigReads();
    expect(readByConfig.size).toBeGreaterThan(25);
    expect([...readByConfig].filter((name) => !listed.has(name))).toEqual([]);
    for (const name of ["NODE_ENV", "LOG_LEVEL", "GLIBC_TUNABLES", "NODE_OPTIONS"]) expect(listed).toContain(name);
  });

  it("states each default config.ts applies", () => {
    const text = read(".env.example");
    const defaults = loadConfig({ SECRETS_KEY: "0".repeat(64) });
    for (const [name, value] of [
      ["PORT", defaults.port],
      ["RATE_LIMIT_USER", defaults.rateLimitUser],
      ["MAX_BODY_BYTES", defaults.maxBodyBytes],
      ["OPENAPI_FETCH_TIMEOUT_MS", defaults.openapiFetchTimeoutMs],
      ["OTEL_SERVICE_NAME", defaults.otelServiceName],
    ] as const) {
      expect(text).toMatch(new RegExp(`^${name}=${value}$`, "m"));
    }
  });
});

describe("the Dockerfile and compose.yaml", () => {
  const dockerfile = read("Dockerfile");
  const ci = read(".ci/production-start");

  it("run the production install and start the server with the environment CI uses", () => {
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev/m);
    expect(ci).toMatch(/^npm ci --omit=dev/m);
    const env = dockerfileEnv(dockerfile);
    for (const name of ["NODE_ENV", "GLIBC_TUNABLES", "NODE_OPTIONS"]) {
      expect(ci).toContain(`export ${name}=${env[name]}`);
    }
    expect(missingStartSettings(env, [])).toEqual([]);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/main.js"\]$/m);
    expect(ci).toMatch(/^node dist\/main.js /m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .* CMD \["node", "scripts\/healthcheck.mjs"\]$/m);
    expect(ci).toContain("node scripts/healthcheck.mjs");
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it("run one web instance without jobs and one worker with them, both the image's command", () => {
    const compose = parse(read("compose.yaml"), { merge: true });
    const { server, worker } = compose.services;
    expect(server.environment.RUN_JOBS).toBe("false");
    expect(worker.environment.RUN_JOBS).toBe("true");
    for (const service of [server, worker]) {
      expect(service.build).toBe(".");
      expect(service.command).toBeUndefined();
      expect(service.environment.DATABASE_URL).toMatch(/^postgresql:\/\/.*@postgres:5432\//);
      expect(service.environment.REDIS_URL).toBe("redis://redis:6379");
      // .env (configuration.md) reaches every instance; the image's production settings stay.
      expect(service.env_file).toEqual([{ path: ".env", required: false }]);
      expect(service.environment).toMatchObject({ NODE_ENV: "production", DATA_DIR: "/data" });
      expect(service.environment.BOOTSTRAP_ADMIN_TOKEN).toMatch(/^\$\{BOOTSTRAP_ADMIN_TOKEN:-\}$/);
    }
    expect(Object.keys(compose.services).sort()).toEqual(["postgres", "redis", "server", "worker"]);
  });
});

describe("npm pack", () => {
  it("leaves its archive out of git", () => {
    const ignored = spawnSync("git", ["check-ignore", "-q", "docs-management-gateway-0.1.0.tgz"], {
      cwd: new URL("../..", import.meta.url),
    });
    expect(ignored.status).toBe(0);
  });
});

describe("the memory settings only a process's start can make", () => {
  it("are all in npm start, and each one missing is named", () => {
    const start = JSON.parse(read("package.json")).scripts.start as string;
    const env = Object.fromEntries([...start.matchAll(/([A-Z_]+)=(\S+)/g)].map((match) => [match[1], match[2]]));
    const nodeArguments = start.slice(start.indexOf(" node ") + 6).split(" ");
    expect(missingStartSettings(env, nodeArguments)).toEqual([]);
    expect(missingStartSettings({}, [])).toEqual([
      "--max-semi-space-size=8 (node or NODE_OPTIONS)",
      "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072",
    ]);
  });
});
