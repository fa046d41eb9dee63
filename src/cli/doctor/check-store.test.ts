import { describe, expect, it, vi } from "vitest";
import { missingPostgresDriver } from "../../store/load-postgres-store.js";

// the Postgres store selected while `pg` is not installed (the test's own node_modules has it, so the open is faked)
vi.mock("../../store/open-store.js", () => ({
  openStore: async () => {
    const cause = Object.assign(new Error("Cannot find package 'pg' imported from /x/postgres-store.js"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    throw missingPostgresDriver(cause);
  },
}));

const { checkStore } = await import("./check-store.js");

describe("doctor's store check", () => {
  it("gives the fix for a missing `pg` that its message names, not 'start the server' (issue 25, item 16)", async () => {
    const check = await checkStore(
      { cwd: "/", home: "/nonexistent", env: { TOOLGATE_DATABASE_URL: "postgres://u@127.0.0.1:5432/db" } },
      undefined,
    );
    expect(check.status).toBe("fail");
    expect(check.message).toContain("`pg` is not installed");
    expect(check.fix).toContain("npm install pg");
    expect(check.fix).not.toMatch(/start the server/i);
    expect(check.message).toContain(check.fix);
  });
});
