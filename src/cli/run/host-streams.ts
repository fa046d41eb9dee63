import { claudeCodeStreamDetector } from "../../adapters/claude-code/stream-parser.js";
import { codexStreamDetector } from "../../adapters/codex/codex-stream.js";
import { geminiStreamDetector } from "../../adapters/gemini/gemini-stream.js";
import type { HostStreamDetector } from "../../adapters/host-stream.js";
import { opencodeStreamDetector } from "../../adapters/opencode/opencode-stream.js";
import { qwenStreamDetector } from "../../adapters/qwen/qwen-stream.js";

/** Every host whose stream `toolgate run` understands. One line per host. */
export const HOST_STREAMS: readonly HostStreamDetector[] = [
  claudeCodeStreamDetector,
  opencodeStreamDetector,
  qwenStreamDetector,
  codexStreamDetector,
  geminiStreamDetector,
];
