/**
 * The footprint a reviewer reads: what the pull request's run touched that the base branch's last
 * run did not (new environment keys, hosts, commands, write directories, tools), even where the
 * envelope allows it, and how many things the base touched that this run no longer does. Pure:
 * the caller reads both logs; this never judges, and nothing here changes a verdict.
 *
 * Each log is read against its own `meta.workspace` and `meta.scratch`: a write under them is
 * written `${WORKSPACE}/…` or `${SCRATCH}/…`, and the run's private directories under the scratch
 * (`.envelope-gate-<run id>`) as `.envelope-gate-${RUN_ID}`, so two runs in different scratches
 * compare equal. Every name is the one walk's (./log-reader.ts walkLog), as `check`, `suggest` and
 * the audit name it: commands by their allowed_commands entry, hosts by the name an entry allows.
 */
import { unzipSync } from "fflate";
import { Refusal } from "./errors.js";
import { EVIDENCE_FILES, verifyBundle } from "./evidence.js";
import { walkLog, type WalkedEvent, type WalkedLog } from "./log-reader.js";
import { foldPath, isInsideRoot } from "./paths.js";

export const FOOTPRINT_FILE = "footprint.json";

export const FOOTPRINT_CLASSES = ["env", "hosts", "commands", "write_dirs", "tools"] as const;
export type FootprintClass = (typeof FOOTPRINT_CLASSES)[number];

/** What one class is called where a reviewer reads it. */
export const FOOTPRINT_CLASS_LABEL: Record<FootprintClass, string> = {
  env: "environment key read",
  hosts: "host",
  commands: "command",
  write_dirs: "write directory",
  tools: "tool",
};

interface Seen {
  first_line: number;
  count: number;
}

/** One log, reduced to the distinct things it touched per class. */
export interface LogFootprint {
  run_id: string | null;
  classes: Record<FootprintClass, Map<string, Seen>>;
}

interface FootprintItem {
  item: string;
  /** Line of the pull request's log where it was first touched. */
  first_line: number;
  /** Events of the pull request's log that touched it. */
  count: number;
}

interface FootprintBase {
  /** The workflow run whose evidence was the base. */
  workflow_run_id: number;
  run_number: number | null;
  head_sha: string;
  branch: string;
  html_url: string | null;
  /** The base log's own run id (meta.run_id). */
  log_run_id: string | null;
}

/** footprint.json, as written into the evidence bundle. */
export type FootprintFile =
  | {
      version: 1;
      status: "compared";
      base: FootprintBase;
      new: Record<FootprintClass, FootprintItem[]>;
      /** Distinct things the base's run touched that this run did not, per class. */
      no_longer: Record<FootprintClass, number>;
    }
  | {
      version: 1;
      /** `no_base`: there is nothing to compare with; `unavailable`: GitHub could not say (an outage, never "nothing new"). */
      status: "no_base" | "unavailable";
      reason: string;
    };

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

function emptyClasses(): Record<FootprintClass, Map<string, Seen>> {
  return { env: new Map(), hosts: new Map(), commands: new Map(), write_dirs: new Map(), tools: new Map() };
}

/** A log's path with its run's roots written as variables (the deeper root first when nested). */
export function portablePath(path: string, roots: { workspace: string | null; scratch: string | null; runId: string | null }): string {
  const candidates: [string, string][] = [];
  if (roots.workspace !== null && isInsideRoot(path, roots.workspace)) candidates.push(["${WORKSPACE}", roots.workspace]);
  if (roots.scratch !== null && isInsideRoot(path, roots.scratch)) candidates.push(["${SCRATCH}", roots.scratch]);
  candidates.sort((a, b) => b[1].length - a[1].length);
  const under = candidates[0];
  let out = path;
  if (under !== undefined) out = under[1] === "/" ? under[0] + path : under[0] + path.slice(under[1].length);
  if (roots.runId !== null) out = out.split(`/.envelope-gate-${roots.runId}`).join("/.envelope-gate-${RUN_ID}");
  return out;
}

/** Which class an event of each kind is counted in. */
const FOOTPRINT_CLASS_OF: Record<WalkedEvent["kind"], FootprintClass | null> = {
  write: "write_dirs",
  env: "env",
  tool: "tools",
  host: "hosts",
  exec: "commands",
  syscall: null,
};

