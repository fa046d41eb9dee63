import { lowerCase } from "./lower-case.js";
import type { SecretDetector, SecretSelection, SecretSkip } from "./secret-detector.js";
import { secretKindForName } from "./secret-key-names.js";
import { URL_CREDENTIAL_DETECTOR } from "./url-credential-detector.js";

/**
 * Detectors for secrets recognised by their context rather than their format: credentials in URLs, HTTP
 * authorization headers, `curl -u user:pass`, and values whose key, variable, header or flag names a secret
 * (`password=...`, `"client_secret": "..."`, `export GITHUB_TOKEN=...`, `--api-key ...`).
 */

/** Values that are references or placeholders, not secrets: `$VAR`, `${VAR}`, `%VAR%`, `<token>`, `***`, booleans. */
const PLACEHOLDER =
  /^(?:\$|%[A-Za-z_]+%$|<[^>]*>?$|\*+$|x+$|\.\.\.$|…$|(?:true|false|null|none|nil|undefined|changeme|redacted|required|optional|string|your[_-].*)$)/i;
/** Values that are file paths (`./key.pem`, `/run/secrets/db`, `~/.npmrc`). */
const PATH_LIKE = /^(?:\.{0,2}\/|~\/)[^\s]*$/;

/** True for values that are references, placeholders or file paths rather than secrets. */
export function isPlaceholderValue(value: string): boolean {
  return value.length === 0 || PLACEHOLDER.test(value) || PATH_LIKE.test(value);
}

function groupSpan(match: RegExpExecArray, name: string): [number, number] | undefined {
  return match.indices?.groups?.[name];
}

/**
 * The value after a key or flag, matched in a second step (sticky, at the end of the key) only when the key names a
 * secret, so values of ordinary keys are never scanned. The closing quote is optional: an unterminated value still
 * matches (and is redacted) instead of failing and being rescanned.
 */
