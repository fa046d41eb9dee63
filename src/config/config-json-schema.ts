import * as z from "zod";
import { configSchema } from "./schema.js";

/** The JSON Schema of toolgate.config.json (written to schema.json by `npm run schema`). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configSchema, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return { ...schema, title: "toolgate config", description: "toolgate.config.json / .toolgate.json" };
}
