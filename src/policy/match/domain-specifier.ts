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

export function normalizeHost(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.endsWith(".") ? lower.slice(0, -1) : lower;
}

/** The normalised host of a URL, or undefined when the URL cannot be read. */
const SIMPLE_URL = /^https?:\/\/([a-zA-Z0-9.-]+)(?::[0-9]*)?(?:[/?#]|$)/;

export function hostOf(url: string): string | undefined {
  // fast path for plain http(s) URLs; anything unusual (userinfo, backslashes, escapes) goes through URL
  const simple = SIMPLE_URL.exec(url);
  if (simple !== null) return normalizeHost(simple[1] as string);
  try {
    return normalizeHost(new URL(url).hostname);
  } catch {
    const match = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/:?#\s]+)/i.exec(url.trim());
    return match?.[1] === undefined ? undefined : normalizeHost(match[1]);
  }
}
