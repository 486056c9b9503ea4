#!/usr/bin/env node
import { EXIT_CODES } from "../core/verdict.js";
import { main } from "./main.js";

// Where even the error report cannot be written, the exit status is what is left to say so
// (an unhandled stream error would exit 1, which reads as violations).
process.stderr.on("error", () => {
  process.exitCode = EXIT_CODES.error;
});
process.exitCode = await main(process.argv.slice(2));
