// Loader hooks (run on Node's loader thread): append every module URL that is loaded to $FOOTPRINT_FILE.
import { appendFileSync } from "node:fs";

export async function load(url, context, nextLoad) {
  if (process.env.FOOTPRINT_FILE && !url.startsWith("node:")) appendFileSync(process.env.FOOTPRINT_FILE, `${url}\n`);
  return nextLoad(url, context);
}
