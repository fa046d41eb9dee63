import type { CompiledConfig } from "../core/config.js";
import type { ToolCall } from "../core/events.js";
import { type DeniedOfPattern, retriesDenied } from "../core/figures.js";
import { advanceWindow } from "../core/loop-detector.js";
import type { AuditEvent } from "../core/records.js";
import { canonicalTool } from "../core/tool-families.js";
import type { AnalyzedLoop as AnalyzedLoopWithIdentity, LoopKind } from "./analysis-types.js";

/** a loop as found; the replay adds its canonical tool and who found it */
type AnalyzedLoop = Omit<AnalyzedLoopWithIdentity, "canonicalTool" | "by">;

import { callTargets, sameTarget } from "./call-targets.js";

const MAX_RECENT_TARGETS = 20;
/** per denied pattern: the distinct signatures and targets remembered (a retry is compared with these) */
const MAX_DENIED_OF_PATTERN = 64;
/** denied patterns remembered (past this, a call of an unknown pattern is a retry by pattern alone, as before) */
const MAX_DENIED_PATTERNS = 10_000;

/**
 * The loops of one session: identical calls and A-B cycles with the core's own detector and thresholds (reported
 * from its steer level, on every call, also after toolgate would have stopped the run), same-error streaks from
 * the core's verdicts, the same tool retried after a denial, and the same intent routed through another tool after
 * a denial (a denied Write, then a shell heredoc to the same file).
 */
export class LoopFinder {
  /** the loops found, in the order first found; and by kind and tool (no key text built per call) */
  private readonly repeated: AnalyzedLoop[] = [];
  private readonly repeatedOf = new Map<LoopKind, Map<string, AnalyzedLoop>>();
  private readonly windows = new Map<string, { window: string[]; runs: number[] }>();
  private readonly switches = new Map<string, AnalyzedLoop>();
  private readonly retries = new Map<string, number>();
  /** pattern key -> the signatures and targets of its denied calls (core/figures.ts `retriesDenied`) */
  private readonly deniedOfPattern = new Map<string, { signatures: Set<string>; targets: string[] }>();
  private readonly deniedTargets: { tool: string; target: string }[] = [];

  /** the loop level reported from: the first of steer, block, stop that is on */
  private readonly threshold: number;

  constructor(private readonly config: CompiledConfig) {
    const { loop } = config;
    this.threshold = [loop.steer, loop.block, loop.stop].find((level): level is number => level !== false) ?? loop.stop;
  }

  /**
   * a call was made; `retry` when its pattern (`patternKey`) was denied before and has not become available since;
   * `targets`: the call's `callTargets` (the replay computes them once per distinct call). It counts as a retry only
   * when it is the same call as a denied one of its pattern or a variant of it (core/figures.ts `retriesDenied`).
   */
  onCall(options: {
    call: ToolCall;
    agentId?: string | undefined;
    retry: boolean;
    opaque: boolean;
    targets?: () => readonly string[];
    patternKey?: string;
  }): void {
    const { call } = options;
    const targetsOf = options.targets ?? (() => callTargets(call.input));
    if (options.retry && this.retriesDenied(options.patternKey, call, options.opaque ? () => [] : targetsOf))
      this.retries.set(call.tool, (this.retries.get(call.tool) ?? 0) + 1);
    if (options.opaque) return;
    this.checkIntentSwitch(call, targetsOf);
    this.detectRepetition(call, options.agentId);
  }

  onDenied(call: ToolCall, targets: readonly string[] = callTargets(call.input), patternKey?: string): void {
    if (patternKey !== undefined) this.rememberDenied(patternKey, call, targets);
    for (const target of targets) {
      this.deniedTargets.push({ tool: call.tool, target });
      if (this.deniedTargets.length > MAX_RECENT_TARGETS) this.deniedTargets.shift();
    }
  }

  /** the core's `loop.detected` verdicts: only same-error streaks (the rest is found above) */
  onAudit(event: AuditEvent): void {
    if (event.kind !== "loop.detected" || event.detail["kind"] !== "same-error") return;
    this.bump("same-error", event.tool ?? "", Number(event.detail["repeats"] ?? 0));
  }

  loops(): AnalyzedLoop[] {
    const loops = [...this.repeated];
    for (const [tool, calls] of this.retries) loops.push({ kind: "retry-after-denial", tool, calls });
    loops.push(...this.switches.values());
    return loops;
  }

  private rememberDenied(patternKey: string, call: ToolCall, targets: readonly string[]): void {
    let denied = this.deniedOfPattern.get(patternKey);
    if (denied === undefined) {
      if (this.deniedOfPattern.size >= MAX_DENIED_PATTERNS) return;
      denied = { signatures: new Set(), targets: [] };
      this.deniedOfPattern.set(patternKey, denied);
    }
    if (call.signature !== undefined && denied.signatures.size < MAX_DENIED_OF_PATTERN)
      denied.signatures.add(call.signature);
    for (const target of targets)
      if (denied.targets.length < MAX_DENIED_OF_PATTERN && !denied.targets.includes(target))
        denied.targets.push(target);
  }

  private retriesDenied(patternKey: string | undefined, call: ToolCall, targets: () => readonly string[]): boolean {
    const denied: DeniedOfPattern | undefined =
      patternKey === undefined ? undefined : this.deniedOfPattern.get(patternKey);
    if (denied === undefined) return true;
    return retriesDenied({ call: { signature: call.signature, targets: targets() }, denied, sameTarget });
  }

  private bump(kind: LoopKind, tool: string, calls: number): void {
    let ofKind = this.repeatedOf.get(kind);
    if (ofKind === undefined) {
      ofKind = new Map();
      this.repeatedOf.set(kind, ofKind);
    }
    const found = ofKind.get(tool);
    if (found !== undefined) {
      found.calls = Math.max(found.calls, calls);
      return;
    }
    const loop: AnalyzedLoop = { kind, tool, calls };
    ofKind.set(tool, loop);
    this.repeated.push(loop);
  }

  private detectRepetition(call: ToolCall, agentId: string | undefined): void {
    const { loop } = this.config;
    if (loop.isExempt(call.tool) || call.signature === undefined) return;
    const key = agentId ?? "";
    const current = this.windows.get(key);
    const advanced = advanceWindow({
      window: current?.window ?? [],
      runs: current?.runs ?? [],
      signature: call.signature,
      maxLength: loop.maxCycleLength,
    });
    if (current === undefined) this.windows.set(key, { window: advanced.window, runs: advanced.runs });
    else {
      current.window = advanced.window;
      current.runs = advanced.runs;
    }
    const threshold = this.threshold;
    if (advanced.bestLength === 0 || advanced.bestRepeats < threshold) return;
    const kind: LoopKind = advanced.bestLength === 1 ? "identical-call" : "cycle";
    this.bump(kind, call.tool, advanced.bestRepeats);
  }

  private checkIntentSwitch(call: ToolCall, targetsOf: () => readonly string[]): void {
    if (this.deniedTargets.length === 0) return;
    const targets = targetsOf();
    for (const denied of this.deniedTargets) {
      // the same tool under another host's name is no switch of intent
      if (
        canonicalTool(denied.tool) === canonicalTool(call.tool) ||
        !targets.some((target) => sameTarget(target, denied.target))
      )
        continue;
      const id = `${denied.tool}>${call.tool}`;
      const loop = this.switches.get(id) ?? {
        kind: "intent-switch" as const,
        tool: call.tool,
        calls: 0,
        after: denied.tool,
      };
      loop.calls += 1;
      this.switches.set(id, loop);
      return;
    }
  }
}
