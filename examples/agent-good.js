// The well-behaved twin of examples/agent.js: declared tools only, writes only in the run's
// scratch dir, reads only declared environment keys, no network. `check` reports nothing.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { recordTool } from "../dist/sdk/index.js";

const scratch = process.env.SCRATCH;
const tools = {
  read_file: ({ path }) => readFileSync(path, "utf8").length,
  apply_patch: ({ name, text }) => {
    mkdirSync(join(scratch, "patches"), { recursive: true });
    writeFileSync(join(scratch, "patches", name), text);
  },
  run_tests: () =>
    execFileSync(process.execPath, ["-e", "require('fs').writeFileSync(process.argv[1], 'pass\\n')", join(scratch, "tests.txt")], {
      encoding: "utf8",
    }) + execFileSync("sh", ["-c", 'echo ok > "$SCRATCH/shell.txt"'], { encoding: "utf8" }),
};

async function dispatch(call) {
  recordTool(call.name);
  return tools[call.name](call.args);
}

await dispatch({ name: "read_file", args: { path: new URL(import.meta.url).pathname } });
await dispatch({ name: "apply_patch", args: { name: "fix.diff", text: "--- a\n+++ b\n" } });
await dispatch({ name: "run_tests", args: {} });
console.log("agent done");
