import { loadConfig } from "../../src/config.ts";

/** The variables `loadConfig` reads, whatever their values: recorded by a proxy over the environment. */
export function variablesConfigReads(): Set<string> {
  const seen = new Set<string>();
  const env = new Proxy({ SECRETS_KEY: "0".repeat(64) } as Record<string, string>, {
    get(target, name) {
      if (typeof name === "string") seen.add(name);
      return target[name as string];
    },
  });
  loadConfig(env);
  return seen;
}
