import { Refusal } from "./errors.js";
import type { LoadedEnvelope } from "./envelope.js";
import type { LogVerdict, Violation } from "./log-reader.js";

export type Verdict = "pass" | "envelope_fail" | "error";

/** The contract's `check --format json` object (CONTRACT.md section 5), plus what the log said of itself. */
export interface CheckReport {
  verdict: Verdict;
  envelope_id: string | null;
  envelope_hash: string | null;
  events: number;
  violations: Violation[];
  error: { code: string; message: string; file?: string; line?: number; hint?: string } | null;
  log: {
    run_id: string;
    runner: string;
    exit_code: number | null;
    counts: LogVerdict["counts"];
    observers: unknown;
    network_enforced: unknown;
    /** How the jail stood, as the log says (meta.jail); null for a log without one. */
    jail: unknown;
    /** Hosts allowed through a host set, shown expanded: `registry.npmjs.org:443` via `@npm`. */
    via_sets: LogVerdict["via_sets"];
    /** Recorded by `run --audit` (meta.audit): every host was let out. Judged the same; said so. */
    audit: boolean;
  } | null;
}

export const EXIT_CODES = { pass: 0, envelope_fail: 1, usage: 2, error: 3 } as const;

export function reportFromVerdict(v: LogVerdict): CheckReport {
  return {
    verdict: v.verdict,
    envelope_id: v.envelope_id,
    envelope_hash: v.envelope_hash,
    events: v.events,
    violations: v.violations,
    error: null,
    log: {
      run_id: v.meta.run_id,
      runner: v.meta.runner,
      exit_code: v.exit_code,
      counts: v.counts,
      observers: v.meta.extra.observers ?? null,
      network_enforced: v.meta.extra.network_enforced ?? null,
      jail: v.meta.extra.jail ?? null,
      via_sets: v.via_sets,
      audit: v.meta.extra.audit === true,
    },
  };
}

export function reportFromError(err: unknown, envelope: LoadedEnvelope | null): CheckReport {
  const gate =
    err instanceof Refusal
      ? err
      : new Refusal("INTERNAL_ERROR", `the gate failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`, {
          hint: "This is a bug in envelope-gate; the run is refused until it is fixed.",
        });
  return {
    verdict: "error",
    envelope_id: envelope?.envelope.envelope_id ?? null,
    envelope_hash: envelope?.hash ?? null,
    events: 0,
    violations: [],
    error: gate.toJSON(),
    log: null,
  };
}

export function exitCodeFor(verdict: Verdict): number {
  return EXIT_CODES[verdict];
}
