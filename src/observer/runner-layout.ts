/**
 * What of the runner the jail hides, derived from the wrapper's environment and its own Node
 * binary alone (no I/O, so every layout is a table row in a test).
 *
 * GitHub's runners keep their secrets beside the job: the runner's own directory (its
 * `.credentials`, `.credentials_rsaparams` private key, `.runner`, `_diag`), RUNNER_TEMP (step
 * scripts with expanded secrets), the file-command files (GITHUB_ENV, GITHUB_OUTPUT, …), the
 * event payload, the Actions and tools the job downloaded, and in a container job `/github`.
 * Each is covered with an empty read-only directory; the allowed roots and the install
 * directories of the programs the run starts are shown again on top (bubblewrap applies mounts
 * in order, so the jail sorts them parents first).
 *
 * Layouts (docs/observer.md, The jail):
 *   hosted       HOME=/home/runner, node /home/runner/runners/<v>/externals/node24/bin/node,
 *                work /home/runner/work, RUNNER_TEMP /home/runner/work/_temp
 *   self-hosted  /opt/actions-runner/{externals/node24,_work,_work/_temp,_diag,.runner,.credentials}
 *   container    /__w (work), /__w/_temp, /__e/node24/bin/node, /__t, HOME=/github/home, /github/…
 */
import { posix } from "node:path";
import { isInsideAnyRoot } from "../core/paths.js";

const { basename, dirname, normalize } = posix;

export interface LayoutInput {
  /** The wrapper's environment. */
  env: Readonly<Record<string, string | undefined>>;
  /** The wrapper's Node binary (process.execPath). */
  execPath: string;
  /** Directories the jail replaces with the run's own (HOME, the passwd home, /tmp). */
  privateTargets: readonly string[];
  /** Programs the run starts (the command as found on PATH and its real path, the Node binary). */
  executables: readonly string[];
  /** The allowed roots (writable, bound after everything hidden). */
  roots: readonly string[];
  /** Directories the jail covers for other reasons (socket-places.ts): a program there is shown like one in a hidden directory. */
  covered?: readonly string[];
}

interface RunnerLayout {
  /** The runner's own directory (credentials, `_diag`, `.runner`), when it can be told. */
  runnerDir: string | null;
  /** The job's work directory (`_work`, `$HOME/work`, `/__w`), when it can be told. */
  workDir: string | null;
  /** Directories covered with an empty read-only directory, shortest first. */
  hidden: string[];
  /** Files covered with /dev/null: a file-command file outside any directory that can be hidden whole. */
  masked: string[];
  /**
   * Install directories shown again, read-only, because a program the run starts lives under a
   * hidden or private directory (`<prefix>` for `<prefix>/bin/<name>`); a program whose prefix
   * would show a whole home, a top directory of a home or the runner's directory is shown alone.
   */
  visible: string[];
}

const FILE_COMMAND_KEYS = ["GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"] as const;

/** Directories the jail never covers whole: the system itself. A file there is masked alone. */
const SYSTEM_DIRS = ["/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/dev", "/sys", "/run", "/boot"];

function clean(path: string | undefined): string | null {
  if (path === undefined || !path.startsWith("/")) return null;
  const p = normalize(path).replace(/\/+$/, "");
  return p === "" ? null : p;
}

function depth(path: string): number {
  return path.split("/").filter((s) => s !== "").length;
}

function within(path: string, dir: string): boolean {
  return isInsideAnyRoot(path, [dir]);
}

/** A directory that may be covered whole: deeper than a top-level directory and not the system's. */
function coverable(dir: string): boolean {
  return depth(dir) >= 2 && !SYSTEM_DIRS.some((s) => within(dir, s));
}

/** The runner's directory from its own Node (`<runner>/externals/node24/bin/node`), or the externals of a container job (`/__e`). */
function runnerDirOfNode(execPath: string): { runnerDir: string | null; externals: string | null } {
  const hosted = /^(\/.+)\/externals\/node[^/]*\/bin\/node$/.exec(execPath);
  if (hosted !== null) return { runnerDir: hosted[1] as string, externals: `${hosted[1] as string}/externals` };
  const container = /^(\/__e)\/node[^/]*\/bin\/node$/.exec(execPath);
  if (container !== null) return { runnerDir: null, externals: "/__e" };
  return { runnerDir: null, externals: null };
}

function workDirOf(env: LayoutInput["env"]): string | null {
  const runnerWorkspace = clean(env.RUNNER_WORKSPACE);
  if (runnerWorkspace !== null && depth(runnerWorkspace) >= 2) return dirname(runnerWorkspace);
  const runnerTemp = clean(env.RUNNER_TEMP);
  if (runnerTemp !== null && basename(runnerTemp) === "_temp" && depth(runnerTemp) >= 2) return dirname(runnerTemp);
  return null;
}

