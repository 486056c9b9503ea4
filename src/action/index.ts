import * as core from "@actions/core";
import { main } from "./main.js";

try {
  await main();
} catch (err) {
  // Outputs may be what failed (GITHUB_OUTPUT unwritable); the exit status still says "not a pass".
  core.setFailed(`envelope-gate: INTERNAL_ERROR: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}
