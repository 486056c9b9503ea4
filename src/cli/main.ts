/** The command line: one call of `main` per invocation; src/cli/index.ts is the program that calls it. */
import { readFile } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import { errnoOf, Refusal } from "../core/errors.js";
import { formatDigestLine, loadEnvelope } from "../core/envelope.js";
import { plainText } from "../core/markdown.js";
import { EXIT_CODES, exitCodeFor, reportFromError, type CheckReport } from "../core/verdict.js";
import { runCheck } from "../check/check.js";
import { readVerifiedEnvelope } from "../check/files.js";
import { ENVELOPE_LOG_OPTIONS, RUN_ONLY_OPTIONS } from "../check/options.js";
import { logEndEvents, logOnDisk, takeResultFileRequest, writeCliResult, type CliResult } from "../check/result.js";
import { formatReportText } from "./format.js";
import { writeStdout } from "../check/output.js";
import type { ReportedRun } from "../observer/cli.js";
import { PRODUCT, VERSION } from "../core/version.js";

const USAGE = `${PRODUCT}
usage:
  envelope-gate hash <envelope.json>
  envelope-gate verify --envelope E [--sha256 F]
  envelope-gate check  --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--format text|json]
  envelope-gate run    --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--node-only] [--audit] [--recorder auto|ebpf|strace] -- CMD [ARGS...]
  envelope-gate suggest --observer L [--observer L ...] [--from E [--sha256 F]] [--write OUT]
  envelope-gate suggest --run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--audit] [--write OUT] -- CMD [ARGS...]
  envelope-gate app    [start | pause --reason TEXT | resume | status | promote --installation N | demote --installation N | manifest --url URL | setup --name NAME --webhook-url URL]
  envelope-gate app --help     the App's commands and every setting with its default (also: app <command> --help)
  envelope-gate --version      prints "${PRODUCT}" (also: -V, version)

exit status: 0 pass, 1 violations, 2 usage, 3 could not evaluate
every command answers --help (or -h) with its own usage`;

/** Each subcommand's usage, printed on stdout with exit 0 for `<command> --help` or `-h`. */
export const COMMAND_HELP: Record<string, string> = {
  hash: `usage: envelope-gate hash <envelope.json>
  Prints the envelope's digest line (sha256sum's format), for envelope.json.sha256.
  A file that is not a valid envelope still gets its digest (exit 0), with a warning on stderr
  naming the problem (ENVELOPE_INVALID), which verify and check would refuse it for.`,
  verify: `usage: envelope-gate verify --envelope E [--sha256 F]
  Checks the envelope against its pinned digest (F, default E.sha256) and its schema.`,
  check: `usage: envelope-gate check --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--format text|json]
  Judges the observer log L against the pinned envelope E.
  --workspace, --scratch  default: the ones the log's run recorded (its meta line); given and
                          different from those, check refuses (CHECK_OPTIONS_CONFLICT)
  --format                text (default) or json (the contract's report)
  exit status: 0 pass, 1 violations, 3 could not evaluate`,
  run: `usage: envelope-gate run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--node-only] [--audit] [--recorder auto|ebpf|strace] -- CMD [ARGS...]
  Runs CMD jailed and observed under the pinned envelope E, writing the log L.
  --workspace DIR   default: the current directory
  --scratch DIR     default: a fresh directory $TMPDIR/envelope-gate/<run id> (/tmp when TMPDIR
                    is unset), removed after the run unless --keep-scratch (a scratch you give
                    is never removed); the command sees it at its own path, writable when
                    allowed_roots lists \${SCRATCH}
  --node-only       record with the Node hooks only (no process observer)
  --audit           jailed and recorded as usual, but every host is let out through the
                    recording egress proxy (HTTP_PROXY and the other proxy keys are set);
                    meta says "audit": true, and check judges the log like any other
  --recorder R      the process recorder: auto (default; the eBPF recorder when it can start,
                    else strace, said on stderr), ebpf (refuses when it cannot start: needs
                    root or passwordless sudo), strace. Default from ENVELOPE_GATE_RECORDER
  On stderr it says when the jail is up and the command has started ("the jail is up, running
  CMD (recorder: R)"), then, after the command, which of your environment keys the command did
  not get, and ends with one line: the log, the number of events, and the check to run next. On a
  terminal it shows the events so far while the command runs.
  exit status: the command's, or 3 if the run could not be observed`,
  suggest: `usage: envelope-gate suggest --observer L [--observer L ...] [--from E [--sha256 F]] [--write OUT]
       envelope-gate suggest --run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--audit] [--write OUT] -- CMD [ARGS...]
  Proposes the envelope the recorded runs needed (from E, or from nothing), on stdout or into OUT.
  Each entry says what it covers, how often it was seen, where first, and the program that read,
  wrote, called, reached or started it. When a run's command failed, the withheld keys a non-Node
  program of it may have needed (python: PYTHONPATH, go: GOCACHE, any: HOME, ...) are proposed
  apart, marked unobserved: such programs' reads cannot be seen. Never proposed, listed apart with
  why (- lines): a key that names a credential or carries one (GIT_ASKPASS, GIT_CONFIG_*, *_LOGIN),
  names the machine or the run (RUNNER_NAME, HOSTNAME, GITHUB_RUN_ID), controls a program
  (NODE_OPTIONS, LD_*, GIT_SSH_COMMAND) or is not printable ASCII; a family covering such a key; a
  root under the system's directories (/usr, /etc, /opt, /lib*, /var/lib), the tool cache or another
  program's install directory, or one the jail refused in a run that exited 0.
  --run           first records one run of CMD under E (as run does: its stderr lines, the withheld
                  keys and the log/events/exit line, come first), then suggests from its log, from E
  --keep-scratch  with --run: keep the scratch the run chose (by default it is removed after the
                  run, as run does; a scratch you give is never removed)
  --audit         with --run: record the run as run --audit does (every host let out through the
                  recording proxy, meta says "audit": true), then suggest from that log`,
};

