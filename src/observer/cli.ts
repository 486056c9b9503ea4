import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { errnoOf } from "../core/errors.js";
import { plainText } from "../core/markdown.js";
import { ENVELOPE_LOG_OPTIONS, RUN_ONLY_OPTIONS } from "../check/options.js";
import { runObserved, type RunFacts } from "./run.js";

/** How many withheld key names the stderr line shows before it says "and N more". */
export const WITHHELD_SHOWN = 20;

/** How much of the command the jail-up line shows before it cuts with "…". */
const JAIL_UP_COMMAND_CHARS = 200;

/** How often, at most, the progress line is redrawn when stderr is a terminal. */
const PROGRESS_MS = 1000;

/** A word as a POSIX shell reads it back unchanged. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The one line naming the caller's keys the command did not get (names only; values never). */
export function withheldLine(keys: string[]): string {
  if (keys.length === 0) return "envelope-gate run: withheld none of the caller's environment keys\n";
  const shown = keys.slice(0, WITHHELD_SHOWN).join(", ");
  const more = keys.length > WITHHELD_SHOWN ? ` and ${keys.length - WITHHELD_SHOWN} more` : "";
  return `envelope-gate run: withheld ${keys.length} of the caller's environment keys (not in allowed_env): ${shown}${more}\n`;
}

/** The one line saying which process recorder ran and, when auto fell back to strace, why. */
export function recorderLine(r: { name: string; fallback?: string; asked: string }): string {
  if (r.fallback !== undefined) return `envelope-gate run: recorder strace (auto: the eBPF recorder cannot start: ${r.fallback})\n`;
  return `envelope-gate run: recorder ${r.name}${r.asked === "auto" ? " (auto)" : ""}\n`;
}

/**
 * The line said while the command runs, once it is under way in the jail: before anything the
 * command prints at its end, so a person (or a script reading stderr) knows the jail is up.
 */
export function jailUpLine(command: string[], recorder: RunFacts["recorder"]): string {
  const words = plainText(command.map(shellWord).join(" "), JAIL_UP_COMMAND_CHARS);
  return `envelope-gate run: the jail is up, running ${words} (recorder: ${recorder?.name ?? "none, Node hooks only"})\n`;
}

/** What runAndReport needs: run's flags, parsed. */
export interface ReportedRun {
  envelope: string;
  sha256?: string | undefined;
  observer: string;
  workspace?: string | undefined;
  scratch?: string | undefined;
  nodeOnly: boolean;
  /** `--audit`: every host let out through the recording proxy (meta.audit). */
  audit: boolean;
  /** `--recorder auto|ebpf|strace` (absent: ENVELOPE_GATE_RECORDER, else auto). */
  recorder?: string | undefined;
  keepScratch: boolean;
  command: string[];
  /** The closing line's "next:" command (`run` names the check; `suggest --run` shows the suggestion instead). */
  next: boolean;
}

/**
 * `envelope-gate run`'s arguments, parsed and checked (nothing runs): the one parser of them, for
 * runCommand and for the CLI's parseCommandLine. `parsed` is told the --observer path as soon as
 * the flags parse, so a refusal after that still names the log.
 */
export function parseRunArgs(
  args: string[],
  usage: (message: string) => never,
  parsed: (observer: string | undefined) => void = () => {},
): ReportedRun {
  const dashes = args.indexOf("--");
  if (dashes === -1) usage("run needs `-- CMD [ARGS...]`");
  const command = args.slice(dashes + 1);
  if (command.length === 0 || command[0] === "") usage("run needs a command after --");
  const { values } = parseArgs({
    args: args.slice(0, dashes),
    options: { ...ENVELOPE_LOG_OPTIONS, ...RUN_ONLY_OPTIONS },
    strict: true,
    allowPositionals: false,
  });
  parsed(values.observer);
  if (!values.envelope) usage("run needs --envelope");
  if (!values.observer) usage("run needs --observer");
  return {
    envelope: values.envelope,
    sha256: values.sha256,
    observer: values.observer,
    workspace: values.workspace,
    scratch: values.scratch,
    nodeOnly: values["node-only"] === true,
    audit: values.audit === true,
    recorder: values.recorder,
    keepScratch: values["keep-scratch"] === true,
    command,
    next: true,
  };
}

