import { describe, expect, it } from "vitest";
import { redactText } from "../../detect/redact.js";
import { droppedNotificationLine, forwardsClientNotification } from "./client-notification.js";

describe("forwardsClientNotification (regression: tools/call sent as a notification)", () => {
  it("forwards notifications/* methods only", () => {
    for (const method of ["notifications/cancelled", "notifications/roots/list_changed", "notifications/x"]) {
      expect(forwardsClientNotification(method), method).toBe(true);
    }
    for (const method of ["tools/call", "Tools/Call", "resources/read", "Notifications/x", "notifications", ""]) {
      expect(forwardsClientNotification(method), method).toBe(false);
    }
  });

  it("reports a dropped notification on one line, its method redacted and bounded", () => {
    const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    const line = droppedNotificationLine(`tools/call ${secret}\n${"x".repeat(10_000)}`, redactText);
    expect(line).not.toContain(secret);
    expect(line).not.toContain("\n");
    expect(line.length).toBeLessThan(600);
  });
});
