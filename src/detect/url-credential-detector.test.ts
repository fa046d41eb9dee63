import { describe, expect, it } from "vitest";
import { redactText, redactWithFindings } from "./redact.js";
import { percentDecoded } from "./url-credential-detector.js";

/**
 * URL credentials whose password holds reserved characters. Every password is built from distinctive pieces
 * (`Qx7`, `Zr9w`, ...) joined by the reserved characters, so "no fragment survives" is checkable: no piece may be in
 * the output.
 */
const PIECES = ["Qx7v", "Zr9w", "Kp3m", "Jt5n"];
const pw = (...separators: string[]): string =>
  PIECES.slice(0, separators.length + 1)
    .map((piece, index) => piece + (separators[index] ?? ""))
    .join("");

const CASES: { text: string; password: string; expected?: string }[] = [
  // WHATWG: userinfo ends at the last @; the user name at the first :
  { text: `psql postgres://app:${pw("@")}@db.internal:5432/prod`, password: pw("@") },
  { text: `psql "postgres://app:${pw("@", "@")}@db/prod?sslmode=require"`, password: pw("@", "@") },
  { text: `psql postgres://app:${pw(":")}@db/prod`, password: pw(":") },
  { text: `psql postgresql://app:${pw(":", "@", ":")}@db:5432`, password: pw(":", "@", ":") },
  // percent escapes
  { text: `psql postgres://app:${pw("%40", "%23")}@db/prod`, password: pw("%40", "%23") },
  { text: `DATABASE_URL=postgres://app:${pw("%2F", "%3A")}@db/prod npm test`, password: pw("%2F", "%3A") },
  { text: `psql postgres://app:${pw("%")}@db/prod`, password: pw("%") },
  // unencoded # and ? (clients that split at the last @ accept them)
  { text: `psql postgres://app:${pw("#")}@db/prod`, password: pw("#") },
  { text: `psql postgres://app:${pw("?")}@db/prod`, password: pw("?") },
  { text: `psql 'postgres://app:${pw("#", "?", "@")}@db:5432/prod'`, password: pw("#", "?", "@") },
  { text: `curl https://deploy:${pw("#")}@ci.example.com/api/json`, password: pw("#") },
  { text: `curl "https://deploy:${pw("?", "&")}@ci.example.com/job?x=1"`, password: pw("?", "&") },
  { text: `curl http://u:${pw("!", "$")}@127.0.0.1:8080/`, password: pw("!", "$") },
  // redis: empty user, and the password before a port
  { text: `redis-cli -u redis://:${pw("#")}@cache:6379/0 ping`, password: pw("#") },
  { text: `redis-cli -u rediss://default:${pw("@", "%25")}@cache.example.com:6380`, password: pw("@", "%25") },
  // git over ssh and https
  { text: `git clone git+ssh://deploy:${pw("#", "@")}@git.example.com/acme/app.git`, password: pw("#", "@") },
  { text: `git remote add origin https://bot:${pw("?")}@git.example.com/acme/app.git`, password: pw("?") },
  { text: `pip install git+https://bot:${pw("%40")}@git.example.com/acme/lib.git`, password: pw("%40") },
  // mongodb with several hosts
  {
    text: `mongosh "mongodb+srv://admin:${pw("@", "#")}@cluster0.a.mongodb.net,cluster0.b.mongodb.net/db?retryWrites=true"`,
    password: pw("@", "#"),
  },
  {
    text: `mongosh mongodb://admin:${pw(":", "%2C")}@h1:27017,h2:27017,h3:27017/app?replicaSet=rs0`,
    password: pw(":", "%2C"),
  },
  { text: `amqp://guest:${pw("#")}@rabbit:5672/vhost`, password: pw("#") },
  { text: `{"url": "mysql://root:${pw("@", "?")}@127.0.0.1:3306/app"}`, password: pw("@", "?") },
  { text: `export DSN=mysql://root:${pw("#")}@db/app\nls -la`, password: pw("#") },
  // what a person reads as a password, whatever a URL parser makes of it (issue 25): a password that starts like a
  // port (WHATWG: host "admin", port 6, a fragment), or holds a `/` or `\` (WHATWG: the path starts there)
  { text: `psql "postgres://admin:6#${pw("/")}@db.internal:5432/app"`, password: `6#${pw("/")}` },
  { text: `psql "postgres://admin:6#${pw("$")}@db.internal:5432/app"`, password: `6#${pw("$")}` },
  { text: `psql postgres://admin:6#${pw("!")}@db.internal/app`, password: `6#${pw("!")}` },
  { text: `redis-cli -u redis://:42?${pw("#")}@cache/0 ping`, password: `42?${pw("#")}` },
  { text: `curl https://deploy:7#${pw("!")}@ci.example.com/api/json`, password: `7#${pw("!")}` },
  { text: `curl http://deploy:8080/${pw("!")}@ci.example.com:8443/api`, password: `8080/${pw("!")}` },
  { text: `psql 'postgres://admin:${pw("/", "/")}@db.internal:5432/app'`, password: pw("/", "/") },
  { text: `mysql --url mysql://root:${pw("\\")}@db/app`, password: pw("\\") },
  { text: `redis-cli -u redis://:${pw("/")}@cache:6379`, password: pw("/") },
];

