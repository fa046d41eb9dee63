import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A headless Chromium with a fresh profile in a temporary directory; `close` removes it. */
export async function launchChromium(options: { offline?: boolean } = {}): Promise<{
  context: BrowserContext;
  close: () => Promise<void>;
}> {
  const profile = mkdtempSync(join(tmpdir(), "toolgate-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1200, height: 900 },
      offline: options.offline ?? false,
      timeout: 120_000,
    });
  } catch (error) {
    // a browser that did not start leaves its profile folder: nothing else would remove it
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A new page of `context` at `url`, `width` x `height` px, once the dashboard has rendered (`body[data-ready]`). */
export async function openReadyPage(
  context: BrowserContext,
  url: string,
  size: { width: number; height?: number },
): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width: size.width, height: size.height ?? 900 });
  await page.goto(url);
  await page.waitForSelector("body[data-ready]");
  return page;
}
