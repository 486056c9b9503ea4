/**
 * The effects check's filesystem reads (src/core/effects.ts is the logic; docs/observer.md, "The
 * effects check"). Before the command stage: a snapshot of the roots' directories and protected
 * entries. After the jail is gone (no process of it is alive: its PID namespace died with it):
 * a second look, and a `write` line (`"source": "effects"`) for every protected entry that is
 * new, gone, replaced or changed. Anything that cannot be examined refuses the run
 * (OBSERVER_EFFECTS_UNCHECKED): an unlooked-at directory could hold a new `.git`.
 *
 * Names are handled as bytes (latin1 strings inside, one character per byte), so a directory
 * whose name is not UTF-8 is read like any other; the log's path is its UTF-8 reading.
 */
import { lstatSync, readdirSync, realpathSync, type BigIntStats } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { errnoOf, Refusal } from "../core/errors.js";
import {
  compareSnapshots,
  recheck,
  takeSnapshot,
  type DirEntry,
  type EffectChange,
  type EffectsFs,
  type EffectsScope,
  type EffectsSnapshot,
  type EntryStat,
  type EntryType,
} from "../core/effects.js";
import type { Emitted, WriteEvent } from "../core/log-format.js";

/**
 * A directory's ctime is the kernel's coarse clock (one tick: 1 to 10 ms). The command starts at
 * least this long after the snapshot ended, so a change it makes cannot carry the ctime seen.
 */
const CLOCK_TICK_MARGIN_MS = 25;

const toBytes = (utf8: string): string => Buffer.from(utf8, "utf8").toString("latin1");
const fromBytes = (bytes: string): string => Buffer.from(bytes, "latin1").toString("utf8");
const fsPath = (bytes: string): Buffer => Buffer.from(bytes, "latin1");

function unchecked(what: string, path: string, err: unknown): Refusal {
  return new Refusal("OBSERVER_EFFECTS_UNCHECKED", `the effects check cannot ${what} ${fromBytes(path)} (${errnoOf(err) ?? String(err)})`, {
    hint: "Every directory of the allowed roots (outside the scratch) must stay readable by the user that runs envelope-gate: a directory it cannot read could hold a new .git. Remove or fix the directory and run again.",
    cause: err,
  });
}

function typeOf(st: BigIntStats): EntryType {
  if (st.isDirectory()) return "dir";
  if (st.isFile()) return "file";
  if (st.isSymbolicLink()) return "symlink";
  return "other";
}

/** The real filesystem, for the core's walker. */
export const REAL_EFFECTS_FS: EffectsFs = {
  lstat(path: string): EntryStat | null {
    let st: BigIntStats | undefined;
    try {
      st = lstatSync(fsPath(path), { bigint: true, throwIfNoEntry: false });
    } catch (err) {
      if (errnoOf(err) === "ENOTDIR") return null;
      throw unchecked("examine", path, err);
    }
    if (st === undefined) return null;
    return {
      type: typeOf(st),
      id: `${st.dev}:${st.ino}`,
      ctime: String(st.ctimeNs),
      mtime: String(st.mtimeNs),
      size: String(st.size),
    };
  },
  readdir(path: string): DirEntry[] {
    try {
      return readdirSync(fsPath(path), { withFileTypes: true, encoding: "buffer" }).map((d) => ({
        name: d.name.toString("latin1"),
        dir: d.isDirectory(),
      }));
    } catch (err) {
      throw unchecked("list", path, err);
    }
  },
};

export interface EffectsWatch {
  before: EffectsSnapshot;
  /** When the command may start (the snapshot's last ctime can no longer be a new one's). */
  readyAt: number;
}

function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch (err) {
    if (errnoOf(err) === "ENOENT" || errnoOf(err) === "ENOTDIR") return path;
    throw unchecked("resolve", toBytes(path), err);
  }
}

/** Before the command stage: the roots' protected entries and directories (scope in UTF-8, as meta has it). */
export function watchEffects(scope: EffectsScope, fs: EffectsFs = REAL_EFFECTS_FS): EffectsWatch {
  const bytes: EffectsScope = {
    // A root the jail binds is its target: walked there (a root not yet there is looked for as named).
    roots: scope.roots.map((r) => toBytes(realOrSame(r))),
    exempt: scope.exempt.map(toBytes),
    protectedPaths: scope.protectedPaths.map(toBytes),
  };
  const before = takeSnapshot(fs, bytes);
  return { before, readyAt: Date.now() + CLOCK_TICK_MARGIN_MS };
}

/** Waits until the command may start. */
export async function effectsReady(watch: EffectsWatch): Promise<void> {
  const wait = watch.readyAt - Date.now();
  if (wait > 0) await sleep(wait);
}

/** After the jail is gone: what changed, as log lines (`write`, `source: "effects"`). */
export function effectsFound(watch: EffectsWatch, fs: EffectsFs = REAL_EFFECTS_FS): Emitted<WriteEvent>[] {
  const after = recheck(fs, watch.before);
  return compareSnapshots(watch.before, after).map((c: EffectChange) => ({
    kind: "write",
    ts: Date.now(),
    source: "effects",
    path: fromBytes(c.path),
    op: c.op,
  }));
}
