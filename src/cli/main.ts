#!/usr/bin/env node
import { defineCommand, runMain } from "citty";
import { subCommands } from "./commands/index.js";

const main = defineCommand({
  meta: {
    name: "toolgate",
    version: "0.1.0",
    description: "Stop AI coding agents from burning their budget on denied tool calls, and make every denial visible.",
  },
  subCommands,
});

runMain(main);
