// A looping agent of your own, stopped by `toolgate mcp-proxy`: an MCP client (the official SDK) that keeps asking
// the filesystem server to write outside the directory it may use. Run it in a project with toolgate and the SDK
// installed: `npx tsx mcp-proxy-client.ts`. TOOLGATE_COMMAND and MCP_SERVER_COMMAND replace the two commands.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const allowed = mkdtempSync(join(tmpdir(), "mcp-allowed-"));
const toolgate = (process.env["TOOLGATE_COMMAND"] ?? "npx toolgate").split(" ");
const server = (process.env["MCP_SERVER_COMMAND"] ?? "npx -y @modelcontextprotocol/server-filesystem").split(" ");
const [command = "npx", ...args] = [...toolgate, "mcp-proxy", "--server", "fs", "--headless", "--", ...server, allowed];

const client = new Client({ name: "stubborn-agent", version: "1.0.0" });
await client.connect(new StdioClientTransport({ command, args, stderr: "inherit" }));

for (let attempt = 1; attempt <= 10; attempt++) {
  // the same refused write, again and again, as a looping model does
  const result = await client.callTool({ name: "write_file", arguments: { path: "/etc/motd", content: "hi" } });
  const blocks = result.content as { type: string; text?: string }[];
  const text = blocks.map((block) => block.text ?? "").join("\n");
  console.log(`attempt ${attempt}: ${result.isError ? "refused" : "ran"}\n${text}\n`);
  if (/stopped/i.test(text)) break; // toolgate stopped the session: every later call is refused
}
await client.close();
