import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { TopLevelIdScanner } from "./top-level-id-scanner.js";

/** The largest message the proxy reads (the SDK's own stdio limit, so a server built on the SDK can read it too). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface ProxyStdioTransportOptions {
  input: Readable;
  output: Writable;
  /** where a message the proxy could not read is reported (one line each) */
  log: (line: string) => void;
  maxMessageBytes?: number;
}

/**
 * The proxy's stdio towards the client, one JSON-RPC message per line like the SDK's `StdioServerTransport`, but a
 * message it cannot read is never dropped in silence: a line that is not JSON, not a JSON-RPC message (a malformed
 * `params` or `_meta`, a batch array), or longer than `maxMessageBytes` is reported on the log and, when its
 * request id can be read, answered with a JSON-RPC error; reading goes on with the next line. A message that is not
 * read is never forwarded, so it never reaches the server unchecked.
 */
export class ProxyStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;
  private readonly maxMessageBytes: number;
  private pieces: Buffer[] = [];
  private size = 0;
  /** set while the current line is over the limit: its bytes are scanned for the id, not kept */
  private oversized: TopLevelIdScanner | undefined;
  private started = false;
  private closed = false;

  constructor(private readonly options: ProxyStdioTransportOptions) {
    this.maxMessageBytes = options.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.options.input.on("data", this.onData);
    this.options.input.on("error", this.onInputError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.options.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.options.output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.options.input.off("data", this.onData);
    this.options.input.off("error", this.onInputError);
    if (this.options.input.listenerCount("data") === 0) this.options.input.pause();
    this.pieces = [];
    this.size = 0;
    this.oversized = undefined;
    this.onclose?.();
  }

  private readonly onInputError = (error: Error) => this.onerror?.(error);

  private readonly onData = (chunk: Buffer | string) => {
    let rest = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    while (rest.length > 0 && !this.closed) {
      const newline = rest.indexOf(10);
      const piece = newline === -1 ? rest : rest.subarray(0, newline);
      this.take(piece);
      if (newline === -1) return;
      this.endLine();
      rest = rest.subarray(newline + 1);
    }
  };

  private take(piece: Buffer): void {
    if (this.oversized !== undefined) {
      this.oversized.push(piece);
      this.size += piece.length;
      return;
    }
    if (this.size + piece.length > this.maxMessageBytes) {
      // over the limit: stop keeping the line, keep only what the id needs
      this.oversized = new TopLevelIdScanner();
      for (const kept of this.pieces) this.oversized.push(kept);
      this.oversized.push(piece);
      this.size += piece.length;
      this.pieces = [];
      return;
    }
    this.pieces.push(piece);
    this.size += piece.length;
  }

  private endLine(): void {
    const size = this.size;
    const oversized = this.oversized;
    const line = oversized === undefined ? Buffer.concat(this.pieces).toString("utf8").replace(/\r$/, "") : "";
    this.pieces = [];
    this.size = 0;
    this.oversized = undefined;
    if (oversized !== undefined) {
      const id = oversized.id();
      this.refuse({
        id,
        code: ErrorCode.InvalidRequest,
        message: `toolgate mcp-proxy: a message of ${size} bytes is over the proxy's limit of ${this.maxMessageBytes} bytes; it was not read or forwarded.`,
      });
      return;
    }
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // not the parser's message: V8's quotes a piece of the line, which could be part of a secret
      this.refuse({
        id: undefined,
        code: ErrorCode.ParseError,
        message: "toolgate mcp-proxy: a message that is not JSON was not read or forwarded.",
      });
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.onmessage?.(parsed.data);
      return;
    }
    const first = parsed.error.issues[0];
    const where = first === undefined || first.path.length === 0 ? "the message" : first.path.join(".");
    this.refuse({
      id: requestId(value),
      code: ErrorCode.InvalidRequest,
      message: `toolgate mcp-proxy: a message that is not a valid JSON-RPC message (${where}: ${first?.message ?? "invalid"}) was not read or forwarded.`,
    });
  }

  /** reports the unread message; answers it when it is a request whose id could be read */
  private refuse(refusal: { id: string | number | undefined; code: number; message: string }): void {
    // the request's id is the client's text and is not logged (it could hold a secret): the answer carries it
    const answered = refusal.id === undefined ? "" : " Answered the request with an error.";
    this.options.log(`${refusal.message}${answered}`);
    if (refusal.id === undefined) return;
    void this.send({
      jsonrpc: "2.0",
      id: refusal.id,
      error: { code: refusal.code, message: refusal.message, data: { code: "MCP_MESSAGE_UNREADABLE" } },
    });
  }
}

/** The id of a request-shaped object (one with a `method`), when it is a string or a finite number. */
function requestId(value: unknown): string | number | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (!("method" in record)) return undefined;
  const id = record["id"];
  if (typeof id === "string" || (typeof id === "number" && Number.isFinite(id))) return id;
  return undefined;
}