describe("URL credentials with reserved characters", () => {
  it.each(CASES)("$text", ({ text, password }) => {
    const { redacted, findings } = redactWithFindings(text);
    for (const piece of PIECES) if (password.includes(piece)) expect(redacted).not.toContain(piece);
    expect(redacted).toContain(":[REDACTED:url-password]@");
    expect(findings["url-password"]).toBeGreaterThanOrEqual(1);
    // the user name and the host stay readable
    const host = /@([A-Za-z0-9.-]+)/.exec(text.slice(text.lastIndexOf(password) + password.length))?.[1];
    if (host !== undefined) expect(redacted).toContain(`@${host}`);
  });

  it("keeps the user name and everything after the host", () => {
    expect(redactText(`psql postgres://app:${pw("@", "#")}@db:5432/prod?sslmode=require`)).toBe(
      "psql postgres://app:[REDACTED:url-password]@db:5432/prod?sslmode=require",
    );
    expect(redactText(`redis-cli -u redis://:${pw("?")}@cache:6379`)).toBe(
      "redis-cli -u redis://:[REDACTED:url-password]@cache:6379",
    );
  });

  it("redacts a decoded copy of a percent-encoded password elsewhere in the text", () => {
    const encoded = pw("%40", "%23");
    const decoded = pw("@", "#");
    const redacted = redactText(`psql postgres://app:${encoded}@db/prod -c "select '${decoded}'"`);
    for (const piece of PIECES.slice(0, 3)) expect(redacted).not.toContain(piece);
  });

  it("redacts what another detector left of a password around a token it found", () => {
    const token = `${"gh"}p_${"a1B2c3D4e5F6g7H8i9J0".repeat(2).slice(0, 36)}`;
    const redacted = redactText(`git clone https://bot:Qx7v#${token}#Zr9w@github.com/a/b.git`);
    expect(redacted).not.toContain("Qx7v");
    expect(redacted).not.toContain("Zr9w");
    expect(redacted).not.toContain(token);
    expect(redacted).toContain("@github.com/a/b.git");
  });

  it.each([
    "curl http://localhost:3000?email=me@example.com",
    "curl http://localhost:3000#section@x",
    "curl https://host:8080/path/a@b",
    "git clone ssh://git@github.com/acme/app.git",
    "git clone git@github.com:acme/app.git",
    "curl https://example.com/users/me@example.com",
    "npm view @scope/pkg@1.2.3",
    "open https://example.com/a:b@c",
    "echo http://user:@host/",
    "curl http://localhost:3000/users/me@example.com",
    "curl http://localhost:3000?next=/a@b/c",
    "curl https://host:8080/a/b@c/d",
    "open http://localhost:3000#top@x/y",
  ])("leaves %s alone", (text) => {
    expect(redactText(text)).toBe(text);
  });

  it("decodes percent escapes, valid or not", () => {
    expect(percentDecoded("p%40ss%23")).toBe("p@ss#");
    expect(percentDecoded("p%40ss%")).toBe("p@ss%");
    expect(percentDecoded("plain")).toBeUndefined();
  });
});
