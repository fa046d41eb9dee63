import type { Migration } from "../../migration.js";
import { migration0001 } from "./0001-init.js";
import { migration0002 } from "./0002-daily-rollups.js";
import { migration0003 } from "./0003-record-identity.js";
import { migration0004 } from "./0004-daily-sources.js";
import { migration0005 } from "./0005-tool-identity.js";
import { migration0006 } from "./0006-proxy-host-name.js";
import { migration0007 } from "./0007-new-tool-names.js";
import { migration0008 } from "./0008-daily-calls.js";
import { migration0009 } from "./0009-session-summary.js";
import { migration0010 } from "./0010-session-info.js";
import { migration0011 } from "./0011-more-tool-names.js";

/** SQLite migrations in order. Append only. */
export const sqliteMigrations: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
  migration0006,
  migration0007,
  migration0008,
  migration0009,
  migration0010,
  migration0011,
];
