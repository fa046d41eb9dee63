import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { redactText } from "../../detect/redact.js";
import { foldedDuplicateKeys, foldedKeysRefusal, forwardedCallParams } from "./mcp-call-params.js";

const checked = (raw: unknown) => CallToolRequestSchema.shape.params.parse(raw);

describe("forwardedCallParams (regression: raw tools/call params forwarded)", () => {
  it("forwards only what toolgate read: no key a case-insensitive server would read instead", () => {
    const raw = {
      name: "echo",
      arguments: { path: "/tmp/x" },
      NAME: "erase",
      "argument\u017f": { path: "/etc/passwd" },
      Arguments: { path: "/etc/shadow" },
      extra: 1,
    };
    // rebuilt from the checked fields, whatever the schema keeps of the rest
    expect(forwardedCallParams({ ...checked(raw), ...raw } as never)).toEqual({
      name: "echo",
      arguments: { path: "/tmp/x" },
    });
    expect(JSON.stringify(forwardedCallParams(checked(raw)))).toBe('{"name":"echo","arguments":{"path":"/tmp/x"}}');
  });

  it("keeps the progress token and a task, the fields MCP defines", () => {
    const raw = { name: "echo", _meta: { progressToken: 7 }, task: { ttl: 1000 } };
    expect(forwardedCallParams(checked(raw))).toEqual(raw);
    expect(forwardedCallParams(checked({ name: "echo" }))).toEqual({ name: "echo" });
  });
});

describe("foldedDuplicateKeys", () => {
  it("finds two keys that differ only in case or Unicode case folding, at any depth", () => {
    expect(foldedDuplicateKeys({ path: "/tmp/x", PATH: "/etc/passwd" })).toEqual({
      path: "arguments",
      keys: ["path", "PATH"],
    });
    expect(foldedDuplicateKeys({ path: "/tmp/x", pat\u0127: 1, "pa\u017fs": 1, pass: 2 })).toEqual({
      path: "arguments",
      keys: ["pa\u017fs", "pass"],
    });
    expect(foldedDuplicateKeys({ options: { items: [{ \u212aey: 1, key: 2 }] } })?.path).toBe(
      "arguments.options.items.0",
    );
  });

  it("lets through arguments without such keys, however deep", () => {
    expect(foldedDuplicateKeys(undefined)).toBeUndefined();
    expect(foldedDuplicateKeys({ path: "/tmp/x", paths: ["a", "A"], nested: { path: 1 } })).toBeUndefined();
    let deep: unknown = { leaf: true };
    for (let level = 0; level < 100_000; level += 1) deep = { next: deep };
    expect(foldedDuplicateKeys(deep as Record<string, unknown>)).toBeUndefined();
  });

  it("words the refusal with the keys redacted", () => {
    const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const text = foldedKeysRefusal({ path: "arguments", keys: [secret, secret.toUpperCase()] }, redactText);
    expect(text).not.toContain(secret);
    expect(text).toContain("differ only in case");
  });
});
