import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { ToolgateError } from "../../core/errors.js";
import { createDashboardApp, type DashboardAppOptions } from "./create-dashboard-app.js";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
/** addresses that listen on every interface: the Host a remote browser uses is not known, so it is not checked */
const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);

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
 * (`allowRemote`); the caller prints the warning. Requests must name the server by a loopback name or the bound
 * address, with its port, in their Host (DNS rebinding), unless it listens on every interface. Resolves once
 * listening, with the URL (token included) and a close function that ends open live feeds.
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
  // filled once the port is known: the loopback names and the bound address, each with the port
  const allowedHosts = new Set<string>();
  const checksHost = !WILDCARD.has(options.host);
  const app = createDashboardApp({ ...options, token, ...(checksHost ? { allowedHosts } : {}) });
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
  for (const name of ["localhost", "127.0.0.1", "[::1]", shownHost, options.host]) {
    const bracketed = name.includes(":") && !name.startsWith("[") ? `[${name}]` : name;
    allowedHosts.add(`${bracketed.toLowerCase()}:${address.port}`);
  }
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