/** Whether the command's own arguments (before any `--`) ask for its usage. */
function wantsHelp(args: string[]): boolean {
  const dashes = args.indexOf("--");
  const own = dashes === -1 ? args : args.slice(0, dashes);
  return own.includes("--help") || own.includes("-h");
}

/** A command line the CLI does not accept: exit status 2 with the usage. */
export class UsageError extends Error {}

function usage(message: string): never {
  throw new UsageError(message);
}

function absolute(path: string | undefined): string | undefined {
  return path === undefined ? undefined : resolve(path);
}

function parseHash(args: string[]): string {
  if (args.length !== 1) usage("hash takes exactly one envelope file");
  return args[0] as string;
}

async function hash(args: string[]): Promise<number> {
  const file = parseHash(args);
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const code = errnoOf(err) === "ENOENT" ? "ENVELOPE_MISSING" : "ENVELOPE_UNREADABLE";
    throw new Refusal(code, `envelope ${file} cannot be read (${errnoOf(err) ?? String(err)})`, { file });
  }
  await writeStdout(formatDigestLine(bytes, basename(file)), "the digest line");
  warnIfNotAnEnvelope(bytes, file);
  return EXIT_CODES.pass;
}

/**
 * hash digests bytes, so it still prints the digest of a file that is no valid envelope (one being
 * drafted), but says on stderr what `verify` and `check` will refuse it for. Exit status unchanged.
 */
function warnIfNotAnEnvelope(bytes: Uint8Array, file: string): void {
  try {
    loadEnvelope(bytes, file);
  } catch (err) {
    if (!(err instanceof Refusal) || err.code !== "ENVELOPE_INVALID") throw err;
    const lines = [`envelope-gate: warning: ${file} is not a valid envelope (ENVELOPE_INVALID): ${err.message}`];
    if (err.hint !== undefined) lines.push(`  what to do: ${err.hint}`);
    process.stderr.write(lines.map((l) => plainText(l)).join("\n") + "\n");
  }
}

function parseVerify(args: string[]): { envelope: string; sha256: string | undefined } {
  const { values } = parseArgs({
    args,
    options: { envelope: { type: "string" }, sha256: { type: "string" } },
    strict: true,
    allowPositionals: false,
  });
  if (!values.envelope) usage("verify needs --envelope");
  return { envelope: values.envelope, sha256: values.sha256 };
}

