// An opencode plugin file with custom toolgate options (docs/opencode.md quotes it). Put it in
// .opencode/plugins/toolgate.ts; `toolgate install opencode` is the zero-option alternative.
// Type-checked by `npm run typecheck`, and against the real @opencode-ai/plugin by test/e2e/declared-types.test.ts.
import type { Plugin } from "@opencode-ai/plugin";
import { createToolgatePlugin } from "toolgate/opencode";

const server: Plugin = createToolgatePlugin({
  // headless: name the unavailable capability and carry on, instead of aborting the run at the threshold
  core: { headlessStrategy: "fallback", nudge: { cooldownMs: 60_000 } },
});

export default { id: "toolgate", server };
