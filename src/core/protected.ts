/**
 * Protected paths inside the allowed roots (issue 17, "the job is the perimeter"). Pure.
 *
 * Later steps of the same job run unjailed with the job's token: actions/checkout's post step
 * runs git in the workspace, and so does any later `git status` or `git commit`. What a run
 * leaves in `.git` (a hook, `core.fsmonitor`, an `include.path`, a planted submodule gitdir), in
 * `.gitmodules`, in `.github` or in the Action's own files is therefore an escape, even inside an
 * allowed root.
 *
 * A write is protected when:
 * - the effects check recorded it (`"source": "effects"`, src/core/effects.ts): the wrapper found
 *   a protected entry new, gone or changed on the filesystem itself, whatever the recorder's lines
 *   said (isProtectedEffect); or, inside an allowed root,
 * - it lies under a path the run recorded as protected (`meta.protected.paths`: the `.git` entries
 *   and the gitdirs they point at, `.github`, the Action's own directory), or
 * - lexically, a segment of its path below the root is one of PROTECTED_NAMES (`.git`,
 *   `.gitmodules`, `.github`) at any depth (one the run created where none existed is judged too),
 *   except under the run's own scratch directory when the scratch and the workspace do not overlap
 *   (a test's throwaway repository in /tmp is the run's own);
 * and it is not under an entry of the envelope's `writable_protected` (recorded as
 * `meta.protected.writable`) that may be made writable at all.
 *
 * `.gitmodules` and `.github` count at any depth, not only at the workspace's top, although GitHub
 * reads workflows only from the top's `.github/workflows`: git reads the `.gitmodules` of the
 * worktree it runs in (a later `git submodule sync` or `update --init`, as actions/checkout runs
 * with `submodules:`, takes URLs and paths from it, and `--recursive` reads each submodule's), a
 * nested checkout (checkout's `path:`) is a repository whose top is its own directory, and a later
 * step runs a local action by its path (`uses: ./sub/.github/actions/x`). The effects check looks
 * at every such entry anyway, so the recorder's lines are judged by the same names: the verdict does
 * not depend on whether the file was still there at the end. A suite that needs one writes it in
 * the scratch, or names its directory in `writable_protected`.
 */
import { foldPath, isInsideAnyRoot, isInsideRoot } from "./paths.js";

const GIT_DIR_NAME = ".git";

/** Names whose entries are protected wherever they are below a root (and everything inside them). */
export const PROTECTED_NAMES: ReadonlySet<string> = new Set([GIT_DIR_NAME, ".gitmodules", ".github"]);

/**
 * Inside a git directory: what makes git run a program or read another file (hooks, config,
 * a nested gitdir's config and hooks, the pointer to another common directory). Never writable.
 */
const NEVER_WRITABLE_IN_GITDIR = new Set(["hooks", "config", "config.worktree", "modules", "worktrees", "commondir", "info"]);

/** What the run recorded about its protected paths (`meta.protected`). */
export interface ProtectedSet {
  /** Folded absolute paths bound read-only inside the roots (or judged so where they did not exist). */
  paths: string[];
  /** Folded absolute paths the envelope's `writable_protected` made writable again. */
  writable: string[];
  /** Where the lexical names rule (PROTECTED_NAMES) does not apply (the run's scratch, when apart from the workspace). */
  gitExempt: string[];
}

export const NO_PROTECTED: ProtectedSet = { paths: [], writable: [], gitExempt: [] };

function segments(folded: string): string[] {
  return folded === "/" ? [] : folded.slice(1).split("/");
}

/**
 * Why an entry can never be made writable, or null when it may be. Lexical: a `.git` itself, or
 * its hooks, config, modules, worktrees, info or commondir, or anything containing one of them.
 * An entry that only contains a git directory on disk (an absolute path above a repository) is
 * found at run time (`containsGitPath`).
 */
