import { describe, expect, it } from "vitest";
import { isMissingPackage } from "./load-postgres-store.js";

async function importError(specifier: string): Promise<unknown> {
  try {
    await import(specifier);
  } catch (error) {
    return error;
  }
  throw new Error(`${specifier} imported`);
}

describe("isMissingPackage", () => {
  it("recognises Node's error for a package that is not installed, by name", async () => {
    const error = await importError("toolgate-test-no-such-package");
    expect(isMissingPackage(error, "toolgate-test-no-such-package")).toBe(true);
    expect(isMissingPackage(error, "pg")).toBe(false);
  });

  it("does not take other failures for a missing package", () => {
    expect(isMissingPackage(new Error("Cannot find package 'pg'"), "pg")).toBe(false);
    expect(isMissingPackage(undefined, "pg")).toBe(false);
  });
});