const VALUE =
  /"(?<double>(?:[^"\\\n]|\\.){1,1024})"?|'(?<single>[^'\n]{1,1024})'?|(?<bare>[^\s"'`,;&|<>(){}[\]][^\s"'`;&|<>(){}[\]]{0,1023})/y;

interface ValueMatch {
  value: string;
  start: number;
  end: number;
  /** end of the whole value including a closing quote */
  after: number;
  quoted: '"' | "'" | undefined;
}

function matchValue(text: string, at: number): ValueMatch | undefined {
  VALUE.lastIndex = at;
  const match = VALUE.exec(text);
  VALUE.lastIndex = 0;
  if (match === null) return undefined;
  const double = match.groups?.["double"];
  const single = match.groups?.["single"];
  const value = double ?? single ?? match.groups?.["bare"] ?? "";
  const start = at + (double !== undefined || single !== undefined ? 1 : 0);
  return {
    value,
    start,
    end: start + value.length,
    after: at + match[0].length,
    quoted: double !== undefined ? '"' : single !== undefined ? "'" : undefined,
  };
}

/** key=value, key: value, "key": "value", KEY='value' (env), header: value, ?key=value& (this matches up to the value) */
const KEY_HEAD =
  /(?<![A-Za-z0-9_.-])(?<key>[A-Za-z_][A-Za-z0-9_.-]{0,99})(?<keyQuote>["']?)(?<separator>[ \t]*(?::=|=>|[:=])[ \t]*)/g;

function selectKeyValue(match: RegExpExecArray): SecretSelection | SecretSkip {
  const groups = match.groups ?? {};
  const key = groups["key"] ?? "";
  const skipKey: SecretSkip = { resumeAt: match.index + Math.max(1, key.length) };
  const kind = secretKindForName(key);
  if (kind === undefined) return skipKey;
  const value = matchValue(match.input, match.index + match[0].length);
  if (value === undefined || isPlaceholderValue(value.value)) return skipKey;
  const before = match.input.charAt(match.index - 1);
  const separator = groups["separator"] ?? "";
  if (value.quoted !== undefined) {
    // `grep "password=" file`: the quote after the separator closes the string the key sits in
    if (before === value.quoted && groups["keyQuote"] === "" && separator.trim() !== ":=") return skipKey;
  } else if (separator.trim() === ":" && groups["keyQuote"] === "") {
    // YAML and headers put a space after the colon; prose ("the token: it expires") has a plain word after it
    if (!/[ \t]$/.test(separator)) return skipKey;
    if (/^[A-Za-z]{1,11}$/.test(value.value)) return skipKey;
  }
  if (kind === "cookie" && value.quoted === undefined) {
    // a Cookie header holds several `name=value;` pairs: the whole header value goes
    const rest = /^[^"'\n\\]{0,4096}/.exec(match.input.slice(value.start, value.start + 4096))?.[0] ?? value.value;
    const end = value.start + rest.trimEnd().length;
    return { start: value.start, end, kind, resumeAt: end };
  }
  return { start: value.start, end: value.end, kind, resumeAt: value.after };
}

/** --password value, --api-key=value, -token value (this matches up to the value) */
const FLAG_HEAD = /(?<![A-Za-z0-9_-])--?(?<flag>[A-Za-z][A-Za-z0-9_-]{0,63})(?:[ \t]+|=)/g;

function selectFlagValue(match: RegExpExecArray): SecretSelection | SecretSkip {
  const flag = match.groups?.["flag"] ?? "";
  const skip: SecretSkip = { resumeAt: match.index + 1 + flag.length };
  const kind = secretKindForName(flag);
  if (kind === undefined) return skip;
  const value = matchValue(match.input, match.index + match[0].length);
  if (value === undefined || isPlaceholderValue(value.value)) return skip;
  // `--token --verbose`: a value that starts with a dash is the next flag unless it looks random
  const text = value.value;
  if (value.quoted === undefined && text.startsWith("-") && !(text.length >= 12 && /[A-Z0-9_]/.test(text))) return skip;
  return { start: value.start, end: value.end, kind, resumeAt: value.after };
}

/**
 * The detectors' `appliesTo` tests are plain `includes` calls where they can be: a regular expression is compiled on
 * its first use, which a hook process (one tool input, then exit) pays in full. A test may let through a text its
 * pattern then finds nothing in; it must never turn away one the pattern would match.
 */
export const CONTEXT_SECRET_DETECTORS: readonly SecretDetector[] = [
  // scheme://user:password@host (the user name stays; the password goes), split as clients split userinfo
  URL_CREDENTIAL_DETECTOR,
  {
    // Authorization: Bearer xyz / Proxy-Authorization: Basic xyz (the scheme stays)
    kind: "authorization",
    pattern:
      /(?<![A-Za-z0-9_-])(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|digest|bot|negotiate|aws4-hmac-sha256|ssws|apikey)[ \t]+)?(?<secret>[^\s"'\\][^"'\\\n]{0,2047})/dgi,
    appliesTo: (text) => lowerCase(text).includes("authorization"),
    select: (match) => {
      const span = groupSpan(match, "secret");
      const value = match.groups?.["secret"] ?? "";
      if (span === undefined || isPlaceholderValue(value.trim())) return { resumeAt: match.index + 1 };
      return { start: span[0], end: span[0] + value.trimEnd().length, kind: "authorization" };
    },
  },
  {
    kind: "bearer-token",
    pattern: /(?<![A-Za-z0-9_-])[Bb]earer[ \t]+(?<secret>[A-Za-z0-9\-._~+/]{16,4096}=*)/dg,
    appliesTo: (text) => text.includes("earer"),
  },
  {
    // curl -u user:password, --user user:password
    kind: "basic-auth",
    pattern: /(?<![A-Za-z0-9_-])(?:-u|--user)(?:[ \t]+|=)["']?[^\s:'"]{1,256}:(?<secret>[^\s'"]{1,1024})/dg,
    appliesTo: (text) => text.includes("-u"),
    select: (match) => {
      const span = groupSpan(match, "secret");
      if (span === undefined || isPlaceholderValue(match.groups?.["secret"] ?? ""))
        return { resumeAt: match.index + 2 };
      return { start: span[0], end: span[1], kind: "basic-auth" };
    },
  },
  {
    // mysql -uroot -pS3cret (no space: with a space, mysql prompts and the next word is the database)
    kind: "password",
    pattern: /(?<![A-Za-z0-9_-])-p(?<secret>[^\s'"-][^\s'"]{0,255})/dg,
    appliesTo: (text) =>
      (text.includes("mysql") || text.includes("mariadb")) &&
      /\b(?:mysql|mariadb|mysqldump|mysqladmin|mysqlimport|mysqlsh)\b/.test(text),
  },
  {
    kind: "password",
    pattern: /\bsshpass[ \t]+-p[ \t]*["']?(?<secret>[^\s'"]{1,256})/dg,
    appliesTo: (text) => text.includes("sshpass"),
  },
  { kind: "secret", pattern: FLAG_HEAD, select: selectFlagValue, appliesTo: (text) => text.includes("-") },
  {
    kind: "secret",
    pattern: KEY_HEAD,
    select: selectKeyValue,
    appliesTo: (text) => text.includes(":") || text.includes("="),
  },
];
