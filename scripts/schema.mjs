// Writes schema.json (the JSON Schema of toolgate.config.json) from the built zod schema: `npm run schema`.
import { writeFileSync } from "node:fs";
import { configJsonSchema } from "../dist/config/config-json-schema.js";

writeFileSync(new URL("../schema.json", import.meta.url), `${JSON.stringify(configJsonSchema(), null, 2)}\n`);
console.log("wrote schema.json");
