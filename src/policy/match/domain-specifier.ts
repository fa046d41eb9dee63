import { compileWildcardMatcher } from "../../core/wildcard-match.js";

/**
 * `WebFetch(domain:host)`: the host is compared case-insensitively with a trailing dot removed;
 * `*.example.com` matches subdomains at any depth but not the apex; `*` alone matches every host; any other `*`
 * matches within one label (`example.*` matches `example.org`, not `example.evil.com`).
 */
export function compileDomainSpecifier(domain: string): (host: string) => boolean {
  const pattern = normalizeHost(domain);
  if (pattern === "*") return () => true;
  if (pattern.startsWith("*.") && !pattern.slice(2).includes("*")) {
    const suffix = pattern.slice(1);
    return (host) => host.endsWith(suffix) && host.length > suffix.length;
  }
  if (!pattern.includes("*")) return (host) => host === pattern;
  // a `*` never crosses a dot, so the pattern's labels line up one to one with the host's: each label is matched
  // on its own in linear time (no RegExp)
  const labels = pattern.split(".").map((label) => compileWildcardMatcher(label, { question: false }));
  return (host) => {
    const parts = host.split(".");
    return parts.length === labels.length && labels.every((matches, index) => matches(parts[index] as string));
  };
}

/**
 * The one host a domain specifier without a wildcard matches (`compileDomainSpecifier` then compares the host to it
 * and nothing else), or undefined for a specifier with a `*`: rules are looked up by it instead of tested one by one.
 */
export function literalDomainHost(domain: string): string | undefined {
  const pattern = normalizeHost(domain);
  return pattern.includes("*") ? undefined : pattern;
}

export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.endsWith(".") ? lower.slice(0, -1) : lower;
}

/** A plain http(s) URL's host: the fast path of `hostOf` (what `simpleUrlHost` reads, without a regex). */
export const SIMPLE_URL = /^https?:\/\/([a-zA-Z0-9.-]+)(?::[0-9]*)?(?:[/?#]|$)/;

/** Character codes of a plain host: letters, digits, `.` and `-`. */
const HOST_CODE = new Uint8Array(128);
for (const char of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-")
  HOST_CODE[char.charCodeAt(0)] = 1;
const COLON = 58;
const SLASH = 47;
const QUESTION = 63;
const HASH = 35;

/**
 * The host `SIMPLE_URL` captures, or undefined where it does not match: one pass over the char codes
 * (property-tested against the pattern).
 */
export function simpleUrlHost(url: string): string | undefined {
  let at: number;
  if (url.startsWith("http://")) at = 7;
  else if (url.startsWith("https://")) at = 8;
  else return undefined;
  const start = at;
  const length = url.length;
  while (at < length) {
    const code = url.charCodeAt(at);
    if (code >= 128 || HOST_CODE[code] !== 1) break;
    at++;
  }
  if (at === start) return undefined;
  const end = at;
  if (at < length && url.charCodeAt(at) === COLON) {
    at++;
    while (at < length) {
      const code = url.charCodeAt(at);
      if (code < 48 || code > 57) break;
      at++;
    }
  }
  if (at < length) {
    const code = url.charCodeAt(at);
    if (code !== SLASH && code !== QUESTION && code !== HASH) return undefined;
  }
  return url.slice(start, end);
}

/** The normalised host of a URL, or undefined when the URL cannot be read. */
export function hostOf(url: string): string | undefined {
  // fast path for plain http(s) URLs; anything unusual (userinfo, backslashes, escapes) goes through URL
  const simple = simpleUrlHost(url);
  if (simple !== undefined) return normalizeHost(simple);
  try {
    return normalizeHost(new URL(url).hostname);
  } catch {
    const match = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/:?#\s]+)/i.exec(url.trim());
    return match?.[1] === undefined ? undefined : normalizeHost(match[1]);
  }
}
