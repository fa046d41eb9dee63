/**
 * Decides whether a key, variable, header or flag name names a secret (`password`, `GITHUB_TOKEN`, `X-Api-Key`,
 * `client_secret`, `AWS_SECRET_ACCESS_KEY`) and which redaction kind its value gets. Names are split into words on
 * `_`, `-`, `.`, spaces and camelCase, so `max_tokens`, `token_type`, `password_file` and `secretName` are not secret
 * names: only the last word (or the last two) decides.
 */

/** last word -> kind */
const LAST_WORD: Readonly<Record<string, string>> = {
  password: "password",
  passwd: "password",
  passphrase: "password",
  secret: "secret",
  token: "token",
  apikey: "api-key",
  accesskey: "secret",
  secretkey: "secret",
  privatekey: "private-key",
  clientsecret: "secret",
  authtoken: "token",
  accesstoken: "token",
  refreshtoken: "token",
  authorization: "authorization",
  auth: "secret",
  cookie: "cookie",
  credential: "secret",
};

/** word before a final `key` -> kind (`api_key`, `x-api-key`, `private_key`, `AccountKey`, `APP_KEY`) */
const KEY_QUALIFIER: Readonly<Record<string, string>> = {
  api: "api-key",
  access: "secret",
  private: "private-key",
  secret: "secret",
  account: "secret",
  master: "secret",
  encryption: "secret",
  signing: "secret",
  license: "api-key",
  subscription: "api-key",
  app: "secret",
  service: "api-key",
};

function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** The redaction kind for values of this name, or undefined when the name does not name a secret. */
const HINT = /pass|pwd|secret|token|key|auth|cookie|credential/i;

export function secretKindForName(name: string): string | undefined {
  if (name.length === 0 || name.length > 128 || !HINT.test(name)) return undefined;
  const words = splitWords(name);
  const last = words[words.length - 1];
  if (last === undefined) return undefined;
  const previous = words[words.length - 2];
  // AWS_SECRET_ACCESS_KEY, SecretAccessKey, aws_secret_key
  if (
    last === "key" &&
    ((previous === "access" && words.includes("secret")) || (previous === "secret" && words.includes("aws")))
  ) {
    return "aws-secret-access-key";
  }
  if (last === "key" && previous !== undefined) return KEY_QUALIFIER[previous];
  // MYSQL_PWD, DB_PWD (but not PWD, the working directory)
  if (last === "pwd" && previous !== undefined && previous !== "old") return "password";
  const direct = LAST_WORD[last];
  if (direct !== undefined) return direct;
  // run-together names: PGPASSWORD, DBPASSWD, APITOKEN, CLIENTSECRET
  const suffix = /(password|passwd|passphrase|secret|token|apikey)$/.exec(last)?.[1];
  return suffix === undefined || suffix === last ? undefined : LAST_WORD[suffix];
}
