import type { DenialRecord } from "../core/records.js";
import { canonicalTool, toolFamily } from "../core/tool-families.js";

interface OpenTelemetryApi {
  trace: {
    getActiveSpan(): { addEvent(name: string, attributes?: Record<string, string | number>): void } | undefined;
  };
  metrics: {
    getMeter(name: string): {
      createCounter(
        name: string,
        options?: { description?: string },
      ): {
        add(value: number, attributes?: Record<string, string>): void;
      };
    };
  };
}

/**
 * OpenTelemetry per denial, through `@opentelemetry/api` only: a span event `agent.permission.denied` on the active
 * span (the host's tool, its canonical tool and family) and a `toolgate.permission.denials` counter (attributes: tool
 * (canonical: `shell` on every host), host_tool (the host's name), source). Without a provider registered by the
 * host the API is a no-op; without the package installed this sink is a no-op too.
 */
export async function createOpenTelemetryRecorder(): Promise<(records: readonly DenialRecord[]) => void> {
  let api: OpenTelemetryApi;
  try {
    const moduleName = "@opentelemetry/api";
    api = (await import(moduleName)) as OpenTelemetryApi;
  } catch {
    return () => undefined;
  }
  return (records) => {
    if (records.length === 0) return;
    // Looked up per batch: the host may register its provider after toolgate started.
    const counter = api.metrics
      .getMeter("toolgate")
      .createCounter("toolgate.permission.denials", { description: "tool calls denied, by tool and source" });
    const span = api.trace.getActiveSpan();
    for (const record of records) {
      const canonical = record.canonicalTool ?? canonicalTool(record.tool);
      counter.add(1, { tool: canonical, host_tool: record.tool, source: record.source });
      span?.addEvent("agent.permission.denied", {
        "toolgate.tool": record.tool,
        "toolgate.canonical_tool": canonical,
        "toolgate.tool_family": record.toolFamily ?? toolFamily(record.tool),
        "toolgate.source": record.source,
        "toolgate.reason": record.reason,
        "toolgate.input_summary": record.inputSummary,
        "toolgate.session_id": record.sessionId,
        "toolgate.seq": record.seq,
      });
    }
  };
}
