// Preloaded with --import: counts the modules a process loads (ESM through loader hooks, CommonJS through
// Module._load) and the SQLite write transactions it runs (better-sqlite3 `transaction` calls), written to
// $FOOTPRINT_FILE as lines `<url>` / `transaction`. Nothing is loaded that the process would not load itself.
import { appendFileSync } from "node:fs";
import Module, { register } from "node:module";

const file = process.env.FOOTPRINT_FILE;
let patched = false;

function countTransactions(Database) {
  const transaction = Database.prototype.transaction;
  Database.prototype.transaction = function counted(fn) {
    const wrapped = transaction.call(this, fn);
    const count = (variant) =>
      function run(...args) {
        appendFileSync(file, "transaction\n");
        return variant.apply(this, args);
      };
    const out = count(wrapped);
    for (const key of ["deferred", "immediate", "exclusive"]) out[key] = count(wrapped[key]);
    return out;
  };
}

if (file) {
  register("./count-modules-hooks.mjs", import.meta.url);
  const originalLoad = Module._load;
  Module._load = function load(request, parent, isMain) {
    const exported = originalLoad.call(this, request, parent, isMain);
    if (!request.startsWith("node:") && !Module.builtinModules.includes(request)) {
      let resolved = request;
      try {
        resolved = Module._resolveFilename(request, parent, isMain);
      } catch {}
      appendFileSync(file, `cjs:${resolved}\n`);
      if (!patched && /better-sqlite3[\\/]lib[\\/]index\.js$/.test(resolved)) {
        patched = true;
        countTransactions(exported);
      }
    }
    return exported;
  };
}