/**
 * `envelope-gate run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--node-only] [--audit] [--recorder auto|ebpf|strace] -- CMD [ARGS...]`
 * Returns the command's exit code; typed errors propagate to the CLI (exit 3).
 * On stderr, of its own: the withheld keys, then one closing line (log, events, the check to run next).
 * A scratch the run chose is removed afterwards unless --keep-scratch; a removal that fails is said
 * on stderr and leaves the exit code as it was (the log is complete; check judges it).
 */
export async function runCommand(
  args: string[],
  usage: (message: string) => never,
  parsed: (observer: string | undefined) => void = () => {},
): Promise<number> {
  return runAndReport(parseRunArgs(args, usage, parsed));
}

/**
 * One observed run with run's own stderr lines (the withheld keys; log, events, exit) and its
 * scratch handling: `run`, and `suggest --run` before it suggests.
 */
export async function runAndReport(values: ReportedRun): Promise<number> {
  const facts: RunFacts = {};
  const tty = process.stderr.isTTY === true;
  let drawn = false;
  const progress = tty
    ? setInterval(() => {
        const n = facts.eventsSoFar?.() ?? 0;
        process.stderr.write(`\r\x1b[Kenvelope-gate run: ${n} events so far`);
        drawn = true;
      }, PROGRESS_MS)
    : null;
  progress?.unref();
  let exitCode: number | undefined;
  try {
    exitCode = await runObserved({
      envelopePath: values.envelope,
      digestPath: values.sha256,
      logPath: values.observer,
      workspace: values.workspace,
      scratch: values.scratch,
      nodeOnly: values.nodeOnly,
      audit: values.audit,
      recorder: values.recorder,
      command: values.command,
      facts,
      onCommandStarted: () => {
        if (drawn) process.stderr.write("\r\x1b[K");
        process.stderr.write(jailUpLine(values.command, facts.recorder));
      },
    });
  } finally {
    if (progress !== null) clearInterval(progress);
    if (drawn) process.stderr.write("\r\x1b[K");
    if (facts.withheld !== undefined) process.stderr.write(withheldLine(facts.withheld));
    if (facts.recorder !== undefined) process.stderr.write(recorderLine(facts.recorder));
    let scratchNote = "";
    if (facts.scratch !== undefined && facts.scratchChosen === true) {
      if (values.keepScratch) scratchNote = `; scratch kept at ${facts.scratch}`;
      else {
        try {
          rmSync(facts.scratch, { recursive: true, force: true });
        } catch (err) {
          process.stderr.write(
            `envelope-gate run: SCRATCH_REMOVE_FAILED: the scratch ${facts.scratch} could not be removed (${errnoOf(err) ?? String(err)}); remove it by hand. The exit code is the command's, as without this.\n`,
          );
        }
      }
    }
    if (exitCode !== undefined && facts.events !== undefined) {
      const next = ["envelope-gate", "check", "--envelope", values.envelope];
      if (values.sha256 !== undefined) next.push("--sha256", values.sha256);
      next.push("--observer", values.observer);
      const exited =
        facts.exitCode === null || facts.exitCode === undefined ? `ended by a signal (exit ${exitCode})` : `exited ${facts.exitCode}`;
      process.stderr.write(
        `envelope-gate run: log ${resolve(values.observer)}, ${facts.events} events, the command ${exited}${scratchNote}${values.next ? `; next: ${next.map(shellWord).join(" ")}` : ""}\n`,
      );
    }
  }
  return exitCode;
}
