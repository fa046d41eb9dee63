import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totalFigures } from "../../src/core/figures.js";
import { serveDashboard } from "../../src/dashboard/server/serve-dashboard.js";
import type { SqlReader } from "../../src/dashboard/server/sql-reader.js";

const reader: SqlReader = {
  engine: "sqlite",
  all: async () => [],
  placeholder: () => "?",
  decodeJson: (value) => value,
  close: async () => undefined,
};
const emptyReport = {
  total: 0,
  sessions: 0,
  topTools: [],
  topSignatures: [],
  topPatterns: [],
  perDay: [],
  incidents: [],
  figures: totalFigures([]),
};

/** a GET with the Host header given, which fetch() does not let a caller set */
function get(url: URL, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers: { host } },
      (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => {
          body += chunk.toString("utf8");
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sent.on("error", reject);
    sent.end();
  });
}

describe("the dashboard answers only to its own host names (DNS rebinding)", () => {
  let served: Awaited<ReturnType<typeof serveDashboard>>;
  let url: URL;
  beforeAll(async () => {
    served = await serveDashboard({
      reader,
      denials: { report: async () => emptyReport },
      defaultSince: "30d",
      redactText: (text: string) => text,
      assets: { script: "", css: "" },
      host: "127.0.0.1",
      port: 0,
      allowRemote: false,
    });
    url = new URL(served.url);
    url.pathname = "/api/overview";
  });
  afterAll(async () => {
    await served?.close();
  });

  it("serves the valid token under a loopback name or the bound address, with the port", async () => {
    for (const host of [`127.0.0.1:${served.port}`, `localhost:${served.port}`, `LOCALHOST:${served.port}`]) {
      expect((await get(url, host)).status, host).toBe(200);
    }
  });

  it("refuses the valid token under a foreign name, or a loopback name with another port", async () => {
    for (const host of [
      `attacker.example:${served.port}`,
      "attacker.example",
      `127.0.0.1.nip.io:${served.port}`,
      `localhost:${served.port + 1}`,
      "localhost",
    ]) {
      const answer = await get(url, host);
      expect(answer.status, host).toBe(403);
      expect(answer.body).toContain("toolgate dashboard");
      expect(answer.body).not.toContain("total");
    }
  });
});
