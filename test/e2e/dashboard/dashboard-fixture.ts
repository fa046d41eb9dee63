import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { createSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import { launchChromium, openReadyPage } from "./browser.js";
import { startDashboard } from "./start-dashboard.js";

type SqliteStore = Awaited<ReturnType<typeof createSqliteStore>>;

/** What a dashboard browser test fills its store from: its temporary home, the CLI's environment, the store. */
export interface DashboardSetup {
  home: string;
  env: Record<string, string>;
  /** the SQLite store at `env.TOOLGATE_DB`, opened on the first call and closed before the dashboard starts */
  store: () => Promise<SqliteStore>;
}

/** `toolgate dashboard` (the built CLI) over a store a test filled, and Debian's Chromium to look at it. */
export interface DashboardFixture {
  home: string;
  env: Record<string, string>;
  /** the dashboard's URL, with its token */
  url: string;
  context: BrowserContext;
  /** a new page at the URL plus `query` (`&view=sessions`), `width` px wide (1440 unless given), once rendered */
  open(query: string, width?: number): Promise<Page>;
  /** stops the dashboard (it must exit 0), closes the browser and removes the temporary home */
  close(): Promise<void>;
}

/**
 * One temporary home with a SQLite store filled by `fill`, `toolgate dashboard` started over it (`args`, by default
 * `--since 30d`) and a headless Chromium. A test file calls it in `beforeAll` and `close` in `afterAll`.
 */
export async function startDashboardFixture(options: {
  /** names the temporary home (`toolgate-<name>-e2e-...`) */
  name: string;
  fill: (setup: DashboardSetup) => Promise<void>;
  args?: string[];
}): Promise<DashboardFixture> {
  assertBuilt();
  const home = mkdtempSync(join(tmpdir(), `toolgate-${options.name}-e2e-`));
  const env = { HOME: home, TOOLGATE_DB: join(home, "toolgate.db"), TOOLGATE_DATABASE_URL: "" };
  let dashboard: Awaited<ReturnType<typeof startDashboard>> | undefined;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  const close = async () => {
    await browser?.close();
    const code = dashboard === undefined ? 0 : await dashboard.stop();
    removeSnapshot();
    rmSync(home, { recursive: true, force: true });
    expect(code, "toolgate dashboard's exit code").toBe(0);
  };
  try {
    let opened: SqliteStore | undefined;
    const store = async () => {
      opened ??= await createSqliteStore({ filename: env.TOOLGATE_DB });
      return opened;
    };
    try {
      await options.fill({ home, env, store });
    } finally {
      await opened?.close();
    }
    dashboard = await startDashboard({ env, cwd: home, args: options.args ?? ["--since", "30d"] });
    browser = await launchChromium();
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  const { context } = browser;
  const url = dashboard.url;
  return {
    home,
    env,
    url,
    context,
    open: (query, width = 1440) => openReadyPage(context, `${url}${query}`, { width }),
    close,
  };
}

declare const document: {
  documentElement: { scrollWidth: number };
  querySelectorAll(
    selector: string,
  ): Iterable<{ tagName: string; className: string; getBoundingClientRect(): { right: number } }>;
};

/** The page is no wider than `width`; when it is wider, the message names the elements that reach past its edge. */
export async function expectFits(page: Page, options: { width: number; what: string }): Promise<void> {
  const measured = await page.evaluate((limit) => {
    const wide: string[] = [];
    for (const element of document.querySelectorAll("body *")) {
      const right = Math.round(element.getBoundingClientRect().right);
      if (right > limit && wide.length < 8)
        wide.push(`${element.tagName.toLowerCase()}.${element.className} (${right} px)`);
    }
    return { scrollWidth: document.documentElement.scrollWidth, wide };
  }, options.width);
  expect(
    measured.scrollWidth,
    `${options.what} at ${options.width} px: ${measured.wide.join(", ")}`,
  ).toBeLessThanOrEqual(options.width);
}
