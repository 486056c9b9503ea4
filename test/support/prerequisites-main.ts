/** The Action's prerequisite setup as a program of its own, for test/action/prerequisites.test.ts to run in a jail. */
import { setUpPrerequisites } from "../../src/action/prerequisites.js";
import { Refusal } from "../../src/core/errors.js";

const recorder = process.env.PREREQUISITES_RECORDER ?? "auto";
if (recorder !== "auto" && recorder !== "ebpf" && recorder !== "strace") throw new Error(`bad recorder ${recorder}`);
try {
  await setUpPrerequisites({ recorder, setupAllowed: process.env.PREREQUISITES_SETUP !== "false" });
  console.log("result: ready");
} catch (err) {
  if (!(err instanceof Refusal)) throw err;
  console.log(`result: ${err.code}: ${err.message}`);
  console.log(`hint: ${err.hint ?? ""}`);
  process.exitCode = 3;
}
