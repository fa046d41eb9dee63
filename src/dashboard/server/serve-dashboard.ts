import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { ToolgateError } from "../../core/errors.js";
import { createDashboardApp, type DashboardAppOptions } from "./create-dashboard-app.js";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** whether an address is this machine only */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** a fresh per-run secret for the URL (128 bits, URL-safe) */
export function newDashboardToken(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * Starts the dashboard on `host:port` (port 0: a free one). A non-loopback host must be asked for explicitly
 * (`allowRemote`); the caller prints the warning. Resolves once listening, with the URL (token included) and a
 * close function that ends open live feeds.
 */
export async function serveDashboard(
  options: Omit<DashboardAppOptions, "token"> & { host: string; port: number; allowRemote: boolean; token?: string },
): Promise<{ url: string; port: number; close: () => Promise<void> }> {
  if (!isLoopback(options.host) && !options.allowRemote) {
    throw new ToolgateError({
      code: "INPUT_INVALID",
      message: `The dashboard binds to loopback only; ${options.host} is not. Pass --host ${options.host} explicitly to serve it to other machines.`,
    });
  }
  const token = options.token ?? newDashboardToken();
  const app = createDashboardApp({ ...options, token });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () => resolve(started));
    started.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        new ToolgateError({
          code: "INPUT_INVALID",
          message: `Cannot listen on ${options.host}:${options.port} (${error.code ?? error.message}). Pick another --port, or leave it out for a free one.`,
          cause: error,
        }),
      ),
    );
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/?token=${token}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
