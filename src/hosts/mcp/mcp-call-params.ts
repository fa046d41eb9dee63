import type { CallToolRequest } from "@modelcontextprotocol/sdk/types.js";
import { redactedQuote } from "./redacted-quote.js";

/** The `tools/call` params as the SDK's schema read them: what toolgate decided on. */
export type CheckedCallParams = CallToolRequest["params"];

/**
 * The params the proxy forwards for a `tools/call`: rebuilt from the fields toolgate read, never the client's raw
 * object. A server that matches keys case-insensitively (Go's `encoding/json`: `NAME`, `argumentſ`, last one wins)
 * would otherwise run a tool or arguments toolgate never saw. Kept: `name` and `arguments` (decided on), `_meta`
 * (the progress token the proxy relays end to end) and `task` (task-augmented calls), the fields MCP defines.
 */
export function forwardedCallParams(checked: CheckedCallParams): Record<string, unknown> {
  return {
    name: checked.name,
    ...(checked.arguments === undefined ? {} : { arguments: checked.arguments }),
    ...(checked._meta === undefined ? {} : { _meta: checked._meta }),
    ...(checked.task === undefined ? {} : { task: checked.task }),
  };
}

/** Two keys of one object in a call's arguments that a case-insensitive server would read as one. */
export interface FoldedKeys {
  /** where the object is, from `arguments` (`arguments.options`, `arguments.items.0`) */
  path: string;
  keys: [string, string];
}

/**
 * The first two keys of one object anywhere in `args` that differ only in case or Unicode case folding (`path` and
 * `PATH`, `ſtate` and `state`), or undefined. toolgate's rules read one of them and a server that folds keys may read
 * the other, so such a call is refused. Folding here is broader than Go's (lower, upper, lower: `ß` meets `ss`): a
 * call it refuses too often is one the client can resend, a call it lets through could run unchecked. Iterative and
 * linear in the size of the arguments, whatever their depth.
 */
export function foldedDuplicateKeys(args: Record<string, unknown> | undefined): FoldedKeys | undefined {
  const pending: Visit[] = [{ value: args, key: "arguments", parent: undefined }];
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    const { value } = visit;
    if (typeof value !== "object" || value === null) continue;
    const seen = new Map<string, string>();
    for (const [key, child] of Object.entries(value)) {
      if (!Array.isArray(value)) {
        const folded = foldKey(key);
        const earlier = seen.get(folded);
        if (earlier !== undefined) return { path: pathOf(visit), keys: [earlier, key] };
        seen.set(folded, key);
      }
      pending.push({ value: child, key, parent: visit });
    }
  }
  return undefined;
}

/** One value still to look at; the path is built only for the object reported (linear however deep the value). */
interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join(".");
}

function foldKey(key: string): string {
  return key.toLowerCase().toUpperCase().toLowerCase();
}

/** The refusal's text for a call with two such keys (the keys redacted: they are the client's text). */
export function foldedKeysRefusal(found: FoldedKeys, redact: (text: string) => string): string {
  const [first, second] = found.keys.map((key) => redactedQuote(key, redact));
  return `toolgate mcp-proxy: a tools/call whose ${redactedQuote(found.path, redact)} holds the keys ${first} and ${second}, which differ only in case, was refused, not forwarded (a server that reads keys case-insensitively could run the one toolgate did not check). Send each key once.`;
}
