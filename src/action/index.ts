import * as core from "@actions/core";
import { main } from "./main.js";

try {
  await main();
} catch (err) {
  core.setOutput("verdict", "error");
  core.setFailed(`envelope-gate: INTERNAL_ERROR: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
}
