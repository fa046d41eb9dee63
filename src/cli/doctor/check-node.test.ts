import { describe, expect, it } from "vitest";
import { checkNode } from "./check-node.js";

describe("checkNode", () => {
  it("accepts 20.19 and newer majors", () => {
    expect(checkNode("20.19.0").status).toBe("ok");
    expect(checkNode("22.1.0").status).toBe("ok");
    expect(checkNode("20.19.0").fix).toBeNull();
  });

  it("fails older versions, with the fix", () => {
    const check = checkNode("20.18.3");
    expect(check.status).toBe("fail");
    expect(check.fix).toContain("Install Node 20.19 or newer");
    expect(checkNode("18.20.0").status).toBe("fail");
  });
});
