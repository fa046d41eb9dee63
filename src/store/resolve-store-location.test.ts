import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveStoreLocation } from "./resolve-store-location.js";

describe("resolveStoreLocation", () => {
  const home = "/home/someone";
  it.each([
    [{}, {}, { engine: "sqlite", filename: join(home, ".toolgate", "toolgate.db") }],
    [{ TOOLGATE_DB: "./x.db" }, {}, { engine: "sqlite", filename: resolve("./x.db") }],
    [
      { TOOLGATE_DATABASE_URL: "postgres://u@h/db", TOOLGATE_DB: "./x.db" },
      { schema: "tg" },
      { engine: "postgres", connectionString: "postgres://u@h/db", schema: "tg" },
    ],
    [{}, { url: "postgresql://u@h/db" }, { engine: "postgres", connectionString: "postgresql://u@h/db" }],
    [{}, { engine: "memory" as const }, { engine: "memory" }],
    [{}, { path: "/var/lib/toolgate.db" }, { engine: "sqlite", filename: "/var/lib/toolgate.db" }],
    [{ TOOLGATE_DB: "/env.db" }, { path: "/config.db" }, { engine: "sqlite", filename: "/env.db" }],
  ])("env %j + config %j → %j", (env, config, expected) => {
    expect(resolveStoreLocation({ env, config, home })).toEqual(expected);
  });

  it("rejects a non-Postgres TOOLGATE_DATABASE_URL and a postgres engine without a URL, saying what to do", () => {
    expect(() => resolveStoreLocation({ env: { TOOLGATE_DATABASE_URL: "mysql://x" }, home })).toThrow(/TOOLGATE_DB/);
    expect(() => resolveStoreLocation({ env: {}, config: { engine: "postgres" }, home })).toThrow(
      /set TOOLGATE_DATABASE_URL or store.url/,
    );
  });
});