async function verify(args: string[]): Promise<number> {
  const values = parseVerify(args);
  const loaded = await readVerifiedEnvelope(values.envelope, values.sha256);
  await writeStdout(`envelope-gate: OK ${loaded.envelope.envelope_id} ${loaded.hash}\n`, "the verification");
  return EXIT_CODES.pass;
}

/**
 * What a command said besides its exit status, for the result file: the --observer path it took
 * from its arguments (once parsed) and, for check, its report. One per invocation, filled in by the
 * command as it goes, so a refusal after the parse still names the log.
 */
export interface Said {
  observer?: string;
  report?: CheckReport;
}

function parseCheck(args: string[], said: Said) {
  const { values } = parseArgs({
    args,
    options: { ...ENVELOPE_LOG_OPTIONS, format: { type: "string", default: "text" } },
    strict: true,
    allowPositionals: false,
  });
  said.observer = values.observer;
  if (!values.envelope) usage("check needs --envelope");
  if (!values.observer) usage("check needs --observer");
  if (values.format !== "text" && values.format !== "json") usage("--format is text or json");
  return { ...values, envelope: values.envelope, observer: values.observer };
}

async function check(args: string[], said: Said): Promise<number> {
  const values = parseCheck(args, said);
  const { report } = await runCheck({
    envelopePath: values.envelope,
    digestPath: values.sha256,
    logPath: values.observer,
    workspace: absolute(values.workspace),
    scratch: absolute(values.scratch),
  });
  said.report = report;
  await writeStdout(
    values.format === "json" ? JSON.stringify({ ...report, envelope_gate_version: VERSION }) + "\n" : formatReportText(report),
    "the check report",
  );
  return exitCodeFor(report.verdict);
}

async function run(args: string[], said: Said): Promise<number> {
  const { runCommand } = await import("../observer/cli.js");
  return runCommand(args, usage, (observer) => {
    said.observer = observer;
  });
}

/** suggest's flags, and with --run the run it records first (run's, with `--audit` meaning what it means there). */
async function parseSuggest(args: string[]) {
  const dashes = args.indexOf("--");
  const own = dashes === -1 ? args : args.slice(0, dashes);
  const command = dashes === -1 ? [] : args.slice(dashes + 1);
  const { values } = parseArgs({
    args: own,
    options: {
      observer: { type: "string", multiple: true },
      from: { type: "string" },
      sha256: { type: "string" },
      write: { type: "string" },
      run: { type: "boolean", default: false },
      envelope: { type: "string" },
      workspace: { type: "string" },
      scratch: { type: "string" },
      "keep-scratch": RUN_ONLY_OPTIONS["keep-scratch"],
      audit: RUN_ONLY_OPTIONS.audit,
    },
    strict: true,
    allowPositionals: false,
  });
  const logs = values.observer ?? [];
  let recorded: ReportedRun | null = null;
  if (values.run === true) {
    if (!values.envelope || logs.length !== 1 || command.length === 0)
      usage("suggest --run needs --envelope E, one --observer L and -- CMD [ARGS...]");
    recorded = {
      envelope: values.envelope,
      sha256: values.sha256,
      observer: logs[0] as string,
      workspace: values.workspace,
      scratch: values.scratch,
      nodeOnly: false,
      audit: values.audit === true,
      keepScratch: values["keep-scratch"] === true,
      command,
      next: false,
    };
  } else if (command.length > 0 || values.envelope !== undefined || values["keep-scratch"] === true || values.audit === true) {
    usage("suggest takes -- CMD, --envelope, --keep-scratch and --audit only with --run");
  }
  if (logs.length === 0) usage("suggest needs at least one --observer log");
  return { ...values, logs, recorded };
}

async function suggest(args: string[]): Promise<number> {
  // The --run form records one run first (under --envelope, which it then widens), then suggests.
  const values = await parseSuggest(args);
  let from = values.from;
  if (values.recorded !== null) {
    // run's own closing lines (withheld keys; log, events, exit) come first, and a scratch the
    // run chose is removed unless --keep-scratch: the log keeps what suggest reads.
    const { runAndReport } = await import("../observer/cli.js");
    await runAndReport(values.recorded);
    from = values.recorded.envelope;
  }
  const { suggestCommand } = await import("../check/suggest.js");
  await writeStdout(
    await suggestCommand({
      logs: values.logs,
      from,
      fromDigest: values.sha256,
      write: values.write,
      workspace: values.workspace,
      scratch: values.scratch,
    }),
    "the suggestion",
  );
  return EXIT_CODES.pass;
}

