import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { FlatMembers, NumberMembers, objectOpener, stringMemberText, stringOpener } from "./line-members.js";

/** Members read from a line's text, against `JSON.parse` of the same line (objects without duplicate keys). */

const KEYS = ["type", "input", "output", "a", "in}put", "x{", 'q"', "b\\", "part", "message", "id"];
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(Number),
    fc.string(),
    fc.constantFrom("}", "{", '"', "\\", "[", "tool", "step-finish"),
    fc.constant(null),
    fc.boolean(),
    fc.array(tie("value"), { maxLength: 3 }),
    tie("object"),
  ),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string()), tie("value"), { maxKeys: 5 }),
}));
const object = json.object as fc.Arbitrary<Record<string, unknown>>;

describe("NumberMembers", () => {
  test("reads each number as JSON.parse does, any other value as undefined, or is not sure (after another object)", () => {
    let read = 0;
    fc.assert(
      fc.property(object, object, fc.string({ maxLength: 3 }), (earlier, value, prefix) => {
        const numbers = new NumberMembers();
        numbers.read(JSON.stringify(earlier), 0);
        const text = JSON.stringify(value);
        const members = numbers.read(`${prefix}${text}`, prefix.length);
        if (members === undefined) {
          // only an escape (a backslash) or a `__proto__` member makes it unsure
          expect(text.includes("\\") || text.includes('"__proto__":')).toBe(true);
          return;
        }
        read += 1;
        const parsed = JSON.parse(text) as Record<string, unknown>;
        // the keys of the earlier object read undefined, as they do on the parsed object
        for (const key of new Set([...Object.keys(members), ...Object.keys(parsed)])) {
          const each = Object.hasOwn(parsed, key) ? parsed[key] : undefined;
          expect(members[key], key).toBe(typeof each === "number" ? each : undefined);
        }
      }),
      { numRuns: 2000 },
    );
    expect(read).toBeGreaterThan(500);
  });

  test("is not sure of what JSON does not allow, nor of keys past those it keeps", () => {
    const numbers = new NumberMembers();
    for (const text of ['{"a":01}', '{"a": 1}', '{"a":1,}', '{"a":.5}', '{"a":+1}', '{"a":1', '{"a":tru}', "{a:1}"]) {
      expect(numbers.read(text, 0), text).toBeUndefined();
    }
    expect({ ...numbers.read('{"a":-0.5e+3,"b":true,"c":{"d":[1,"}"]},"e":"x"}', 0) }).toEqual({
      a: -500,
      b: undefined,
      c: undefined,
      e: undefined,
    });
    const many = Object.fromEntries(Array.from({ length: 70 }, (_, index) => [`k${index}`, index]));
    expect(numbers.read(JSON.stringify(many), 0)).toBeUndefined();
    expect(numbers.read('{"a":7}', 0)?.["a"]).toBe(7);
  });
});

describe("FlatMembers", () => {
  test("a string member read from the text is the parsed object's own, and so is a nested object it enters", () => {
    const members = new FlatMembers();
    fc.assert(
      fc.property(object, object, fc.constantFrom(...KEYS), (outer, inner, key) => {
        const nestedKey = Object.keys(outer)[0] ?? "part";
        const value: Record<string, unknown> = { ...outer, [nestedKey]: inner };
        const line = JSON.stringify(value);
        const parsed = JSON.parse(line) as Record<string, unknown>;
        expect(members.top(line)).toBe(true);
        const top = members.string(stringOpener(key));
        if (top !== undefined) expect(parsed[key]).toBe(top);
        const whole = typeof parsed[key] === "string" ? stringMemberText(key, parsed[key] as string) : undefined;
        if (whole !== undefined && members.holds(whole)) expect(parsed[key]).toBeTypeOf("string");
        if (!members.enter(objectOpener(nestedKey))) return;
        const nested = parsed[nestedKey] as Record<string, unknown>;
        expect(nested).toBeTypeOf("object");
        const found = members.string(stringOpener(key));
        if (found !== undefined) expect(nested[key]).toBe(found);
      }),
      { numRuns: 2000 },
    );
  });

  test("holds a whole member only when it is that member", () => {
    const members = new FlatMembers();
    members.top('{"id":"abc","other":"x","part":{"id":"zz"}}');
    expect(members.holds(stringMemberText("id", "abc") as string)).toBe(true);
    expect(members.holds(stringMemberText("id", "ab") as string)).toBe(false);
    expect(members.holds(stringMemberText("id", "zz") as string)).toBe(false);
    expect(stringMemberText("id", 'a"b')).toBeUndefined();
    expect(stringMemberText("id", "a\\b")).toBeUndefined();
  });
});
