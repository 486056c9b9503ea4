/**
 * The Node chokepoints, preloaded into every Node process (and worker thread) of an observed run
 * through NODE_OPTIONS `--require`. They record what the program asks of fs, process.env, the
 * network stack and child_process, and hand each record to the run wrapper over the stage's
 * FIFO. They never write the log and never judge.
 *
 * Each area installs its hooks from its own module (fs, env, network, processes, workers) over
 * one shared HookContext (context.ts): the channel, the original fs calls, path resolution and
 * `hook()`.
 *
 * These files have no runtime imports: Node builtins come from process.getBuiltinModule, and our
 * own helpers are inlined by the bundler, so the bundle is valid as CommonJS and as ESM. The
 * wrapper installs it as `<stage dir>/envelope-gate-preload.cjs`.
 *
 * Hostile code shares this address space and can undo every hook here; the process-level
 * observer is the part it cannot skip (docs/observer.md).
 */
import { RECORD_TOOL_SYMBOL } from "../protocol.js";
import { createContext, findStage, load } from "./context.js";
import { installEnv } from "./env.js";
import { installFs } from "./fs.js";
import { installNetwork } from "./network.js";
import { installProcesses } from "./processes.js";
import { installProxy } from "./proxy.js";
import { installWorkers } from "./workers.js";

const INSTALLED = Symbol.for("envelope-gate.preload.installed");

function install(): void {
  const g = globalThis as Record<symbol, unknown>;
  if (g[INSTALLED]) return;
  if (typeof process.getBuiltinModule !== "function") {
    // Refuse to run this process unobserved rather than skip the hooks.
    throw new Error(`envelope-gate: the Node hooks need Node 20.16 or newer (this is ${process.version})`);
  }
  const stage = findStage();
  if (stage === null) return;
  // The preload entry stays in the real environment, so every process Node starts inherits it,
  // whichever API starts it; the process.env Proxy (env.ts) shows the program only its own
  // NODE_OPTIONS (if it had any), never the wrapper's plumbing.
  g[INSTALLED] = true;
  const ctx = createContext(stage);

  installFs(ctx);
  installEnv(ctx);
  installNetwork(ctx);
  // After the network hooks: the tunnels' own connects go through them (to the relay's address).
  installProxy(ctx);
  installProcesses(ctx);
  installWorkers(ctx);

  // ---- SDK ---------------------------------------------------------------------------------
  Object.defineProperty(globalThis, Symbol.for(RECORD_TOOL_SYMBOL), {
    value: function recordTool(name: unknown): void {
      if (typeof name !== "string" || name === "") throw new TypeError("recordTool(name): name must be a non-empty string");
      ctx.send({ kind: "tool", name });
    },
    enumerable: false,
    configurable: false,
    writable: false,
  });

  // ESM `import { writeFileSync } from "node:fs"` binds to a snapshot: refresh it to the hooks.
  load<typeof import("node:module")>("node:module").syncBuiltinESMExports();
}

install();
