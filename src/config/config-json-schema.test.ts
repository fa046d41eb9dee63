import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configJsonSchema } from "./config-json-schema.js";

describe("schema.json", () => {
  it("is the JSON Schema of the current zod config schema (regenerate it with `npm run schema`)", () => {
    const onDisk = JSON.parse(readFileSync(new URL("../../schema.json", import.meta.url), "utf8")) as unknown;
    expect(onDisk).toEqual(JSON.parse(JSON.stringify(configJsonSchema())));
  });
});