/** `<prefix>` for `<prefix>/bin/<name>`, else the program's own directory. */
function installDirOf(executable: string): string {
  const m = /^(\/.+)\/bin\/[^/]+$/.exec(executable);
  return m !== null ? (m[1] as string) : dirname(executable);
}

export function runnerLayout(input: LayoutInput): RunnerLayout {
  const { env } = input;
  const fromNode = runnerDirOfNode(normalize(input.execPath));
  const workDir = workDirOf(env);
  // A self-hosted runner keeps its work directory inside its own (`<runner>/_work`).
  const runnerDir = fromNode.runnerDir ?? (workDir !== null && basename(workDir) === "_work" ? dirname(workDir) : null);

  const hidden = new Set<string>();
  const masked = new Set<string>();
  const hide = (dir: string | null): void => {
    if (dir !== null && coverable(dir)) hidden.add(dir);
  };
  if (runnerDir !== null) {
    hide(runnerDir);
    // Hosted runners keep each version under `runners/`: the whole of it is the runner's.
    if (basename(dirname(runnerDir)) === "runners") hide(dirname(runnerDir));
  }
  if (fromNode.externals !== null && (runnerDir === null || !within(fromNode.externals, runnerDir))) hide(fromNode.externals);
  if (workDir !== null) for (const name of ["_actions", "_temp", "_tool"]) hide(`${workDir}/${name}`);
  hide(clean(env.RUNNER_TEMP));
  const toolCache = clean(env.RUNNER_TOOL_CACHE);
  hide(toolCache);
  // The Action's own directory, unless it is the repository the run works on (`uses: ./`):
  // inside a root it is left to the protected paths.
  const actionPath = clean(env.GITHUB_ACTION_PATH);
  if (actionPath !== null && !isInsideAnyRoot(actionPath, input.roots)) hide(actionPath);
  // The file-command files and the event payload: their directory when it is the runner's own
  // kind of place, else the file alone.
  for (const file of [...FILE_COMMAND_KEYS.map((k) => clean(env[k])), clean(env.GITHUB_EVENT_PATH)]) {
    if (file === null) continue;
    const dir = dirname(file);
    if (coverable(dir)) hidden.add(dir);
    else masked.add(file);
  }
  // A container job's `/github` (home, workflow, file_commands) is the runner's, whole.
  const containerPaths = [clean(env.HOME), clean(env.GITHUB_EVENT_PATH), ...FILE_COMMAND_KEYS.map((k) => clean(env[k]))];
  if (containerPaths.some((p) => p !== null && within(p, "/github"))) hidden.add("/github");

  // A root is the command's own: covering it (or one of its parents that is a root) would hide it.
  for (const dir of [...hidden]) if (input.roots.includes(dir)) hidden.delete(dir);
  for (const file of [...masked]) if ([...hidden].some((d) => within(file, d))) masked.delete(file);

  const covered = [...hidden, ...input.privateTargets, ...(input.covered ?? [])];
  // Tools the job set up (setup-node, setup-python) live in the tool cache, on PATH.
  const toolDirs = [toolCache, workDir !== null ? `${workDir}/_tool` : null].filter((d): d is string => d !== null);
  // Inside the runner's directory only its Node installs and the tool cache are programs' homes.
  const programPlaces = runnerDir !== null ? [`${runnerDir}/externals`, ...toolDirs] : [];
  const forbidden = (dir: string): boolean =>
    dir === "/" ||
    covered.some((c) => within(c, dir)) ||
    input.privateTargets.some((home) => home !== "/tmp" && within(dir, home) && depth(dir) <= depth(home) + 1) ||
    (runnerDir !== null && (within(runnerDir, dir) || (within(dir, runnerDir) && !programPlaces.some((p) => within(dir, p) && dir !== p))));
  const visible = new Set<string>();
  const show = (program: string, dir: string): void => {
    if (isInsideAnyRoot(program, input.roots) || !covered.some((c) => within(program, c))) return;
    visible.add(forbidden(dir) ? program : dir);
  };
  for (const exe of input.executables.map((e) => clean(e)).filter((e): e is string => e !== null)) show(exe, installDirOf(exe));
  for (const entry of (env.PATH ?? "").split(":")) {
    const dir = clean(entry);
    if (dir !== null && toolDirs.some((t) => within(dir, t) && dir !== t)) show(dir, basename(dir) === "bin" ? dirname(dir) : dir);
  }
  const byDepth = (a: string, b: string): number => depth(a) - depth(b) || a.localeCompare(b);
  return {
    runnerDir,
    workDir,
    hidden: [...hidden].sort(byDepth),
    masked: [...masked].sort(byDepth),
    visible: [...visible].filter((v) => ![...visible].some((o) => o !== v && within(v, o))).sort(byDepth),
  };
}
