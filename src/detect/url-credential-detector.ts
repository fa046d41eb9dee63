import { MARKER_PREFIX, type SecretDetector, type SecretSelection, type SecretSkip } from "./secret-detector.js";

/**
 * The password in `scheme://user:password@host`, split the way real clients split userinfo: the user name ends at
 * the first `:`, the password at the LAST `@` before the host (WHATWG URL; libpq, redis and mongodb clients agree),
 * so `p@ss`, `p:ss`, `p%40ss` are one password. Passwords also carry `#` and `?` unencoded in the wild (clients that
 * split at the last `@` accept them), so the password runs to the last `@` before a `/`, whitespace or quote: a
 * conservative reading under which no part of the secret survives. A password that is percent-encoded is also
 * remembered decoded, so a copy of it elsewhere in the text (`PGPASSWORD='p@ss'`) goes too. The user name stays.
 */

/** scheme:// and a user name without `:` `/` `?` `#` (this matches up to the `:` before the password) */
const URL_USER = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,31}:\/\/[^\s:/?#'"`<>[\]\\]{0,256}:/g;
/** where the authority certainly ends: a path, whitespace, a quote or an angle bracket */
const AUTHORITY_END = new Set([..." \t\n\r\f\v/\\'\"`<>"].map((character) => character.charCodeAt(0)));
const MAX_PASSWORD = 1024;
/** `host:8080?email=a@b` and `host:8080#x@y`: a port, then a query or fragment holding an `@` */
const PORT_THEN_QUERY = /^\d{1,5}[?#]/;

function selectPassword(match: RegExpExecArray): SecretSelection | SecretSkip {
  const text = match.input;
  const start = match.index + match[0].length;
  const limit = Math.min(text.length, start + MAX_PASSWORD + 1);
  let end = start;
  while (end < limit && !AUTHORITY_END.has(text.charCodeAt(end))) end++;
  const at = text.lastIndexOf("@", end - 1);
  const skip: SecretSkip = { resumeAt: start };
  if (at < start) return skip;
  const password = text.slice(start, at);
  if (password.length === 0 || password.length > MAX_PASSWORD || PORT_THEN_QUERY.test(password)) return skip;
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
