/**
 * The texts that mark an OS or sandbox refusal, and the ones that look similar but are not (SSH and HTTP
 * authentication failures, source-code lines). Keyword lists cover the hosts' own sandbox-denial heuristics (each
 * host's denial-texts file names the ones it has). Every pattern is matched per line and runs in linear time.
 *
 * To extend: add to `PERMISSION_LINE` (a refusal of a file or resource), `SOCKET_CONTEXT` (that refusal concerned
 * the network; for either, a word of the new alternative to `REFUSAL_WORDS` unless one is there already), `NETWORK_SYMPTOM` (what a blocked network looks like from inside a sandbox), or `PATH_PATTERNS`
 * (how a tool names the refused path), with a row in `classify-os-denial.test.ts`.
 */

/** A line that reports a refusal by the OS or a sandbox. */
export const PERMISSION_LINE =
  /operation not permitted|permission denied|\beacces\b|\beperm\b|read-only file system|\berofs\b|access is denied|access to the path .{0,300} is denied|unauthorizedaccessexception|permissionerror|\[errno (?:1|13|30)\]|os error (?:1|13|30)\)|insufficient permission|sandbox_apply|sandbox-exec|\bdeny\(\d+\)|\blandlock\b|\bseccomp\b|fs\.permissiondenied|networkaccessdenied|blocked by (?:the )?sandbox|sandbox (?:denied|blocked)|not permitted by (?:the )?sandbox/i;

/**
 * Words one of which every match of `PERMISSION_LINE` and of `SOCKET_CONTEXT` holds, lower-cased (each alternative of
 * both names one: a test has an example of every alternative). A line without any of them cannot be a refusal, so
 * its patterns are not run: a hook process would otherwise compile them (about 16 M instructions: V8 compiles each
 * pattern at its first run and again at its second, and the bounded repeats unroll) for every output it looks at.
 */
export const REFUSAL_WORDS: readonly string[] = [
  "permi",
  "eacces",
  "eperm",
  "read-only",
  "erofs",
  "denied",
  "unauthorizedaccess",
  "[errno ",
  "os error ",
  "sandbox",
  "deny(",
  "landlock",
  "seccomp",
  "network-",
  "network access",
];

/** Whether a lower-cased text holds one of `REFUSAL_WORDS` (else neither pattern can match it). */
export function mayNameRefusal(lowerCased: string): boolean {
  for (const word of REFUSAL_WORDS) if (lowerCased.includes(word)) return true;
  return false;
}

