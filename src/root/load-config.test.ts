import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolgateError } from "../core/errors.js";
import { loadConfig } from "./load-config.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function configFile(text: string): string {
  const root = mkdtempSync(join(tmpdir(), "toolgate-load-config-"));
  roots.push(root);
  const file = join(root, "toolgate.config.json");
  writeFileSync(file, text);
  return file;
}

function errorOf(file: string): ToolgateError {
  try {
    loadConfig({ cwd: "/", homeDir: "/", env: {}, files: [file] });
  } catch (error) {
    return error as ToolgateError;
  }
  throw new Error(`${file} was accepted`);
}

describe("loadConfig on a file that is not an object (issue 12, class 6b)", () => {
  it("rejects `null` with the same clear error as `[]`", () => {
    const forNull = errorOf(configFile("null"));
    const forArray = errorOf(configFile("[]"));
    expect(forNull.code).toBe("CONFIG_INVALID");
    expect(forArray.code).toBe("CONFIG_INVALID");
    expect(forNull.message).toMatch(/is not a valid toolgate config/);
    expect(forNull.message).toMatch(/\(root\): .*object/i);
    const same = (error: ToolgateError, kind: string) =>
      error.message.replaceAll(String(error.data?.file), "FILE").replace(`received ${kind}`, "received X");
    expect(same(forNull, "null")).toBe(same(forArray, "array"));
  });

  it("still reads an empty object and a missing file as no settings", () => {
    expect(loadConfig({ cwd: "/", homeDir: "/", env: {}, files: [configFile("{}")] }).config).toEqual({});
    expect(
      loadConfig({ cwd: "/", homeDir: "/", env: {}, files: ["/nonexistent/toolgate.config.json"] }).config,
    ).toEqual({});
  });
});
