import { timingSafeEqual } from "node:crypto";
import { type Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { ToolgateError } from "../../core/errors.js";
import { answerApi, answerExport, type DashboardData } from "./dashboard-api.js";
import { type DashboardFilters, parseDashboardFilters } from "./dashboard-filters.js";
import { denialHighWaterMark, denialsAfter } from "./live-query.js";
import { renderPage } from "./render-page.js";

export interface DashboardAppOptions extends DashboardData {
  /** the per-run secret every request must carry (`?token=` or the `x-toolgate-token` header) */
  token: string;
  assets: { script: string; css: string };
  /** how often the live feed looks past the high-water mark (1000 ms) */
  livePollMs?: number;
  /**
   * runs before each API answer and each live poll: the CLI drains the hooks' spool into the store here, so what a
   * hook recorded a moment ago is visible (as `toolgate tail` does before each poll); its failure is reported, the
   * answer still comes from the store
   */
  refresh?: () => Promise<unknown>;
  onError?: (error: unknown) => void;
  /**
   * the `host:port` values a request's Host may name (lower case), a second guard against DNS rebinding besides the
   * token: a page on another name that resolves to 127.0.0.1 is refused; absent, any Host is served
   */
  allowedHosts?: ReadonlySet<string>;
}

const LIVE_BATCH = 200;

const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
  "X-Frame-Options": "DENY",
};

/**
 * The dashboard's HTTP layer: a token check in front of everything (401 without it), no CORS headers (another
 * origin's page cannot read an answer), read-only JSON endpoints (`answerApi`), the page and its two assets, and
 * `/api/live`: server-sent events of every denial stored after the store's high-water mark.
 */
export function createDashboardApp(options: DashboardAppOptions): Hono {
  const app = new Hono();
  const expected = Buffer.from(options.token);
  const onError = options.onError ?? (() => undefined);
  const refresh = async () => {
    try {
      await options.refresh?.();
    } catch (error) {
      onError(error);
    }
  };

  app.use("*", async (context, next) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) context.header(name, value);
    if (options.allowedHosts !== undefined) {
      const host = (context.req.header("host") ?? new URL(context.req.url).host).toLowerCase();
      if (!options.allowedHosts.has(host)) {
        return context.text(
          `403: this dashboard answers to ${[...options.allowedHosts].join(", ")} only, not to the host name this request used. Open the URL \`toolgate dashboard\` printed.\n`,
          403,
        );
      }
    }
    const given = Buffer.from(context.req.query("token") ?? context.req.header("x-toolgate-token") ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return context.text(
        "401: this dashboard needs the token printed by `toolgate dashboard` (open the full URL it printed).\n",
        401,
      );
    }
    if (context.req.method !== "GET" && context.req.method !== "HEAD") return context.text("405: read-only\n", 405);
    await next();
    return undefined;
  });

  app.get("/", (context) =>
    context.html(
      renderPage({
        ...options.assets,
        mode: { kind: "server", token: options.token, defaultSince: options.defaultSince },
      }),
    ),
  );
  app.get("/assets/dashboard.js", (context) =>
    context.body(options.assets.script, 200, { "Content-Type": "text/javascript; charset=utf-8" }),
  );
  app.get("/assets/dashboard.css", (context) =>
    context.body(options.assets.css, 200, { "Content-Type": "text/css; charset=utf-8" }),
  );

  app.get("/api/live", (context) => {
    // the host, tool and label filters narrow the feed (its time range is "from now on")
    let filters: Omit<DashboardFilters, "since" | "until">;
    try {
      const {
        since: _since,
        until: _until,
        ...rest
      } = parseDashboardFilters(new URL(context.req.url).searchParams, {
        now: Date.now(),
        defaultSince: options.defaultSince,
      });
      filters = rest;
    } catch (error) {
      const message = error instanceof ToolgateError ? error.message : "Bad filters.";
      return context.json({ error: { code: "INPUT_INVALID", message } }, 400);
    }
    return streamSSE(context, async (stream) => {
      let open = true;
      stream.onAbort(() => {
        open = false;
      });
      const resume = Number(context.req.header("last-event-id") ?? context.req.query("after") ?? Number.NaN);
      let highWaterMark = Number.isInteger(resume) && resume >= 0 ? resume : await denialHighWaterMark(options.reader);
      await stream.writeSSE({ event: "ready", data: JSON.stringify({ highWaterMark }), id: String(highWaterMark) });
      while (open) {
        await refresh();
        // rows up to the store's newest id: the ones the filters leave out are passed over once, not read again
        const newest = await denialHighWaterMark(options.reader);
        const rows = await denialsAfter({
          reader: options.reader,
          afterId: highWaterMark,
          upToId: newest,
          limit: LIVE_BATCH,
          filters,
        });
        for (const row of rows) {
          highWaterMark = row.id;
          await stream.writeSSE({ event: "denial", data: JSON.stringify(row), id: String(row.id) });
        }
        if (rows.length < LIVE_BATCH) {
          highWaterMark = Math.max(highWaterMark, newest);
          await stream.sleep(options.livePollMs ?? 1_000);
        }
      }
    });
  });

  app.get("/api/export", async (context) => {
    const url = new URL(context.req.url);
    url.searchParams.delete("token");
    try {
      await refresh();
      const file = await answerExport(options, url.searchParams);
      return context.body(file.text, 200, {
        "Content-Type": file.type,
        "Content-Disposition": `attachment; filename="${file.name}"`,
      });
    } catch (error) {
      return errorAnswer(context, error, onError);
    }
  });

  app.get("/api/*", async (context) => {
    const url = new URL(context.req.url);
    url.searchParams.delete("token");
    try {
      await refresh();
      const answer = await answerApi(options, { path: url.pathname, query: url.searchParams });
      if (answer === undefined)
        return context.json({ error: { code: "NOT_FOUND", message: "No such endpoint." } }, 404);
      return context.json(answer);
    } catch (error) {
      return errorAnswer(context, error, onError);
    }
  });

  app.notFound((context) => context.text("404\n", 404));
  return app;
}

/** 400 with the sentence for bad parameters; anything else is 500, reported, and never an answer */
function errorAnswer(context: Context, error: unknown, onError: (error: unknown) => void) {
  if (ToolgateError.is(error) && error.code === "INPUT_INVALID") {
    return context.json({ error: { code: error.code, message: error.message } }, 400);
  }
  onError(error);
  return context.json(
    { error: { code: "INTERNAL", message: "The store could not answer; the dashboard's terminal says why." } },
    500,
  );
}