/** Lines that mention permission but are about authentication or access control on a server. */
export const NOT_OS_PERMISSION =
  /permission denied \((?:publickey|password|keyboard-interactive|gssapi)|permission denied, please try again|permission to \S+ denied to|\b(?:http|status)[ /:]*40[13]\b|denied to user|\bforbidden\b/i;

/** A line that looks like source code or search output (`src/a.ts:12: ...`), not a tool's own error. */
export const SOURCE_LINE = /^\s*[^\s:]+:\d+(?::\d+)?[:-]/;

/** A refusal that concerns the network (a socket operation, not a file). Unix-domain sockets are files. */
export const SOCKET_CONTEXT =
  /\b(?:listen|connect|bind|socket|sendto|sendmsg|getaddrinfo|accept)\b[^\n]{0,40}(?:eperm|eacces|operation not permitted|permission denied)|(?:eperm|eacces|operation not permitted|permission denied)[^\n]{0,20}\b(?:\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[?::1?\]?|localhost):\d{1,5}|failed to connect to .{0,200}(?:operation not permitted|permission denied)|network-outbound|network-bind|networkaccessdenied|network access (?:to .{0,200})?(?:is )?(?:blocked|denied)/i;

/** What a blocked network looks like from inside a sandbox; only a denial when a sandbox is active. */
export const NETWORK_SYMPTOM =
  /could not resolve host|couldn't resolve host|temporary failure in name resolution|name or service not known|network is unreachable|no address associated with hostname|\benotfound\b|\beai_again\b|\beconnrefused\b|\benetunreach\b|\beconnreset\b|\betimedout\b|connection refused|failed to connect to|error connecting to|socket hang up|getaddrinfo|err_pnpm_fetch|err_pnpm_no_matching_version|npm err! network|npm error network|spurious network error|failed to establish a new connection|\bsocketexception\b|dial tcp|i\/o timeout|network error/i;

/** Where a tool names the refused path; the first group is the path. Tried in order on the evidence line. */
export const PATH_PATTERNS: readonly RegExp[] = [
  // node: Error: EACCES: permission denied, open '/etc/shadow'
  /\b(?:EACCES|EPERM|EROFS)\b[^,\n]{0,80}, \w+ '([^'\n]{1,4096})'/,
  // python: PermissionError: [Errno 13] Permission denied: '/etc/hosts'
  /\[Errno \d+\] [^:\n]{1,80}: '([^'\n]{1,4096})'/,
  // Windows: Access to the path 'C:\x' is denied.
  /Access to the path '([^'\n]{1,4096})' is denied/i,
  // git: Unable to create '/repo/.git/index.lock': Read-only file system
  /(?:Unable to create|could not create work tree dir|could not open|cannot open|cannot create directory|cannot create|cannot touch|cannot remove|cannot access|cannot open directory|cannot move|cannot copy|failed to open|could not write to|failed to write) [`']([^`'\n]{1,4096})[`']/i,
  // git: error: could not lock config file .git/config: Permission denied
  /could not lock config file ([^:\n]{1,4096}):/i,
  // docker: dial unix /var/run/docker.sock: connect: permission denied
  /(?:dial unix|unix:\/\/)(\/[^\s:"]{1,4096})/,
  // find: '/proc/1/fd': Permission denied (the program may be named by its path: /usr/bin/find: ...)
  /^\/?(?:[\w.+-]{1,255}\/){0,16}[\w.-]{1,40}: '([^'\n]{1,4096})': /,
  // coreutils/BSD: ls: Desktop: Operation not permitted, mkdir: /x: Read-only file system, bash: ./x.sh: Permission
  // denied, /usr/bin/bash: line 4: ./x.sh: Permission denied (a host that runs commands through /usr/bin/bash)
  /^\/?(?:[\w.+-]{1,255}\/){0,16}[\w.-]{1,40}: (?:line \d+: )?([^\s:'][^:\n]{0,4095}): (?:Operation not permitted|Permission denied|Read-only file system)/i,
  // cargo/rust: failed to open: /home/u/.cargo/x
  /failed to (?:open|create|write|remove)[^:\n]{0,40}: (\/[^\s:]{1,4096})/i,
  // npm: npm ERR! path /usr/lib/node_modules/x
  /npm (?:ERR!|error) path (\S{1,4096})/,
];

/**
 * Whether a line may name a path for `PATH_PATTERNS` or `ABSOLUTE_PATH`: each needs a quote, a backquote, a slash or
 * a colon, or npm's own words (a test has an example of each pattern). The lines around a refusal are searched for
 * its path, and most of them (`Exit code 1`) hold none: the patterns are then not compiled for them.
 */
export function mayNamePath(line: string): boolean {
  return /['`/:]/.test(line) || line.includes("npm");
}

/** Words that sit where a path would but name an operation (`sandbox-exec: sandbox_apply: ...`). */
export const NOT_A_PATH =
  /^(?:sandbox_apply|sandbox-exec|connect|bind|listen|socket|open|write|read|mkdir|unlink|rename|chmod|chown|exec|execve|spawn|error|fatal)$/i;

/** Any absolute POSIX path on a line (a last resort for the path). */
export const ABSOLUTE_PATH = /(?:^|[\s'"`(=])(\/[^\s'"`:,()]{1,4096})/;
