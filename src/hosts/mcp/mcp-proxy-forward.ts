import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, McpError, type Result } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";

/**
 * Generic forwarding for the MCP proxy: a request or notification received on one side (the client's `Server`
 * session, or the real server's `Client` session) is sent on the other side with the SDK's own `request` /
 * `notification`, unchanged. Results pass through as the other side sent them (no schema strips or reorders a
 * key), progress notifications keep the sender's own token end to end, a cancellation aborts the forwarded
 * request (the SDK then sends `notifications/cancelled` on), and an error comes back with its code, message and data.
 */

/** Accepts any JSON-RPC result object and returns it untouched. */
export const passthroughResult = z.custom<Result>(
  (value) => typeof value === "object" && value !== null && !Array.isArray(value),
);

/** The proxy never times a request out before the client that sent it does (setTimeout's largest delay). */
export const NO_PROXY_TIMEOUT = 2_147_483_647;

interface Requester {
  request(
    request: { method: string; params?: Record<string, unknown> },
    schema: typeof passthroughResult,
    options?: RequestOptions,
  ): Promise<Result>;
}

interface Notifier {
  notification(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
}

export interface ForwardedRequest {
  method: string;
  params?: Record<string, unknown> | undefined;
}

/** Sends `request` to the other side and resolves with its result; `describeGone` words a closed connection. */
export async function forwardRequest(options: {
  to: unknown;
  request: ForwardedRequest;
  /** the incoming request's signal: a cancellation aborts the forwarded request */
  signal: AbortSignal;
  describeGone: () => string;
}): Promise<Result> {
  const { request } = options;
  // the params go on untouched, `_meta.progressToken` included: the other side's progress notifications carry the
  // sender's own token and are relayed as they come (`relayProgress`), never dropped when they race the result
  const requestOptions: RequestOptions = { signal: options.signal, timeout: NO_PROXY_TIMEOUT };
  try {
    return await (options.to as Requester).request(
      { method: request.method, ...(request.params === undefined ? {} : { params: request.params }) },
      passthroughResult,
      requestOptions,
    );
  } catch (error) {
    throw relayedError(error, options.describeGone);
  }
}

/** Sends a notification on; a side that is gone or does not declare the capability drops it (never throws). */
export async function forwardNotification(to: unknown, notification: ForwardedRequest): Promise<void> {
  try {
    await (to as Notifier).notification({
      method: notification.method,
      ...(notification.params === undefined ? {} : { params: notification.params }),
    });
  } catch {
    // the other side is closed, or would not accept it: nothing to tell anyone
  }
}

/**
 * The error to answer with: the other side's own JSON-RPC error (code, message without the SDK's `MCP error <code>:`
 * prefix, data), or, when the connection is gone, an internal error that says so.
 */
export function relayedError(error: unknown, describeGone: () => string): Error {
  if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) {
    const message = error.message.replace(/^MCP error -?\d+: /, "");
    return Object.assign(new Error(message), {
      code: error.code,
      ...(error.data === undefined ? {} : { data: error.data }),
    });
  }
  const gone =
    (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) ||
    (error instanceof Error && error.message === "Not connected");
  if (gone) {
    return Object.assign(new Error(describeGone()), {
      code: ErrorCode.InternalError,
      data: { code: "MCP_SERVER_EXITED" },
    });
  }
  return error instanceof Error ? error : new Error(String(error));
}
