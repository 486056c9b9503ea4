/** Builders for observer logs and envelopes used by the core and CLI tests. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Refusal } from "../../src/core/errors.js";
import { digestLine, hashOf } from "./hash.js";

export { hashOf };

export const BASE_ENVELOPE = {
  envelope_id: "agent-patch-envelope-v3",
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
  allowed_tools: ["read_file", "apply_patch", "run_tests"],
  allowed_env: ["CI", "PATH", "RUN_ID", "ENVELOPE_HASH", "SCRATCH"],
  allowed_hosts: [] as string[],
  network: "deny",
};

export function envelopeText(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...BASE_ENVELOPE, ...overrides }, null, 2) + "\n";
}

export type Event = Record<string, unknown>;

/** A complete log's lines: meta, the events, and an end line with the right count. */
export function logLines(envelopeHash: string, events: Event[], opts: { seq?: boolean; meta?: Event } = {}): Event[] {
  const lines: Event[] = [
    {
      v: 1,
      kind: "meta",
      run_id: "run-1",
      envelope_hash: envelopeHash,
      runner: "test-runner",
      started_at: "2026-11-30T00:00:00Z",
      observers: ["node", "process"],
      ...opts.meta,
    },
    ...events.map((e) => ({ v: 1, ...e })),
  ];
  lines.push({ v: 1, kind: "end", events: lines.length, exit_code: 0 });
  if (opts.seq) lines.forEach((l, i) => (l.seq = i));
  return lines;
}

/** A complete log: meta, the events, and an end line with the right count. */
export function logText(envelopeHash: string, events: Event[], opts: { seq?: boolean; meta?: Event } = {}): string {
  return (
    logLines(envelopeHash, events, opts)
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n"
  );
}

export function tempDir(prefix = "eg-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface Fixture {
  dir: string;
  envelope: string;
  digest: string;
  log: string;
  hash: string;
}

/** Writes envelope, its digest and a log to a fresh directory. */
export function writeFixture(envelope: string, makeLog: (hash: string) => string): Fixture {
  const dir = tempDir();
  const envPath = join(dir, "envelope.json");
  writeFileSync(envPath, envelope);
  const hash = hashOf(envelope);
  writeFileSync(`${envPath}.sha256`, digestLine(envelope, "envelope.json"));
  const logPath = join(dir, "observer.jsonl");
  writeFileSync(logPath, makeLog(hash));
  return { dir, envelope: envPath, digest: `${envPath}.sha256`, log: logPath, hash };
}

/** A log as suggest, the footprint, audit and the proposal take it: its lines' JSON, as bytes (read by core/log-reader.ts). */
export function recordedLog(file: string, lines: readonly Event[]): { file: string; bytes: Uint8Array } {
  return { file, bytes: new TextEncoder().encode(lines.map((l) => JSON.stringify(l)).join("\n") + "\n") };
}

/** The code of the Refusal `f` throws, or "(none)" when it throws none (anything else is rethrown). */
export function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof Refusal) return err.code;
    throw err;
  }
  return "(none)";
}
