import { describe, expect, it } from "vitest";
import { TopLevelIdScanner } from "./top-level-id-scanner.js";

function scan(text: string, pieceSize = 3): string | number | undefined {
  const scanner = new TopLevelIdScanner();
  const bytes = new TextEncoder().encode(text);
  for (let start = 0; start < bytes.length; start += pieceSize) scanner.push(bytes.subarray(start, start + pieceSize));
  return scanner.id();
}

describe("TopLevelIdScanner", () => {
  it("reads a request's top-level id wherever it stands, as JSON.parse would", () => {
    expect(scan('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}}')).toBe(7);
    expect(scan('{"method":"x","params":{"id":1,"nested":{"id":2}},"id":"abc"}')).toBe("abc");
    expect(scan('{"method":"x","params":{"text":"\\"id\\":9, }"}, "id" : -12.5 }')).toBe(-12.5);
    expect(scan('{"method":"x","id":"a\\"b\\u00e9","params":["id",{"id":3}]}')).toBe('a"bé');
    expect(scan('{"method":"x","id":1,"id":2}')).toBe(2);
    expect(scan('{"\\u0069d":5,"method":"x"}')).toBe(5);
    expect(scan('{"method":"ü","id":4}', 1)).toBe(4);
  });

  it("reads nothing from a response, a null id, a nested id or an id too long to keep", () => {
    expect(scan('{"jsonrpc":"2.0","id":7,"result":{}}')).toBeUndefined();
    expect(scan('{"method":"x","id":null}')).toBeUndefined();
    expect(scan('{"method":"x","params":{"id":1}}')).toBeUndefined();
    expect(scan(`{"method":"x","id":"${"y".repeat(5000)}"}`)).toBeUndefined();
    expect(scan('[{"method":"x","id":1}]')).toBeUndefined();
    expect(scan('{"method":"x","id":1')).toBe(1);
  });
});
