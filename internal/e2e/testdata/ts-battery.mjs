// Drives one MCP stdio server through a fixed sequence of requests with the
// TypeScript SDK client and prints everything that came back as one JSON
// line, so a run against the server and a run through the shim can be
// compared byte for byte. Written for server-everything.
//
//   node ts-battery.mjs -- COMMAND [ARGS...]
//
// ESM resolves imports from this file's own directory (NODE_PATH does not
// apply to import), so the Go test copies it next to a node_modules link to
// $FLOWD_TOOLS_DIR/node_modules.
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const sep = process.argv.indexOf("--");
const [command, ...args] = sep < 0 ? [] : process.argv.slice(sep + 1);
if (!command) {
  console.error("usage: node ts-battery.mjs -- COMMAND [ARGS...]");
  process.exit(2);
}

const client = new Client(
  { name: "flowd-e2e-ts", version: "1.0.0" },
  { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
);

// What the SDK could not match to a pending request comes here: progress
// for a cancelled call, and the answer to a cancelled call if the server
// sent one anyway.
const unmatched = [];
let onUnmatched = () => {};
client.onerror = (err) => {
  unmatched.push(String(err?.message ?? err));
  onUnmatched();
};

// Server-to-client requests, answered the same way every run.
client.setRequestHandler(CreateMessageRequestSchema, async (req) => ({
  role: "assistant",
  model: "flowd-e2e-model",
  stopReason: "endTurn",
  content: { type: "text", text: `sampled: ${JSON.stringify(req.params.messages)}` },
}));
client.setRequestHandler(ElicitRequestSchema, async () => ({
  action: "accept",
  content: { name: "Ada Lovelace", check: true, email: "ada@example.com", integer: 7 },
}));
client.setRequestHandler(ListRootsRequestSchema, async () => ({
  roots: [{ uri: "file:///tmp/flowd-e2e-root", name: "e2e root" }],
}));

const out = {};
async function step(name, fn) {
  try {
    out[name] = { result: await fn() };
  } catch (err) {
    out[name] = { error: { name: err?.name, code: err?.code, message: String(err?.message ?? err) } };
  }
}
const call = (name, args = {}, options) => client.callTool({ name, arguments: args }, undefined, options);
// progressIn returns the params of the progress notification an unmatched
// message reports, or undefined.
function progressIn(message) {
  const prefix = "Received a progress notification for an unknown token: ";
  return message.startsWith(prefix) ? JSON.parse(message.slice(prefix.length)).params : undefined;
}
const sha256 = (s) => createHash("sha256").update(s).digest("hex");

const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
await client.connect(transport);
out.connect = {
  serverVersion: client.getServerVersion(),
  serverCapabilities: client.getServerCapabilities(),
  instructions: client.getInstructions(),
};

await step("ping", () => client.ping());
await step("tools/list", () => client.listTools());
await step("echo", () => call("echo", { message: "héllo — 日本語 🎉 \u2028 \"quoted\" \\ \n" }));
await step("get-sum", () => call("get-sum", { a: 2, b: 3.5 }));
await step("structuredContent", () => call("get-structured-content", { location: "New York" }));
await step("annotated", () => call("get-annotated-message", { messageType: "success", includeImage: true }));
await step("image", () => call("get-tiny-image"));
await step("resource-links", () => call("get-resource-links", { count: 2 }));
await step("isError", () => call("echo"));
await step("unknown tool", () => call("no-such-tool"));

// One line of 1.5 MiB each way. The summary keeps the output small; a
// relay that corrupted or cut the line changes the hash or the length.
const big = "1 MiB+ line: ünïcödé 🎉 \"quoted\" \\ ".repeat(50_000);
await step("echo 1.5 MiB", async () => {
  const r = await call("echo", { message: big });
  const text = r.content?.[0]?.text ?? "";
  return { bytes: Buffer.byteLength(text), sha256: sha256(text), whole: text === `Echo: ${big}` };
});

// The SDK hands a notification to its handler a microtask later but a
// response at once, so when the last progress notification and the result
// arrive in one read, that notification finds its handler gone and is
// reported as unmatched. How reads split is up to timing, so the step
// counts progress from both places.
await step("progress", async () => {
  const before = unmatched.length;
  const progress = [];
  const result = await call("trigger-long-running-operation", { duration: 0.6, steps: 3 }, {
    onprogress: (p) => progress.push(p),
  });
  for (const m of unmatched.splice(before)) {
    const n = progressIn(m);
    if (!n) throw new Error(`unexpected: ${m}`);
    progress.push({ progress: n.progress, total: n.total });
  }
  return { result, progress };
});
await step("sampling", () => call("trigger-sampling-request", { prompt: "Say hi", maxTokens: 16 }));
await step("elicitation", () => call("trigger-elicitation-request"));
await step("roots", () => call("get-roots-list"));

await step("resources/list", () => client.listResources());
await step("resources/templates/list", () => client.listResourceTemplates());
await step("resources/read static", () =>
  client.readResource({ uri: "demo://resource/static/document/features.md" }));
await step("blob resource", async () => {
  const data = "data:text/plain;base64," + Buffer.from("flowd e2e blob\n".repeat(200)).toString("base64");
  const made = await call("gzip-file-as-resource", { name: "e2e.txt.gz", data, outputType: "resourceLink" });
  const link = made.content.find((c) => c.type === "resource_link");
  return { made, read: await client.readResource({ uri: link.uri }) };
});

await step("prompts/list", () => client.listPrompts());
await step("prompts/get", () => client.getPrompt({ name: "args-prompt", arguments: { city: "Paris", state: "Texas" } }));
await step("completion", () => client.complete({
  ref: { type: "ref/prompt", name: "completable-prompt" },
  argument: { name: "department", value: "E" },
}));

// Cancel a slow call after its first progress notification. The server
// keeps working (it does not watch for cancellation) and keeps sending
// progress, which the SDK now reports as unmatched; once the last one is
// in, a ping's answer shows whether the cancelled call was answered too:
// it must not be.
await step("cancel", async () => {
  const before = unmatched.length;
  const ac = new AbortController();
  let firstProgress;
  const first = new Promise((resolve) => (firstProgress = resolve));
  const pending = call("trigger-long-running-operation", { duration: 0.9, steps: 3 }, {
    signal: ac.signal,
    onprogress: () => firstProgress(),
  });
  await first;
  ac.abort("flowd e2e cancel");
  let error;
  try {
    await pending;
  } catch (err) {
    error = { name: err?.name, message: String(err?.message ?? err) };
  }
  await new Promise((resolve, reject) => {
    const done = () => unmatched.slice(before).some((m) => progressIn(m)?.progress === 3) && resolve();
    onUnmatched = done;
    done();
    setTimeout(() => reject(new Error("no last progress notification within 10s")), 10_000).unref();
  });
  await client.ping();
  return { error, unmatched: unmatched.splice(before) };
});

await step("ping at the end", () => client.ping());
process.stdout.write(JSON.stringify(out) + "\n");
await client.close();