export function neverWritableReason(folded: string): string | null {
  const parts = segments(folded);
  const git = parts.indexOf(GIT_DIR_NAME);
  if (git === -1) return null;
  const below = parts[git + 1];
  if (below === undefined) return `it is a ${GIT_DIR_NAME} itself (it contains ${GIT_DIR_NAME}/hooks and ${GIT_DIR_NAME}/config)`;
  if (NEVER_WRITABLE_IN_GITDIR.has(below)) {
    return `${GIT_DIR_NAME}/${below} makes git run programs or read other files (hooks, config, nested gitdirs)`;
  }
  // A nested `.git` further down (a submodule's gitdir inside a worktree) is judged the same way.
  const rest = "/" + parts.slice(git + 1).join("/");
  return rest.includes(`/${GIT_DIR_NAME}`) ? neverWritableReason(rest) : null;
}

/** Whether `entry` is, or is an ancestor of, any of `paths` (all folded). */
export function containsAny(entry: string, paths: readonly string[]): string | null {
  for (const p of paths) if (isInsideRoot(p, entry)) return p;
  return null;
}

/** The lexical rule: a segment of `folded` below `root` (not the root itself) is a protected name. */
export function hasProtectedSegmentBelow(folded: string, root: string): boolean {
  if (folded === root || !isInsideRoot(folded, root)) return false;
  const below = root === "/" ? folded.slice(1) : folded.slice(root.length + 1);
  return below.split("/").some((s) => PROTECTED_NAMES.has(s));
}

/** Whether `folded` is under an entry of `writable_protected` that may be made writable. */
function madeWritable(folded: string, set: ProtectedSet): boolean {
  return isInsideAnyRoot(folded, set.writable) && neverWritableReason(folded) === null;
}

/** Whether a write at `folded` (already inside an allowed root) is a write to a protected path. */
export function isProtectedWrite(folded: string, roots: readonly string[], set: ProtectedSet): boolean {
  if (madeWritable(folded, set)) return false;
  if (isInsideAnyRoot(folded, set.paths)) return true;
  if (isInsideAnyRoot(folded, set.gitExempt)) return false;
  return roots.some((root) => hasProtectedSegmentBelow(folded, root));
}

/**
 * Whether a protected entry the effects check found changed at `folded` is a violation: always,
 * unless `writable_protected` made it writable (the check looks only at protected entries of the
 * roots, outside the exempt scratch, at the roots' real paths, so neither the roots nor the
 * exemption are asked again).
 */
export function isProtectedEffect(folded: string, set: ProtectedSet): boolean {
  return !madeWritable(folded, set);
}

/** The scratch is exempt from the lexical names rule only when it and the workspace are apart. */
export function gitExemptFor(workspace: string | undefined, scratch: string | undefined): string[] {
  if (scratch === undefined) return [];
  const s = foldPath(scratch);
  if (s === null || s === "/") return [];
  if (workspace === undefined) return [s];
  const w = foldPath(workspace);
  if (w === null || isInsideRoot(w, s) || isInsideRoot(s, w)) return [];
  return [s];
}

/**
 * Reads `meta.protected` (`{ "paths": [...], "writable": [...] }`) as the run wrote it. Returns
 * an error message for a malformed value; an absent value is the empty set (the lexical names
 * rule still applies).
 */
export function protectedFromMeta(value: unknown, workspace: unknown, scratch: unknown): ProtectedSet | string {
  const gitExempt = gitExemptFor(typeof workspace === "string" ? workspace : undefined, typeof scratch === "string" ? scratch : undefined);
  if (value === undefined) return { ...NO_PROTECTED, gitExempt };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `meta "protected" must be an object`;
  const record = value as Record<string, unknown>;
  const out: ProtectedSet = { paths: [], writable: [], gitExempt };
  for (const key of Object.keys(record)) {
    if (key !== "paths" && key !== "writable") return `meta "protected" has an unknown key "${key}"`;
    const list = record[key];
    if (!Array.isArray(list)) return `meta "protected.${key}" must be an array of absolute paths`;
    for (const item of list) {
      const folded = typeof item === "string" && !item.includes("\u0000") ? foldPath(item) : null;
      if (folded === null) return `meta "protected.${key}" must be an array of absolute paths`;
      out[key].push(folded);
    }
  }
  return out;
}
