/**
 * The scratch `run` chooses when none is given: `$TMPDIR/envelope-gate-<uid>/<run id>`.
 *
 * The parent is the user's own: made 0700 by the first run of that user, and on every run checked
 * to be a real directory (not a link) that this user owns, with no access for anyone else; every
 * directory above it belongs to root or to this user, and one that others may write is sticky (so
 * nobody else can rename or replace what is in it). A parent another user made first, a link
 * planted in its place, or a parent others could write is refused with SCRATCH_UNSAFE, naming it
 * and its owner: another user never owns the directory above a run's scratch, and users never
 * share one (each has a parent of their own, so the second user on a machine does not fail with
 * EACCES on the first one's).
 */
import { lstatSync, mkdirSync, realpathSync, type Stats } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { errnoOf, Refusal } from "../core/errors.js";

const HINT = "Remove it (it is not this user's), set TMPDIR to a directory of your own, or pass --scratch DIR.";

function unsafe(dir: string, why: string, st: Stats | null): Refusal {
  const owner = st === null ? "" : ` (owner uid ${st.uid}, mode ${(st.mode & 0o7777).toString(8).padStart(4, "0")})`;
  return new Refusal("SCRATCH_UNSAFE", `the scratch's parent ${dir}${owner} ${why}: no run's scratch is made under it`, {
    hint: HINT,
  });
}

/** Every directory above the parent: root's or the user's, and sticky where others may write it. */
function checkAncestors(dir: string, uid: number): void {
  for (let d = dirname(dir); ; d = dirname(d)) {
    const st = lstatSync(d);
    if (!st.isDirectory()) throw unsafe(d, "is not a directory", st);
    if (st.uid !== 0 && st.uid !== uid) throw unsafe(d, "belongs to another user, who could replace what is in it", st);
    if ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0) throw unsafe(d, "may be written by others and is not sticky", st);
    if (d === "/") return;
  }
}

/** Makes the run's scratch under the user's own parent, or refuses with SCRATCH_UNSAFE. */
export function defaultScratch(runId: string): string {
  const uid = process.geteuid?.() ?? 0;
  const base = realpathSync(tmpdir());
  const parent = join(base, `envelope-gate-${uid}`);
  checkAncestors(parent, uid);
  try {
    mkdirSync(parent, { mode: 0o700 });
  } catch (err) {
    if (errnoOf(err) !== "EEXIST") throw err;
  }
  const st = lstatSync(parent);
  if (st.isSymbolicLink()) throw unsafe(parent, "is a symbolic link", st);
  if (!st.isDirectory()) throw unsafe(parent, "is not a directory", st);
  if (st.uid !== uid) throw unsafe(parent, "belongs to another user", st);
  if ((st.mode & 0o077) !== 0) throw unsafe(parent, "is open to other users (it must be 0700)", st);
  const scratch = join(parent, runId);
  // Fresh: never a directory that was there before the run.
  mkdirSync(scratch, { mode: 0o700 });
  return scratch;
}
