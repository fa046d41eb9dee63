import { lowerCase } from "./lower-case.js";
import type { SecretDetector } from "./secret-detector.js";

/**
 * Detectors for secrets with a recognisable format (provider prefixes, JWTs, PEM blocks). Each pattern has a left
 * boundary that excludes its own body characters, so scans never overlap and the run time is linear. Order matters
 * only for overlapping formats: the more specific one comes first (`sk-ant-` before `sk-`).
 *
 * To add a format: append `token(kind, body, needles)` (or `{ kind, pattern, appliesTo }` with flags `gd`), a left
 * boundary `(?<![...])` that includes every body character, bounded quantifiers, the literals every match holds
 * (`needles`: a text without any is passed over), a row in `known-secret-detectors.test.ts` for each alternative,
 * and a corpus row in `test/support/redaction-corpus.mjs` (positive and, if risky, negative).
 */

/** characters that may not precede a token (its own alphabet, plus `+` so base64 data does not match) */
const B = String.raw`(?<![A-Za-z0-9_+\-])`;
/** characters that may not follow a token */
const E = String.raw`(?![A-Za-z0-9_\-])`;

/**
 * A token format: its pattern, and the literals one of which every match contains (`needles`): a text holding none is
 * passed over with a few `includes` calls, so the pattern is never compiled or run for it (most tool inputs hold
 * no token at all; compiling these patterns cost a hook process about a millisecond). known-secret-detectors.test.ts
 * has an example of every alternative.
 */
const token = (kind: string, body: string, needles: readonly string[]): SecretDetector => ({
  kind,
  pattern: new RegExp(`${B}${body}${E}`, "gd"),
  appliesTo: (text) => needles.some((needle) => text.includes(needle)),
});

export const KNOWN_SECRET_DETECTORS: readonly SecretDetector[] = [
  {
    kind: "private-key",
    // a PEM private-key block; the body stops at the next `-----` (the END line), so the block is consumed once
    pattern:
      /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^-]|-(?!----)){0,65536}(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)?/dg,
    appliesTo: (text) => text.includes("PRIVATE KEY"),
  },
  token("aws-access-key-id", "(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}", [
    "AKIA",
    "ASIA",
    "ABIA",
    "ACCA",
    "A3T",
  ]),
  token("github-token", "(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]),
  token("github-token", "github_pat_[A-Za-z0-9_]{22,255}", ["github_pat_"]),
  token("gitlab-token", "gl(?:pat|dt|rt|ptt|oas)-[A-Za-z0-9_\\-]{20,64}", [
    "glpat-",
    "gldt-",
    "glrt-",
    "glptt-",
    "gloas-",
  ]),
  token("slack-token", "xox[abprse]-[A-Za-z0-9\\-]{10,255}", ["xox"]),
  {
    kind: "slack-webhook",
    pattern: /hooks\.slack\.com\/(?:services|workflows)\/(?<secret>[A-Za-z0-9_/]{20,200})/dg,
    appliesTo: (text) => text.includes("hooks.slack.com"),
  },
  token("stripe-key", "(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,255}", ["_live_", "_test_"]),
  token("stripe-key", "whsec_[A-Za-z0-9+/=]{24,128}", ["whsec_"]),
  token("anthropic-api-key", "sk-ant-[A-Za-z0-9_\\-]{20,255}", ["sk-ant-"]),
  token("openrouter-api-key", "sk-or-v1-[a-f0-9]{64}", ["sk-or-v1-"]),
  // OpenAI: legacy `sk-` + 48, project/service/admin keys; the body must mix letters and digits (see select)
  {
    kind: "openai-api-key",
    pattern: new RegExp(`${B}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\\-]{32,255}${E}`, "gd"),
    appliesTo: (text) => text.includes("sk-"),
    select: (match) => {
      const body = match[0];
      const end = match.index + body.length;
      return /[0-9]/.test(body) && /[A-Z]/.test(body) && /[a-z]/.test(body.slice(3))
        ? { start: match.index, end, kind: "openai-api-key" }
        : { resumeAt: end };
    },
  },
  token("google-api-key", "AIza[0-9A-Za-z_\\-]{35}", ["AIza"]),
  token("npm-token", "npm_[A-Za-z0-9]{36}", ["npm_"]),
  token("huggingface-token", "hf_[A-Za-z0-9]{34,40}", ["hf_"]),
  token("supabase-token", "sbp_[a-f0-9]{40}", ["sbp_"]),
  {
    kind: "sendgrid-api-key",
    pattern: /(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/dg,
    appliesTo: (text) => text.includes("SG."),
  },
  {
    kind: "telegram-bot-token",
    // also right after `/bot`, where the Bot API's URLs put it (`https://api.telegram.org/bot<token>/getMe`)
    pattern: /(?:(?<=\/bot)|(?<![0-9A-Za-z_:]))[0-9]{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/dg,
    appliesTo: (text) => text.includes(":AA"),
  },
  {
    kind: "jwt",
    pattern:
      /(?<![A-Za-z0-9_.-])eyJ[A-Za-z0-9_-]{8,8192}\.eyJ[A-Za-z0-9_-]{8,16384}\.[A-Za-z0-9_-]{0,8192}(?![A-Za-z0-9_-])/dg,
    appliesTo: (text) => text.includes("eyJ"),
  },
  {
    // an AWS secret access key is 40 base64 characters; alone it is indistinguishable from other data, so it is
    // only looked for in texts that also mention AWS credentials, and must mix upper case, lower case and digits
    kind: "aws-secret-access-key",
    pattern: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/dg,
    // every alternative holds "akia", "asia" or "aws" in some case: most texts are passed over without the regex
    appliesTo: (text) => {
      const lower = lowerCase(text);
      return (
        (lower.includes("aws") || lower.includes("akia") || lower.includes("asia")) &&
        /(?:AKIA|ASIA)[A-Z0-9]{16}|aws.?secret|\[REDACTED:aws-access-key-id/i.test(text)
      );
    },
    select: (match) => {
      const value = match[0];
      const end = match.index + value.length;
      return /[A-Z]/.test(value) && /[a-z]/.test(value) && /[0-9]/.test(value)
        ? { start: match.index, end, kind: "aws-secret-access-key" }
        : { resumeAt: end };
    },
  },
];
