// `npm run example`: records the bundled example agents under the observer and gates each one.
// It succeeds when the gate does its job: the overstepping agent fails (exit 1, its violations
// listed) and its well-behaved twin passes (exit 0).
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const cli = join("dist", "cli", "index.js");
const work = join(tmpdir(), "envelope-gate-example");
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const scratch = join(work, "scratch");
let ok = true;

for (const [agent, expected] of [
  ["examples/agent.js", 1],
  ["examples/agent-good.js", 0],
]) {
  const log = join(work, agent.replace(/^examples\/|\.js$/g, "") + ".jsonl");
  const envelope = ["--envelope", "examples/envelope.json", "--observer", log, "--scratch", scratch];
  console.log(`\n$ envelope-gate run ${envelope.join(" ")} -- node ${agent}`);
  const run = spawnSync(process.execPath, [cli, "run", ...envelope, "--", process.execPath, agent], { stdio: "inherit" });
  // check reads the workspace and the scratch from the log's meta line, as run's closing line says.
  const judged = ["--envelope", "examples/envelope.json", "--observer", log];
  console.log(`$ envelope-gate check ${judged.join(" ")}`);
  const check = spawnSync(process.execPath, [cli, "check", ...judged], { stdio: "inherit" });
  if (run.status === 3 || check.status !== expected) ok = false;
  console.log(`(exit ${check.status}; expected ${expected})`);
}
rmSync("/var/tmp/envelope-gate-example-outside.txt", { force: true });
process.exitCode = ok ? 0 : 1;
