import { MARKER_PREFIX, type SecretDetector, type SecretSelection, type SecretSkip } from "./secret-detector.js";

/**
 * The password in `scheme://user:password@host`, split the way real clients split userinfo: the user name ends at
 * the first `:`, the password at the LAST `@` before the host (WHATWG URL; libpq, redis and mongodb clients agree),
 * so `p@ss`, `p:ss`, `p%40ss` are one password. Passwords also carry `#` and `?` unencoded in the wild (clients that
 * split at the last `@` accept them), so the password runs to the last `@` before a `/`, whitespace or quote: a
 * conservative reading under which no part of the secret survives. What a person reads as a password is redacted
 * whatever a URL parser makes of it: one holding `/` or `\\` (`p/ss@db`) runs to the `@` after it, and one that starts
 * like a port (`6#Jeq@db:5432`) is a password unless the URL reads better as `host:port` with a query, fragment or
 * path (`portLike`). A password that is percent-encoded is also
 * remembered decoded, so a copy of it elsewhere in the text (`PGPASSWORD='p@ss'`) goes too. The user name stays.
 */

/** scheme:// and a user name without `:` `/` `?` `#` (this matches up to the `:` before the password) */
const URL_USER = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,31}:\/\/[^\s:/?#'"`<>[\]\\]{0,256}:/g;
/** where the authority certainly ends: a path, whitespace, a quote or an angle bracket */
const AUTHORITY_END = new Set([..." \t\n\r\f\v/\\'\"`<>"].map((character) => character.charCodeAt(0)));
/** where a password a person reads certainly ends, whatever a URL parser makes of `/` and `\\` in it */
const WORD_END = new Set([..." \t\n\r\f\v'\"`<>"].map((character) => character.charCodeAt(0)));
const MAX_PASSWORD = 1024;
const AT = "@".charCodeAt(0);
/** `host:8080?email=a@b`, `host:8080#x@y`, `host:8080/a@b`: a port, then a query, fragment or path holding an `@` */
const PORT_THEN_MORE = /^\d{1,5}([?#/\\])/;
/** after the `@`: a host, then a port (a second one: the first `:digits` was not the port) */
const HOST_THEN_PORT = /^(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\]):\d/;
/** after the `@`: a dotted host name or an IP address, then a path */
const HOST_THEN_PATH = /^(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8}|\[[0-9A-Fa-f:.]{2,45}\])\//;
/** schemes whose URLs carry queries and fragments that may hold an `@` (an e-mail address, a path) */
const WEB_SCHEMES = new Set(["http", "https", "ws", "wss"]);

/**
 * A password that starts like a port (`6#Jeq`, `8080?x`) is what a person reads as a password unless the URL reads
 * better as `host:port` and a query, fragment or path: a query's `key=`, or an `@` followed by nothing like a host
 * with a port (or, for web URLs, with a path). A database, cache or queue URL carries no fragment or query before an
 * `@`, so there `#` and `?` are read as part of the password.
 */
function portLike(options: { text: string; scheme: string; password: string; at: number }): boolean {
  const { text, password, at } = options;
  const separator = PORT_THEN_MORE.exec(password)?.[1];
  if (separator === undefined) return false;
  if (password.includes("=") || password.includes("&")) return true;
  const after = text.slice(at + 1, at + 300);
  if (HOST_THEN_PORT.test(after)) return false;
  if (separator === "/" || separator === "\\") return true;
  return WEB_SCHEMES.has(options.scheme.toLowerCase()) && !HOST_THEN_PATH.test(after);
}

/**
 * Where the password ends: the last `@` before the authority ends; or, when it holds a `/` or `\\` (`p/ss@host`),
 * the first `@` after that before whitespace or a quote. -1: no password. Scans at most `limit`.
 */
function passwordEnd(options: { text: string; start: number; limit: number }): number {
  const { text, start, limit } = options;
  let end = start;
  while (end < limit && !AUTHORITY_END.has(text.charCodeAt(end))) end++;
  const at = text.lastIndexOf("@", end - 1);
  if (at >= start) return at;
  // no `@` before a `/` or `\\`: a password holding one (`p/ss@host`) ends at the first `@` up to the next space
  if (end >= limit || WORD_END.has(text.charCodeAt(end))) return -1;
  let wordEnd = end;
  while (wordEnd < limit && !WORD_END.has(text.charCodeAt(wordEnd))) wordEnd++;
  for (let index = end; index < wordEnd; index++) if (text.charCodeAt(index) === AT) return index;
  return -1;
}

function selectPassword(match: RegExpExecArray): SecretSelection | SecretSkip {
  const text = match.input;
  const start = match.index + match[0].length;
  const limit = Math.min(text.length, start + MAX_PASSWORD + 1);
  const at = passwordEnd({ text, start, limit });
  const skip: SecretSkip = { resumeAt: start };
  if (at < start) return skip;
  const password = text.slice(start, at);
  const scheme = match[0].slice(0, match[0].indexOf(":"));
  if (password.length === 0 || password.length > MAX_PASSWORD || portLike({ text, scheme, password, at })) return skip;
  const resumeAt = at + 1;
  const marker = password.indexOf(MARKER_PREFIX);
  if (marker === -1) {
    const decoded = percentDecoded(password);
    return { start, end: at, kind: "url-password", resumeAt, ...(decoded === undefined ? {} : { aliases: [decoded] }) };
  }
  // another detector already replaced part of it (a token inside the password): take what is left around it, one
  // piece per pass (the engine repeats until nothing changes)
  if (marker > 0) return { start, end: start + marker, kind: "url-password", resumeAt };
  const lastMarker = password.lastIndexOf(MARKER_PREFIX);
  const afterMarkers = password.indexOf("]", lastMarker) + 1;
  if (afterMarkers > 0 && afterMarkers < password.length) {
    return { start: start + afterMarkers, end: at, kind: "url-password", resumeAt };
  }
  return { resumeAt };
}

export const URL_CREDENTIAL_DETECTOR: SecretDetector = {
  kind: "url-password",
  pattern: new RegExp(URL_USER.source, "dg"),
  appliesTo: (text) => text.includes("://"),
  select: selectPassword,
};

/** The decoded form of a percent-encoded secret (`p%40ss` -> `p@ss`), or undefined when it has no escape. */
export function percentDecoded(secret: string): string | undefined {
  if (!/%[0-9A-Fa-f]{2}/.test(secret)) return undefined;
  try {
    const decoded = decodeURIComponent(secret);
    return decoded === secret ? undefined : decoded;
  } catch {
    // a lone `%` or a broken UTF-8 sequence: decode the valid escapes byte by byte
    const decoded = secret.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    return decoded === secret ? undefined : decoded;
  }
}
