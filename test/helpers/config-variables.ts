import { loadConfig } from "../../src/platform/config.ts";

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

/** The variables a `.env` file names, as `NAME=value` lines, commented out or not. */
export const listedVariables = (text: string) =>
  new Set([...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1] as string));
