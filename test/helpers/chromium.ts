import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's chromium package, which `.ci/run` installs; Playwright never downloads a browser here. */
const chromiumPath = "/usr/bin/chromium";

/** Browser tests skip (and say so) only when chromium is absent. */
export const hasChromium = existsSync(chromiumPath);

/** Where browser tests keep their screenshots (gitignored). */
export const screenshotDir = join(import.meta.dirname, "..", "..", "test-results");

export interface HeadlessChromium {
  browser: BrowserContext;
  close(): Promise<void>;
}

/** A headless chromium on a throwaway profile, with nothing of its own going to the network. */
export async function launchChromium(): Promise<HeadlessChromium> {
  const profile = mkdtempSync(join(tmpdir(), "test-chromium-"));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
