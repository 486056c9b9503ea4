/**
 * The agent SDK: `recordTool(name)` for an agent's tool dispatcher. Bundled to dist/sdk/index.js
 * (ESM, no dependencies); import it by path:
 *
 *   import { recordTool } from "envelope-gate/dist/sdk/index.js"; // or a relative path to dist/sdk/index.js
 *
 *   async function dispatch(call) {
 *     recordTool(call.name);            // recorded before the tool runs, so a crash still shows it
 *     return tools[call.name](call.args);
 *   }
 *
 * Under `envelope-gate run` the preloaded hooks install the recorder as a global
 * (Symbol.for("envelope-gate.recordTool")), and each call becomes a `tool` event with
 * source "sdk". Outside a run there is no observer and recordTool returns false.
 */
import { RECORD_TOOL_SYMBOL } from "./protocol.js";

type Recorder = (name: string) => void;

/** Records that the agent dispatched tool `name`. Returns true when an observer recorded it. */
export function recordTool(name: string): boolean {
  if (typeof name !== "string" || name === "") throw new TypeError("recordTool(name): name must be a non-empty string");
  const recorder = (globalThis as Record<symbol, unknown>)[Symbol.for(RECORD_TOOL_SYMBOL)];
  if (typeof recorder !== "function") return false;
  (recorder as Recorder)(name);
  return true;
}

/** True when this process runs under `envelope-gate run` with the Node hooks loaded. */
export function isObserved(): boolean {
  return typeof (globalThis as Record<symbol, unknown>)[Symbol.for(RECORD_TOOL_SYMBOL)] === "function";
}
