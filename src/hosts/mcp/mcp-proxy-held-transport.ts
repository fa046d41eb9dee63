import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * The proxy's own stdio transport, started before the proxy's MCP `Server` exists: messages that arrive before
 * `attach` (the client's `initialize`, which the proxy needs to start the real server with the client's capabilities)
 * are held, then handed to the `Server` in order. Everything else is the inner transport's (the SDK's
 * `StdioServerTransport`): framing, parsing, writing.
 */
export class HeldTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;
  private readonly held: JSONRPCMessage[] = [];
  private attached = false;
  private closed = false;
  private waiting: ((message: JSONRPCMessage | undefined) => void) | undefined;
  private markEnded: () => void = () => undefined;
  /** resolves once the input ended or the proxy was told to stop (`end`) */
  readonly ended = new Promise<void>((resolve) => {
    this.markEnded = resolve;
  });

  constructor(private readonly inner: Transport) {
    inner.onmessage = (message) => this.receive(message);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => this.end();
  }

  /** starts reading (once, unless already ended); the `Server`'s own `start()` later is a no-op */
  async open(): Promise<void> {
    // already ended (stopped before it opened): reading now would hold the input open for nothing
    if (this.closed) return;
    await this.inner.start();
  }

  /** the first message, held until `attach` (undefined when the input closed first) */
  firstMessage(): Promise<JSONRPCMessage | undefined> {
    if (this.held.length > 0) return Promise.resolve(this.held[0]);
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** the input ended (stdin closed) or the proxy was told to stop: stop reading, then close like the inner transport */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.markEnded();
    this.waiting?.(undefined);
    this.waiting = undefined;
    // removes the stdin listeners (the inner transport's own close calls back here and returns above)
    void this.inner.close();
    this.onclose?.();
  }

  async start(): Promise<void> {
    this.attached = true;
    for (const message of this.held.splice(0)) this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }

  private receive(message: JSONRPCMessage): void {
    if (this.attached) {
      this.onmessage?.(message);
      return;
    }
    this.held.push(message);
    this.waiting?.(message);
    this.waiting = undefined;
  }
}
