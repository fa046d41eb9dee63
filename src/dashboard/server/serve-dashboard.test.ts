import { describe, expect, it } from "vitest";
import { ToolgateError } from "../../core/errors.js";
import { totalFigures } from "../../core/figures.js";
import { isLoopback, newDashboardToken, serveDashboard } from "./serve-dashboard.js";
import type { SqlReader } from "./sql-reader.js";

const reader: SqlReader = {
  engine: "sqlite",
  all: async () => [],
  placeholder: () => "?",
  decodeJson: (value) => value,
  close: async () => undefined,
};
const options = {
  reader,
  denials: {
    report: async () => ({
      total: 0,
      sessions: 0,
      topTools: [],
      topSignatures: [],
      topPatterns: [],
      perDay: [],
      incidents: [],
      figures: totalFigures([]),
    }),
  },
  defaultSince: "30d",
  redactText: (text: string) => text,
  assets: { script: "", css: "" },
};

describe("serveDashboard", () => {
  it("knows loopback addresses", () => {
    for (const host of ["127.0.0.1", "127.3.2.1", "::1", "localhost"]) expect(isLoopback(host)).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "example.com"]) expect(isLoopback(host)).toBe(false);
  });

  it("refuses a non-loopback address unless it was asked for explicitly", async () => {
    const attempt = serveDashboard({ ...options, host: "0.0.0.0", port: 0, allowRemote: false });
    await expect(attempt).rejects.toSatisfy(
      (error) => ToolgateError.is(error) && error.code === "INPUT_INVALID" && /--host 0\.0\.0\.0/.test(error.message),
    );
  });

  it("listens on 127.0.0.1 on a free port with a fresh token, and answers 401 without it", async () => {
    const first = await serveDashboard({ ...options, host: "127.0.0.1", port: 0, allowRemote: false });
    const second = await serveDashboard({ ...options, host: "127.0.0.1", port: 0, allowRemote: false });
    try {
      expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{22}$/);
      expect(first.port).not.toBe(second.port);
      expect(first.url.split("token=")[1]).not.toBe(second.url.split("token=")[1]);
      const bare = first.url.replace(/\?token=.*/, "");
      expect((await fetch(bare)).status).toBe(401);
      expect((await fetch(first.url)).status).toBe(200);
      // another run's token opens nothing here
      expect((await fetch(`${bare}?token=${second.url.split("token=")[1]}`)).status).toBe(401);
    } finally {
      await first.close();
      await second.close();
    }
    expect(newDashboardToken()).toMatch(/^[\w-]{22}$/);
  });

  it("says which port is taken", async () => {
    const first = await serveDashboard({ ...options, host: "127.0.0.1", port: 0, allowRemote: false });
    try {
      await expect(
        serveDashboard({ ...options, host: "127.0.0.1", port: first.port, allowRemote: false }),
      ).rejects.toThrow(/Cannot listen on 127\.0\.0\.1:\d+ \(EADDRINUSE\)/);
    } finally {
      await first.close();
    }
  });
});
