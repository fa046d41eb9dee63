import { redactedQuote } from "./redacted-quote.js";

/**
 * Whether the proxy forwards a notification from the client: only a `notifications/*` method. A notification has no
 * id and reaches no request handler, so toolgate never decides on it; a lenient server that runs whatever method it
 * is sent would run a `tools/call` (or any other request) sent as a notification, unchecked.
 */
export function forwardsClientNotification(method: string): boolean {
  return method.startsWith("notifications/");
}

/** The proxy's line for a notification it dropped (its method redacted: it is the client's text). */
export function droppedNotificationLine(method: string, redact: (text: string) => string): string {
  return `toolgate mcp-proxy: a notification from the client with method ${redactedQuote(method, redact)} was not forwarded: only notifications/* methods are (a server could run anything else as a request, unchecked).`;
}