async function app(args: string[]): Promise<number> {
  const { appCommand } = await import("../app/cli.js");
  return appCommand(args, usage);
}

const COMMANDS: Record<string, (args: string[], said: Said) => Promise<number>> = { hash, verify, check, run, suggest, app };

/** Each command's parser: what the command itself parses its arguments with, here run alone. */
const PARSERS: Record<string, (args: string[]) => Promise<unknown>> = {
  hash: async (args) => parseHash(args),
  verify: async (args) => parseVerify(args),
  check: async (args) => parseCheck(args, {}),
  run: async (args) => (await import("../observer/cli.js")).parseRunArgs(args, usage),
  suggest: parseSuggest,
  app: async (args) => (await import("../app/cli.js")).parseAppArgs(args, usage),
};

/**
 * Whether the CLI accepts a command line (`argv` without the program), running nothing and reading
 * no file: resolves with the command's name, or rejects with a UsageError or parseArgs's
 * ERR_PARSE_ARGS_* error, exactly where main would exit 2. The docs' command lines are held to it.
 */
export async function parseCommandLine(argv: string[]): Promise<string> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") return "help";
  const parse = PARSERS[name];
  if (parse === undefined) usage(`unknown command "${name}"`);
  if (COMMAND_HELP[name] !== undefined && wantsHelp(rest)) return name;
  await parse(rest);
  return name;
}

export async function main(argv: string[]): Promise<number> {
  // Asked for by the Action (internal, docs/action.md): taken out of the environment before anything runs.
  const resultFile = takeResultFileRequest();
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-V" || name === "version") {
    process.stdout.write(`${PRODUCT}\n`);
    return EXIT_CODES.pass;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(USAGE + "\n");
    return name === undefined ? EXIT_CODES.usage : EXIT_CODES.pass;
  }
  const command = COMMANDS[name];
  const help = COMMAND_HELP[name];
  if (help !== undefined && wantsHelp(rest)) {
    process.stdout.write(help + "\n");
    return EXIT_CODES.pass;
  }
  const said: Said = {};
  let ended: Ended;
  try {
    if (!command) usage(`unknown command "${name}"`);
    ended = { exitStatus: await command(rest, said), outcome: "completed", error: null };
  } catch (err) {
    if (err instanceof UsageError || errnoOf(err)?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`envelope-gate: ${(err as Error).message}\n${USAGE}\n`);
      ended = { exitStatus: EXIT_CODES.usage, outcome: "usage", error: null };
    } else {
      const report = reportFromError(err, null);
      process.stderr.write(formatReportText(report));
      ended = { exitStatus: EXIT_CODES.error, outcome: "refused", error: report.error as CliResult["error"] };
    }
  }
  if (resultFile !== null && (name === "run" || name === "check")) return reportResult(resultFile, name, said, ended);
  return ended.exitStatus;
}

interface Ended {
  exitStatus: number;
  outcome: CliResult["outcome"];
  error: CliResult["error"];
}

/**
 * Writes the result file for run or check (src/check/result.ts). One that cannot be written is said
 * as any refusal is, and the exit status is 3: the caller that asked for it refuses without it.
 */
function reportResult(file: string, name: "run" | "check", said: Said, ended: Ended): number {
  const log = logOnDisk(said.observer);
  // check's error verdict is a refusal as a thrown error is: its error, exit status 3.
  const report = said.report ?? null;
  const how = report?.verdict === "error" ? { outcome: "refused" as const, error: report.error as CliResult["error"] } : ended;
  const events = how.outcome !== "completed" ? null : report !== null ? report.events : log !== null ? logEndEvents(log.path) : null;
  const result: CliResult = {
    version: 1,
    command: name,
    outcome: how.outcome,
    exit_status: ended.exitStatus,
    error: how.error,
    log,
    events,
    verdict: name === "run" || how.outcome === "usage" ? null : how.outcome === "refused" ? "error" : (report?.verdict ?? null),
  };
  try {
    writeCliResult(file, result);
  } catch (err) {
    process.stderr.write(formatReportText(reportFromError(err, null)));
    return EXIT_CODES.error;
  }
  return ended.exitStatus;
}
