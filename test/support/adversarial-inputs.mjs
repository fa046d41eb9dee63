// Test-only data, kept out of src/ so it never ships in dist. Plain JavaScript so the benchmark (plain Node) and the
// tests share one copy: used by src/detect/redact.test.ts and bench/detect.bench.mjs. Types: ./adversarial-inputs.d.mts.
/**
 * Inputs built to make a backtracking regex engine take quadratic or exponential time on the redaction patterns:
 * long runs of each pattern's prefix, unterminated quotes and blocks, and separator soup. Used by the adversarial test
 * and the benchmark. Each is about `size` characters.
 */
export function adversarialInputs(size = 1024 * 1024) {
  const fill = (unit) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  let state = 7;
  const soupAlphabet = ":=/@\"'-_ aA0.+\\{}[]$%&?#\nkeytokenpasswordBearer";
  let soup = "";
  for (let i = 0; i < size; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    soup += soupAlphabet[state % soupAlphabet.length];
  }
  return [
    { label: "one letter", text: fill("a") },
    { label: "base64 run", text: fill("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0123+/") },
    { label: "password= repeated", text: fill("password=") },
    { label: "unterminated quoted value", text: `password="${fill("a")}` },
    { label: "escaped quotes", text: `"password": "${fill('\\"')}` },
    { label: "key: prefix repeated", text: fill("api_key: ") },
    { label: "long key", text: `${fill("a_")}password=x` },
    { label: "flag repeated", text: fill("--password ") },
    { label: "flag dash values", text: fill("--token -") },
    { label: "jwt prefix", text: fill("eyJ") },
    { label: "jwt segments", text: fill("eyJaaaaaaaaaaaa.") },
    { label: "pem begin repeated", text: fill("-----BEGIN RSA PRIVATE KEY-----\n") },
    { label: "pem unterminated", text: `-----BEGIN PRIVATE KEY-----${fill("-a")}` },
    { label: "scheme repeated", text: fill("a://") },
    { label: "url without @", text: `https://user:${fill("p")}` },
    { label: "url user soup", text: fill("x://u:") },
    { label: "url password with a slash, no @", text: fill("x://u:/") },
    { label: "url port-like password soup", text: fill("x://u:1#@") },
    { label: "openai prefix", text: fill("sk-") },
    { label: "openai dashes", text: fill("sk-aaaaaaaa-") },
    { label: "github prefix", text: fill("ghp_") },
    { label: "aws prefix", text: fill("AKIA") },
    { label: "authorization repeated", text: fill("Authorization: ") },
    { label: "authorization bearer", text: `Authorization: Bearer ${fill("b")}` },
    { label: "bearer repeated", text: fill("Bearer ") },
    { label: "basic auth", text: fill("-u a:") },
    { label: "mysql -p flood", text: `mysql ${fill(" -p")}` },
    { label: "mysql -p values", text: `mysql ${fill(" -pa")}` },
    { label: "telegram", text: fill("12345678:AA") },
    { label: "slack webhook", text: fill("hooks.slack.com/services/") },
    { label: "aws secret context", text: `aws_secret ${fill("Ab1/")}` },
    { label: "separator soup", text: soup },
    { label: "periodic secret and copies", text: `password=${"ab".repeat(500)} ${fill("ab")}` },
  ];
}
