import { describe, expect, it } from "vitest";
import { redactionSchema } from "../config/redaction-schema.js";
import { ToolgateError } from "../core/errors.js";
import { compileRedactionPatterns } from "../detect/compile-redaction-patterns.js";
import { redactText } from "../detect/redact.js";
import { createKeyedHash, keyedHashFromEnv } from "./keyed-hash.js";
import { createRedactOptions } from "./redact-options.js";

describe("redaction config", () => {
  it("accepts safe patterns and a key variable, and applies them", () => {
    const config = redactionSchema.parse({
      patterns: [{ kind: "acme-key", pattern: "acme_[a-z0-9]{8}" }],
      hashKeyEnv: "TOOLGATE_REDACTION_KEY",
    });
    const options = createRedactOptions(config, { TOOLGATE_REDACTION_KEY: "0123456789abcdef0123" });
    const once = redactText("use acme_abcd1234 twice: acme_abcd1234, not acme_zzzz9999", options);
    const markers = once.match(/\[REDACTED:acme-key#[A-Za-z0-9_-]{10}\]/g) ?? [];
    expect(markers).toHaveLength(3);
    expect(markers[0]).toBe(markers[1]);
    expect(markers[2]).not.toBe(markers[0]);
  });

  it("rejects unsafe patterns with the reason", () => {
    const result = redactionSchema.safeParse({ patterns: [{ kind: "bad", pattern: "(a+)+$" }] });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain("unsafe redaction pattern");
    expect(redactionSchema.safeParse({ patterns: [{ kind: "Bad Kind", pattern: "x" }] }).success).toBe(false);
    expect(redactionSchema.safeParse({ unknown: 1 }).success).toBe(false);
    expect(() => compileRedactionPatterns([{ kind: "bad", pattern: "bad(x)\\1" }])).toThrowError(/backreferences/);
  });
});

describe("keyed hash", () => {
  it("is keyed: the same secret under another key gets another suffix", () => {
    const one = createKeyedHash("0123456789abcdef");
    const two = createKeyedHash("fedcba9876543210");
    expect(one("password", "hunter2")).toBe(one("password", "hunter2"));
    expect(one("password", "hunter2")).not.toBe(two("password", "hunter2"));
    expect(one("password", "hunter2")).not.toBe(one("token", "hunter2"));
    expect(one("password", "hunter2")).toMatch(/^[A-Za-z0-9_-]{10}$/);
  });

  it("refuses short keys and is off without the variable", () => {
    expect(() => createKeyedHash("short")).toThrowError(ToolgateError);
    expect(keyedHashFromEnv("NOPE", {})).toBeUndefined();
  });
});
