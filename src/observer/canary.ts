/**
 * The self-check before the command: a canary program run as a stage of its own, which every
 * live observer must report (the run is refused otherwise).
 */
import { join } from "node:path";
import { Refusal } from "../core/errors.js";
import type { Emitted } from "../core/log-format.js";
import type { JAIL_DEV_PRIVATE } from "./jail.js";

export const CANARY_ENV_KEY = "ENVELOPE_GATE_CANARY";
export const CANARY_HOST = "canary.envelope-gate.invalid";
const CANARY_FILE = ".envelope-gate-canary";
const JAIL_CANARY_DIR: (typeof JAIL_DEV_PRIVATE)[number] = "/dev/shm";

// The canary program: a write, an env read and a DNS lookup through the hooks, and a write, an
// exec and a connect to a resolver address through the process observer.
const CANARY_PROGRAM = `
const fs = require("node:fs");
const dns = require("node:dns");
const dgram = require("node:dgram");
fs.writeFileSync(process.argv[1], "envelope-gate canary\\n");
void process.env.${CANARY_ENV_KEY};
dns.lookup(${JSON.stringify(CANARY_HOST)}, () => {});
const socket = dgram.createSocket("udp4");
const done = () => process.exit(0);
socket.on("error", done);
socket.connect(53, "127.0.0.1", done);
`;

/** The canary's file in the jail: in the run's own /dev/shm, always private and writable (the scratch is not, unless the envelope lists ${SCRATCH}). */
export const CANARY_JAIL_PATH = join(JAIL_CANARY_DIR, CANARY_FILE);

/** The canary's command line. */
export function canaryArgv(node: string): string[] {
  return [node, "-e", CANARY_PROGRAM, CANARY_JAIL_PATH];
}

/** What the observers should have reported of the canary and did not (`canaryPath`: its file as recorded). */
export function canaryMissing(seen: readonly Emitted[], recording: boolean, canaryPath: string): string[] {
  const missing: string[] = [];
  const has = (pred: (e: Emitted) => boolean): boolean => seen.some(pred);
  if (!recording && !has((e) => e.kind === "write" && e.source === "node" && e.path === canaryPath)) missing.push("node: write");
  if (!has((e) => e.kind === "env" && e.source === "node" && e.key === CANARY_ENV_KEY)) missing.push("node: env read");
  if (!has((e) => e.kind === "host" && e.source === "node" && e.host === CANARY_HOST)) missing.push("node: DNS lookup");
  if (recording) {
    if (!has((e) => e.kind === "write" && e.source === "process" && e.path === canaryPath)) missing.push("process: write");
    if (!has((e) => e.kind === "exec" && e.source === "process")) missing.push("process: exec");
    if (!has((e) => e.kind === "host" && e.source === "process" && e.port === 53)) missing.push("process: resolver connect");
  }
  return missing;
}

/** The refusal of a run whose canary failed or went unreported. */
export function canaryFailure(
  result: { code: number | null; signal: NodeJS.Signals | null },
  missing: readonly string[],
  recorder: "strace" | "ebpf" | null,
): Refusal {
  return new Refusal(
    "OBSERVER_UNAVAILABLE",
    `the observer self-check failed (canary exit ${result.code ?? result.signal}; not seen: ${missing.join(", ") || "none"})`,
    {
      hint:
        recorder === "ebpf"
          ? "An observer is not reporting. The eBPF recorder attached but did not report the canary (a kernel whose tracepoints differ), or the Node hooks did not load. --recorder strace records with strace instead."
          : recorder !== null
            ? "An observer is not reporting. strace may be unable to attach (ptrace restricted: kernel.yama.ptrace_scope, seccomp, container policy), or the Node hooks did not load."
            : "The Node hooks did not load or did not report.",
    },
  );
}
