/**
 * Observer coverage per class, for the job summary: which recorder saw each class of event in
 * this run (the process observer, the Node hooks, the egress proxy, the SDK), how many events,
 * and what that recorder cannot see. Read from the log's `meta` (observers, network_enforced)
 * and its events' `source`. Pure; it describes, never judges.
 */
import type { WalkedLog } from "./log-reader.js";

type CoverageClass = "writes" | "execs" | "env reads" | "network" | "tools";

interface CoverageRow {
  class: CoverageClass;
  /** Recorders that recorded events of this class in this run, with their counts, in words. */
  recorded_by: string;
  events: number;
  /** What this class's recording cannot see, or how it is enforced. */
  limit: string;
}

export interface Coverage {
  observers: string[];
  network_enforced: boolean | null;
  /** Distinct programs executed, and how many of them were Node. */
  programs: { total: number; node: number };
  rows: CoverageRow[];
}

const SOURCE_NAME: Record<string, string> = {
  process: "process observer (strace)",
  node: "Node hooks",
  runtime: "Node hooks (runtime's own reads)",
  proxy: "egress proxy",
  sdk: "SDK (recordTool)",
  effects: "effects check (the filesystem after the run)",
  none: "unattributed",
};

const KIND_CLASS: Partial<Record<WalkedLog["events"][number]["kind"], CoverageClass>> = {
  write: "writes",
  exec: "execs",
  env: "env reads",
  host: "network",
  tool: "tools",
};

/** A Node binary by its file name: node, node24, nodejs. */
function isNodeProgram(path: string): boolean {
  return /^node(?:js)?[0-9.]*$/.test(path.slice(path.lastIndexOf("/") + 1));
}

function recordedBy(counts: Map<string, number>): string {
  if (counts.size === 0) return "nothing recorded";
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([source, n]) => `${SOURCE_NAME[source] ?? source} ${n}`)
    .join(", ");
}

/** Coverage of one walked log (./log-reader.ts walkLog: canary lines, the observer's own check, are not in it). */
export function logCoverage(log: WalkedLog): Coverage {
  const meta = log.meta;
  const observers = Array.isArray(meta.observers) ? meta.observers.filter((o): o is string => typeof o === "string") : [];
  const enforced = typeof meta.network_enforced === "boolean" ? meta.network_enforced : null;
  const r = meta.recorder as { name?: unknown } | undefined;
  const recorder = typeof r?.name === "string" ? r.name : null;
  const bySource = new Map<CoverageClass, Map<string, number>>();
  const programs = new Set<string>();
  for (const e of log.events) {
    const cls = KIND_CLASS[e.kind];
    if (cls === undefined) continue;
    if (e.kind === "exec") programs.add(e.path);
    // A script's interpreter is a program of the run, on the script's own line: one event, not two.
    if (e.kind === "exec" && e.interprets !== undefined) continue;
    const source = e.source ?? "none";
    const counts = bySource.get(cls) ?? new Map<string, number>();
    counts.set(source, (counts.get(source) ?? 0) + 1);
    bySource.set(cls, counts);
  }
  const node = [...programs].filter(isNodeProgram).length;
  const withProcess = observers.includes("process");
  const total = (cls: CoverageClass): number => [...(bySource.get(cls)?.values() ?? [])].reduce((a, b) => a + b, 0);
  const row = (cls: CoverageClass, limit: string): CoverageRow => ({
    class: cls,
    recorded_by: recordedBy(bySource.get(cls) ?? new Map()),
    events: total(cls),
    limit,
  });
  const rows: CoverageRow[] = [
    row(
      "writes",
      withProcess && recorder === "ebpf"
        ? "every process of the run, by the kernel's account (eBPF recorder): an open's path is the file it opened; other mutations' names are read at the call's entry, their directories walked in the kernel; a name that changed during the call, or too long to hold, refuses the run; a write the jail refused is still recorded"
        : withProcess
          ? "every process of the run, by the kernel's account (strace), symlinks resolved; a write the jail refused is still recorded"
          : "only Node processes: the process observer did not run, so writes by other programs were not seen",
    ),
    row(
      "execs",
      withProcess
        ? "every program started in the run (strace)"
        : "only programs Node started (child_process): the process observer did not run",
    ),
    row(
      "env reads",
      `observed only in Node processes: ${node} of ${programs.size} executed program${programs.size === 1 ? " was" : "s were"} Node; other programs' reads are not seen (their environment holds only the allowed_env keys)`,
    ),
    row(
      "network",
      enforced === true
        ? "enforced by the jail's own network namespace (loopback only; allowlist egress only through the recording proxy); recorded by the proxy by name, by the process observer by address"
        : "not enforced by a namespace in this run: recorded only",
    ),
    row("tools", "only tools the agent's dispatcher reports through the SDK (recordTool); nothing else can see a tool dispatch"),
  ];
  return { observers, network_enforced: enforced, programs: { total: programs.size, node }, rows };
}