/**
 * Reduces one walked log (./log-reader.ts walkLog) to what it touched, by the names the walk
 * gives: an endpoint by the name an entry allows it by, a command by its allowed_commands entry.
 * The Node runtime's own reads of its documented keys are not the program's and are left out;
 * loopback in the run's own network namespace is the run's own, not a host.
 */
export function logFootprint(log: WalkedLog): LogFootprint {
  const classes = emptyClasses();
  const meta = log.meta;
  const roots = { workspace: foldPath(str(meta.workspace) ?? ""), scratch: foldPath(str(meta.scratch) ?? ""), runId: str(meta.run_id) };
  for (const e of log.events) {
    const cls = FOOTPRINT_CLASS_OF[e.kind];
    if (cls === null || (e.kind === "env" && e.runtime) || (e.kind === "host" && e.ownLoopback)) continue;
    const item =
      e.kind === "write"
        ? portablePath(e.subject.slice(0, e.subject.lastIndexOf("/")) || "/", roots)
        : e.kind === "exec" && e.subject.includes("/")
          ? portablePath(e.subject, roots)
          : e.subject;
    const seen = classes[cls].get(item);
    if (seen) seen.count++;
    else classes[cls].set(item, { first_line: e.line, count: 1 });
  }
  // A lookup of a name (no port) that the run also reached with a port is that endpoint's own
  // lookup, as `suggest` reads it: the `name:port` item stands for both.
  const hosts = classes.hosts;
  const named = new Set([...hosts.keys()].filter((k) => /:\d+$/.test(k)).map((k) => k.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1")));
  for (const key of [...hosts.keys()]) if (!/:\d+$/.test(key) && named.has(key)) hosts.delete(key);
  return { run_id: roots.runId, classes };
}

/** What the pull request's run touched that the base's did not, and the reverse as counts. */
export function compareFootprints(
  pr: LogFootprint,
  base: LogFootprint,
): { new: Record<FootprintClass, FootprintItem[]>; no_longer: Record<FootprintClass, number> } {
  const fresh = {} as Record<FootprintClass, FootprintItem[]>;
  const gone = {} as Record<FootprintClass, number>;
  for (const cls of FOOTPRINT_CLASSES) {
    const mine = pr.classes[cls];
    const theirs = base.classes[cls];
    fresh[cls] = [...mine.entries()]
      .filter(([item]) => !theirs.has(item))
      .map(([item, seen]) => ({ item, first_line: seen.first_line, count: seen.count }))
      .sort((a, b) => a.first_line - b.first_line || (a.item < b.item ? -1 : 1));
    gone[cls] = [...theirs.keys()].filter((item) => !mine.has(item)).length;
  }
  return { new: fresh, no_longer: gone };
}

/** footprint.json for a comparison made. */
export function comparedFootprint(pr: LogFootprint, base: LogFootprint, run: FootprintBase): FootprintFile {
  return { version: 1, status: "compared", base: run, ...compareFootprints(pr, base) };
}

/** How many new things, over every class. */
export function newCount(file: FootprintFile): number {
  return file.status === "compared" ? FOOTPRINT_CLASSES.reduce((n, c) => n + file.new[c].length, 0) : 0;
}

/**
 * The observer log of a base run's evidence artifact: the zip is unpacked, its manifest and every
 * file's digest verified (EVIDENCE_DIGEST_MISMATCH otherwise), and the log must be covered by the
 * manifest and be a whole log. Throws a Refusal saying why it cannot be compared with.
 */
export function baseLogFromZip(zip: Uint8Array): Uint8Array {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip);
  } catch (err) {
    throw new Refusal("EVIDENCE_UNAVAILABLE", `the artifact is not a readable zip (${(err as Error).message})`, { cause: err });
  }
  const files = new Map(Object.entries(entries).filter(([name]) => !name.endsWith("/")));
  const { manifest } = verifyBundle(files);
  const log = files.get(EVIDENCE_FILES.observerLog);
  if (log === undefined || !Object.hasOwn(manifest.files, EVIDENCE_FILES.observerLog))
    throw new Refusal("EVIDENCE_UNAVAILABLE", `the bundle holds no ${EVIDENCE_FILES.observerLog}`);
  // Read by the reader check uses: a cut or malformed log is refused with check's code.
  walkLog({ file: EVIDENCE_FILES.observerLog, bytes: log }, null);
  return log;
}
