/**
 * Protected paths and persisted credentials in the jail (issue 17, docs/observer.md "Protected
 * paths" and "Persisted credentials").
 *
 *   discoverProtected (I/O: lstat, .git files, `git ls-files`, `git config --file`)
 *     -> planProtected (pure: what is bound read-only, what is masked, what meta records)
 *     -> protectedMountArgs (pure: bubblewrap arguments, after the roots are bound)
 *     -> hideCredentials (I/O: sanitized copies of the git config files, in the wrapper's directory)
 *
 * Inside the roots, every `.git` entry (directory or file) and the gitdir a `.git` file points at,
 * `.github`, and the Action's own files are bound read-only; an unpopulated submodule's directory
 * gets a read-only empty directory over it, so no `sub/.git` can be planted there for a later
 * unjailed `git status` to recurse into. Git config files the jail can read are replaced by
 * copies without credentials; include files and credential stores that carry them are covered
 * with an empty file.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, lstatSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from "node:fs";
import { exists, homes } from "./host-paths.js";
import { dirname, join, resolve } from "node:path";
import type { LoadedEnvelope } from "../core/envelope.js";
import { errnoOf, Refusal } from "../core/errors.js";
import { foldPath, isInsideAnyRoot, isInsideRoot } from "../core/paths.js";
import { containsAny, gitExemptFor } from "../core/protected.js";

const GIT_ENV = "ENVELOPE_GATE_GIT";

/** What the wrapper found on disk before the run. */
interface ProtectedFacts {
  /** `.git` entries (directories or files) inside a root, real paths. */
  gitEntries: string[];
  /** Gitdirs and common dirs a `.git` file points at, inside a root. */
  gitDirs: string[];
  /** Unpopulated submodule directories (gitlinks in an index) inside a root: empty, or missing under a plain parent. */
  unpopulatedSubmodules: string[];
  /** Paths that exist (for the plan: only existing paths are bound). */
  existing: ReadonlySet<string>;
}

interface ProtectedInputs {
  roots: string[];
  workspace: string;
  scratch: string;
  /** The Action's own directories (GITHUB_ACTION_PATH, the product's install directory), real paths. */
  actionDirs: string[];
  /** The envelope's writable_protected, expanded and folded. */
  writableProtected: string[];
  /** Where the envelope is, for messages. */
  envelopeFile: string;
  /** The 1-based line of each writable_protected entry. */
  writableLines: (number | undefined)[];
}

interface ProtectedPlan {
  /** Existing paths inside the roots bound read-only over themselves. */
  readOnly: string[];
  /** Unpopulated submodule directories covered by a read-only empty directory. */
  emptyDirs: string[];
  /** writable_protected entries that exist under a read-only path: bound read-write again. */
  writable: string[];
  /** What the log's meta records (`meta.protected`), judged by `check`. */
  meta: { paths: string[]; writable: string[] };
}

/** Files the product ships, protected when its install directory holds the workspace (`uses: ./` on its own repository). */
const PRODUCT_FILES = ["action.yml", "action.yaml", "dist", "package.json"];

function under(path: string, dirs: readonly string[]): boolean {
  return isInsideAnyRoot(path, dirs);
}

/** Keeps the outermost of nested paths. */
function outermost(paths: Iterable<string>): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  const out: string[] = [];
  for (const p of sorted) if (!under(p, out)) out.push(p);
  return out;
}

/** Pure: what the jail binds read-only, and what the log records as protected. */
function planProtected(inputs: ProtectedInputs, facts: ProtectedFacts): ProtectedPlan {
  const judged = new Set<string>();
  for (const p of [...facts.gitEntries, ...facts.gitDirs]) judged.add(p);
  judged.add(join(inputs.workspace, ".github"));
  for (const dir of inputs.actionDirs) {
    if (isInsideRoot(inputs.workspace, dir)) for (const f of PRODUCT_FILES) judged.add(join(dir, f));
    else judged.add(dir);
  }
  const gitPaths = [...facts.gitEntries, ...facts.gitDirs];
  inputs.writableProtected.forEach((entry, i) => {
    const git = containsAny(entry, gitPaths);
    if (git !== null) {
      const line = inputs.writableLines[i] ?? 1;
      throw new Refusal(
        "ENVELOPE_INVALID",
        `${inputs.envelopeFile}:${line}: writable_protected "${entry}" contains the git directory ${git}, whose hooks and config are never writable`,
        {
          file: inputs.envelopeFile,
          line,
          hint: "Name the one directory the suite must write (e.g. ${WORKSPACE}/.github/generated), not one that holds a .git.",
        },
      );
    }
  });
  const inRoots = [...judged].filter((p) => under(p, inputs.roots));
  const readOnly = outermost(inRoots.filter((p) => facts.existing.has(p)));
  const emptyDirs = facts.unpopulatedSubmodules.filter((d) => under(d, inputs.roots) && !under(d, readOnly)).sort();
  const writable = inputs.writableProtected.filter((w) => facts.existing.has(w) && under(w, readOnly)).sort((a, b) => a.length - b.length);
  return {
    readOnly,
    emptyDirs,
    writable,
    meta: { paths: [...inRoots, ...emptyDirs].sort(), writable: [...inputs.writableProtected].sort() },
  };
}

/** Pure: bubblewrap arguments, to follow the roots' own binds (parents first, exceptions after). */
function protectedMountArgs(plan: ProtectedPlan, hidden: HiddenCredentials, emptyDir: string, emptyFile: string): string[] {
  const args: string[] = [];
  for (const p of plan.readOnly) args.push("--ro-bind", p, p);
  for (const d of plan.emptyDirs) args.push("--ro-bind", emptyDir, d);
  for (const w of plan.writable) args.push("--bind", w, w);
  for (const c of hidden.configs) args.push("--ro-bind", c.copy, c.path);
  // An empty regular file, not /dev/null: bubblewrap binds with nodev, and git must still read the include as empty.
  for (const m of hidden.masked) args.push("--ro-bind", emptyFile, m);
  return args;
}

/** Whether the jail refuses writes at a path inside a root (the strace parser's "writable" must say no). */
function enforcedReadOnly(plan: ProtectedPlan, hidden: HiddenCredentials, path: string): boolean {
  if (under(path, plan.writable)) return false;
  return under(path, plan.readOnly) || under(path, plan.emptyDirs) || hidden.configs.some((c) => c.path === path);
}

// ---------------------------------------------------------------------------------------------
// Discovery (I/O)

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** The git the wrapper uses to read indexes and config files: never the repository's hooks or fsmonitor. */
export function findGit(
  pathValue: string | undefined,
  resolveExecutable: (name: string, path: string | undefined) => string | null,
): string | null {
  const configured = process.env[GIT_ENV];
  return resolveExecutable(configured ?? "git", pathValue);
}

const GIT_SAFE = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "safe.directory=*", "--no-optional-locks"];

function gitEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: "/nonexistent",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    LC_ALL: "C",
  };
}

function unavailable(message: string, cause?: unknown): Refusal {
  return new Refusal("PROTECTED_PATHS_UNAVAILABLE", message, {
    hint: "The wrapper reads the repository's index with git to find submodules before the run (ENVELOPE_GATE_GIT names the binary). Install git, or fix the repository; the run does not start without its protected paths.",
    cause,
  });
}

function runGit(git: string | null, args: string[], what: string): string {
  if (git === null)
    throw unavailable(
      `cannot ${what}: git was not found${process.env[GIT_ENV] !== undefined ? ` at ${process.env[GIT_ENV]}` : " on PATH"}`,
    );
  const r = spawnSync(git, [...GIT_SAFE, ...args], { encoding: "utf8", env: gitEnv(), maxBuffer: 256 * 1024 * 1024, timeout: 120_000 });
  if (r.status !== 0) {
    const why = (r.stderr || r.error?.message || `exit ${String(r.status ?? r.signal)}`).trim().split("\n")[0];
    throw unavailable(`cannot ${what}: ${git} failed (${why})`, r.error);
  }
  return r.stdout;
}

/** The path a `.git` file points at (`gitdir: X`), resolved from the file's directory. */
function gitFileTarget(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw unavailable(`cannot read the git file ${file} (${errnoOf(err) ?? String(err)})`, err);
  }
  const m = /^gitdir: (.+?)\r?\n?$/m.exec(text);
  if (m === null) throw unavailable(`the git file ${file} does not name a gitdir ("gitdir: <path>")`);
  return resolve(dirname(file), m[1] as string);
}

interface DiscoveredRepositories {
  facts: ProtectedFacts;
  /** Every git directory found (for the credential scan), real paths, inside a root or not. */
  gitDirs: string[];
}

/**
 * Finds the `.git` entries of the workspace and of every root, the gitdirs their `.git` files
 * point at, the worktrees' `.git` files, and the submodules registered in each index (populated
 * ones are followed; unpopulated ones are reported).
 */
function discoverProtected(inputs: {
  roots: string[];
  workspace: string;
  scratch: string;
  git: string | null;
  /** Other directories that may be checkouts (the Action's own). */
  extra: string[];
}): DiscoveredRepositories {
  const exempt = gitExemptFor(inputs.workspace, inputs.scratch);
  const gitEntries = new Set<string>();
  const protectedGitDirs = new Set<string>();
  const allGitDirs = new Set<string>();
  const unpopulated = new Set<string>();
  const existing = new Set<string>();
  const visited = new Set<string>();
  const inRoots = (p: string): boolean => isInsideAnyRoot(p, inputs.roots);

  const noteGitDir = (dir: string): void => {
    allGitDirs.add(dir);
    if (inRoots(dir)) {
      protectedGitDirs.add(dir);
      existing.add(dir);
    }
    // A linked worktree's gitdir names the common directory it shares.
    const common = join(dir, "commondir");
    if (exists(common)) {
      const target = realOrNull(resolve(dir, readFileSync(common, "utf8").trim()));
      if (target !== null && !allGitDirs.has(target)) noteGitDir(target);
    }
    // Worktrees of this repository: their `.git` files.
    let names: string[];
    try {
      names = readdirSync(join(dir, "worktrees"));
    } catch {
      names = [];
    }
    for (const name of names) {
      let pointer: string;
      try {
        pointer = readFileSync(join(dir, "worktrees", name, "gitdir"), "utf8").trim();
      } catch {
        continue;
      }
      const real = realOrNull(pointer);
      if (real !== null && inRoots(real)) {
        gitEntries.add(real);
        existing.add(real);
      }
    }
  };

  const examine = (repo: string, depth: number): void => {
    if (depth > 32 || visited.has(repo)) return;
    visited.add(repo);
    const entry = join(repo, ".git");
    let st;
    try {
      st = lstatSync(entry);
    } catch {
      return;
    }
    const real = realOrNull(entry) ?? entry;
    for (const p of new Set([entry, real])) {
      if (inRoots(p)) {
        gitEntries.add(p);
        existing.add(p);
      }
    }
    let gitDir: string;
    if (st.isSymbolicLink() ? lstatSync(real).isDirectory() : st.isDirectory()) gitDir = real;
    else {
      const target = realOrNull(gitFileTarget(real));
      if (target === null) return;
      gitDir = target;
    }
    noteGitDir(gitDir);
    // Other checkouts inside this one (actions/checkout with `path:`): untracked directories
    // holding a `.git`, which git lists without entering them.
    const untracked = runGit(inputs.git, ["-C", repo, "ls-files", "-z", "--others", "--directory"], `list the nested checkouts of ${repo}`);
    for (const record of untracked.split("\0")) {
      if (!record.endsWith("/")) continue;
      const dir = join(repo, record.slice(0, -1));
      if (exists(join(dir, ".git"))) examine(dir, depth + 1);
    }
    // Submodules (gitlinks, mode 160000) registered in the index.
    const listing = runGit(inputs.git, ["-C", repo, "ls-files", "--stage", "-z"], `list the submodules of ${repo}`);
    for (const record of listing.split("\0")) {
      const m = /^160000 [0-9a-f]+ \d\t(.+)$/s.exec(record);
      if (m === null) continue;
      const dir = join(repo, m[1] as string);
      if (exists(join(dir, ".git"))) {
        examine(dir, depth + 1);
        continue;
      }
      // Only where the path has no symlink in it: bubblewrap would follow one when it binds.
      let probe = dir;
      while (!exists(probe)) probe = dirname(probe);
      if (realOrNull(probe) !== probe) continue;
      if (probe === dir) {
        let entries: string[];
        try {
          entries = readdirSync(dir);
        } catch {
          continue;
        }
        if (entries.length > 0 || !lstatSync(dir).isDirectory()) continue;
        existing.add(dir);
      }
      unpopulated.add(dir);
    }
  };

  const candidates = new Set<string>([
    inputs.workspace,
    ...inputs.roots.filter((r) => !isInsideAnyRoot(r, exempt)),
    ...inputs.extra.filter(inRoots),
  ]);
  for (const repo of candidates) {
    const real = realOrNull(repo);
    if (real !== null) examine(real, 0);
  }
  return {
    facts: {
      gitEntries: [...gitEntries].sort(),
      gitDirs: [...protectedGitDirs].sort(),
      unpopulatedSubmodules: [...unpopulated].sort(),
      existing,
    },
    gitDirs: [...allGitDirs].sort(),
  };
}

/** Adds the existing paths among `paths` to the facts (`.github`, the Action's own files). */
function noteExisting(facts: ProtectedFacts, paths: Iterable<string>): ProtectedFacts {
  const existing = new Set(facts.existing);
  for (const p of paths) if (exists(p)) existing.add(p);
  return { ...facts, existing };
}

// ---------------------------------------------------------------------------------------------
// Persisted credentials

interface ConfigEntry {
  key: string;
  value: string;
}

interface CredentialFindings {
  /** Keys to unset (`http.<url>.extraheader`). */
  unset: string[];
  /** URL-valued keys whose values carry userinfo: rewritten without it. */
  rewrite: { key: string; values: string[] }[];
  /** `url.<base>` sections whose base carries userinfo. */
  removeSections: string[];
  /** Files this config makes git read that may carry credentials (include paths, credential stores, cookie files). */
  referenced: { kind: "include" | "store"; path: string }[];
}

const HTTP_USERINFO = /^(https?|ftps?):\/\/[^/@?#]+@/i;

/** `scheme://user:token@host/...` -> `scheme://host/...` (only for the web schemes: an ssh user names no secret). */
export function stripUserinfo(url: string): string {
  return url.replace(/^((?:https?|ftps?):\/\/)[^/@?#]+@/i, "$1");
}

/** Parses `git config --list -z` output: records split by NUL, key and value by the first newline. */
export function parseConfigList(text: string): ConfigEntry[] {
  return text
    .split("\0")
    .filter((r) => r !== "")
    .map((r) => {
      const nl = r.indexOf("\n");
      return nl === -1 ? { key: r, value: "" } : { key: r.slice(0, nl), value: r.slice(nl + 1) };
    });
}

/** Pure: what in one config file carries, or points at, credentials. */
export function credentialFindings(entries: readonly ConfigEntry[]): CredentialFindings {
  const out: CredentialFindings = { unset: [], rewrite: [], removeSections: [], referenced: [] };
  const rewrite = new Map<string, string[]>();
  for (const { key, value } of entries) {
    const lower = key.toLowerCase();
    const section = lower.slice(0, lower.indexOf("."));
    const name = lower.slice(lower.lastIndexOf(".") + 1);
    if (section === "http" && name === "extraheader") {
      if (!out.unset.includes(key)) out.unset.push(key);
    } else if (section === "url" && (name === "insteadof" || name === "pushinsteadof")) {
      const base = key.slice(4, key.lastIndexOf("."));
      if (HTTP_USERINFO.test(base) && !out.removeSections.includes(`url.${base}`)) out.removeSections.push(`url.${base}`);
    } else if (HTTP_USERINFO.test(value)) {
      const values = rewrite.get(key) ?? [];
      values.push(value);
      rewrite.set(key, values);
    }
    if ((section === "include" || section === "includeif") && name === "path" && value !== "") {
      out.referenced.push({ kind: "include", path: value });
    }
    if (section === "credential" && name === "helper") {
      const store = /^(?:store|git-credential-store)(?:\s|$)/.exec(value.trim());
      if (store !== null) {
        const file = /--file[= ](?:"([^"]+)"|'([^']+)'|(\S+))/.exec(value);
        if (file !== null) out.referenced.push({ kind: "store", path: (file[1] ?? file[2] ?? file[3]) as string });
      }
    }
    if (section === "http" && name === "cookiefile" && value !== "") out.referenced.push({ kind: "store", path: value });
  }
  for (const [key, values] of rewrite) {
    // Every value of the key, in order: a multi-valued key is unset whole and added back.
    const all = entries.filter((e) => e.key === key).map((e) => e.value);
    out.rewrite.push({ key, values: all.length > 0 ? all : values });
  }
  return out;
}

function hasCredentials(f: CredentialFindings): boolean {
  return f.unset.length > 0 || f.rewrite.length > 0 || f.removeSections.length > 0;
}

/** A config without any of these names no credential and includes nothing (git's keys are case-insensitive). */
const MAY_CARRY_CREDENTIALS = /extraheader|:\/\/[^\s/@]*@|include|store|cookiefile/i;

interface HiddenCredentials {
  /** Config files replaced in the jail by a sanitized copy (host path of the copy). */
  configs: { path: string; copy: string }[];
  /** Files covered with an empty file in the jail (include files with credentials, credential stores). */
  masked: string[];
}

function notHidden(message: string, cause?: unknown): Refusal {
  return new Refusal("GIT_CREDENTIALS_UNCHECKED", message, {
    hint: "The jail must not see the job's token, and this git config could not be read or cleaned of it. Fix the file, or check out with persist-credentials: false.",
    cause,
  });
}

function listConfig(git: string | null, file: string): ConfigEntry[] {
  if (git === null) throw notHidden(`cannot read the git config ${file}: git was not found`);
  const r = spawnSync(git, ["config", "--file", file, "--list", "-z"], { encoding: "utf8", env: gitEnv(), timeout: 60_000 });
  if (r.status !== 0) {
    const why = (r.stderr || r.error?.message || `exit ${String(r.status ?? r.signal)}`).trim().split("\n")[0];
    throw notHidden(`cannot read the git config ${file} (${why}): it may carry credentials the jail would see`, r.error);
  }
  return parseConfigList(r.stdout);
}

function editConfig(git: string, file: string, args: string[]): void {
  const r = spawnSync(git, ["config", "--file", file, ...args], { encoding: "utf8", env: gitEnv(), timeout: 60_000 });
  if (r.status !== 0 && r.status !== 5) {
    throw notHidden(`cannot remove credentials from a copy of a git config (${(r.stderr || `exit ${String(r.status)}`).trim()})`);
  }
}

/** The config files git reads for a repository (its gitdir's, its common dir's, nested submodule gitdirs'). */
function repositoryConfigs(gitDirs: readonly string[]): string[] {
  const out = new Set<string>();
  // modules/<name>: a submodule's gitdir (it has a HEAD), whose name may itself hold slashes.
  const walkModules = (dir: string, depth: number): void => {
    if (depth > 16) return;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const sub = join(dir, name);
      if (exists(join(sub, "HEAD"))) {
        for (const f of ["config", "config.worktree"]) if (exists(join(sub, f))) out.add(join(sub, f));
        walkModules(join(sub, "modules"), depth + 1);
      } else walkModules(sub, depth + 1);
    }
  };
  for (const g of gitDirs) {
    for (const f of ["config", "config.worktree"]) if (exists(join(g, f))) out.add(join(g, f));
    walkModules(join(g, "modules"), 0);
    let names: string[];
    try {
      names = readdirSync(join(g, "worktrees"));
    } catch {
      names = [];
    }
    for (const n of names) if (exists(join(g, "worktrees", n, "config.worktree"))) out.add(join(g, "worktrees", n, "config.worktree"));
  }
  return [...out].map((f) => realOrNull(f) ?? f);
}

/**
 * Scans every git config file the jail can read (the repositories' own, the user's and the
 * system's) and hides what carries credentials: a sanitized copy of a config (no extraheader, no
 * userinfo in URLs, no insteadOf base with a token) is bound over it, and an include file or a
 * credential store that carries them is covered with an empty file. The copies are checked again; a
 * config that cannot be read or cleaned refuses the run (GIT_CREDENTIALS_UNCHECKED).
 */
function hideCredentials(inputs: {
  git: string | null;
  gitDirs: readonly string[];
  /** Homes the jail shows (inside a root): their git config and credential stores are the jail's to read. */
  homes: readonly string[];
  /** The wrapper's HOME, for `~/` in include paths. */
  home: string | undefined;
  copyDir: string;
}): HiddenCredentials {
  const configs: { path: string; copy: string }[] = [];
  const masked = new Set<string>();
  const homeFiles = inputs.homes.flatMap((h) => [join(h, ".gitconfig"), join(h, ".config", "git", "config")]);
  const xdgValue = process.env.XDG_CONFIG_HOME;
  const xdg = xdgValue !== undefined && inputs.homes.some((h) => isInsideRoot(xdgValue, h)) ? xdgValue : undefined;
  if (xdg !== undefined) homeFiles.push(join(xdg, "git", "config"));
  const queue: { file: string; depth: number }[] = [...repositoryConfigs(inputs.gitDirs), ...homeFiles, "/etc/gitconfig"]
    .filter(exists)
    .map((file) => ({ file, depth: 0 }));
  // Credential stores git reads by default, whatever the helper: covered wherever they exist.
  for (const h of inputs.homes)
    for (const f of [join(h, ".git-credentials"), join(h, ".config", "git", "credentials")]) if (exists(f)) masked.add(realOrNull(f) ?? f);
  if (xdg !== undefined && exists(join(xdg, "git", "credentials"))) masked.add(join(xdg, "git", "credentials"));
  const seen = new Set<string>();
  mkdirSync(inputs.copyDir, { recursive: true, mode: 0o700 });
  while (queue.length > 0) {
    const { file, depth } = queue.shift() as { file: string; depth: number };
    if (seen.has(file) || depth > 10) continue;
    seen.add(file);
    let isFile: boolean;
    try {
      isFile = lstatSync(file).isFile();
    } catch {
      continue;
    }
    if (!isFile) continue;
    // Nothing in it that could carry or point at a credential: no need for git to parse it.
    let text: string;
    try {
      text = readFileSync(file, "latin1");
    } catch (err) {
      throw notHidden(`cannot read the git config ${file} (${errnoOf(err) ?? String(err)})`, err);
    }
    if (!MAY_CARRY_CREDENTIALS.test(text)) continue;
    const findings = credentialFindings(listConfig(inputs.git, file));
    for (const ref of findings.referenced) {
      const path =
        ref.path.startsWith("~/") && inputs.home !== undefined ? join(inputs.home, ref.path.slice(2)) : resolve(dirname(file), ref.path);
      const real = realOrNull(path);
      if (real === null) continue;
      if (ref.kind === "store") masked.add(real);
      else queue.push({ file: real, depth: depth + 1 });
    }
    if (!hasCredentials(findings)) continue;
    // An include file that carries credentials is only ever read for them (checkout's
    // git-credentials-<uuid>.config): covered whole. A repository's own config is cleaned.
    if (depth > 0) {
      masked.add(file);
      continue;
    }
    const git = inputs.git as string;
    const copy = join(inputs.copyDir, `config-${configs.length}`);
    copyFileSync(file, copy);
    for (const key of findings.unset) editConfig(git, copy, ["--unset-all", key]);
    for (const section of findings.removeSections) editConfig(git, copy, ["--remove-section", section]);
    for (const { key, values } of findings.rewrite) {
      editConfig(git, copy, ["--unset-all", key]);
      for (const v of values) editConfig(git, copy, ["--add", key, stripUserinfo(v)]);
    }
    if (hasCredentials(credentialFindings(listConfig(inputs.git, copy)))) {
      throw notHidden(`the sanitized copy of ${file} still carries credentials`);
    }
    configs.push({ path: file, copy });
  }
  return { configs, masked: [...masked].filter((m) => !configs.some((c) => c.path === m)).sort() };
}

/** The product's own install directory: the package that holds this bundle (dist/<entry>/index.js). */
export function productInstallDir(moduleDir: string): string | null {
  const root = foldPath(resolve(moduleDir, "..", ".."));
  return root === null ? null : realOrNull(root);
}

interface ProtectedJail {
  plan: ProtectedPlan;
  hidden: HiddenCredentials;
  /** bubblewrap arguments, to follow the roots' binds (jail.ts). */
  mountArgs: string[];
  /** A path inside a root the jail nevertheless refuses to write. */
  readOnly: (path: string) => boolean;
  /** What the log's meta says about it. */
  jailMeta: {
    read_only: string[];
    empty_submodule_dirs: string[];
    writable_again: string[];
    credentials_hidden: string[];
    credentials_masked: string[];
  };
}

/** Everything the run needs about protected paths and credentials, found before the jail is planned. */
export function prepareProtected(inputs: {
  envelope: LoadedEnvelope;
  roots: string[];
  workspace: string;
  scratch: string;
  writableProtected: string[];
  git: string | null;
  actionDirs: string[];
  privateDir: string;
}): ProtectedJail {
  const actionDirs = [...new Set(inputs.actionDirs.map((d) => realOrNull(d)).filter((d): d is string => d !== null))];
  const repos = discoverProtected({
    roots: inputs.roots,
    workspace: inputs.workspace,
    scratch: inputs.scratch,
    git: inputs.git,
    extra: actionDirs,
  });
  const productFiles = actionDirs.flatMap((d) => PRODUCT_FILES.map((f) => join(d, f)));
  const facts = noteExisting(repos.facts, [join(inputs.workspace, ".github"), ...actionDirs, ...productFiles, ...inputs.writableProtected]);
  const plan = planProtected(
    {
      roots: inputs.roots,
      workspace: inputs.workspace,
      scratch: inputs.scratch,
      actionDirs,
      writableProtected: inputs.writableProtected,
      envelopeFile: inputs.envelope.file,
      writableLines: inputs.writableProtected.map((_, i) => inputs.envelope.lines.get(`/writable_protected/${i}`)),
    },
    facts,
  );
  const dir = join(inputs.privateDir, "protected");
  const hidden = hideCredentials({
    git: inputs.git,
    gitDirs: repos.gitDirs,
    // Elsewhere HOME is the run's own, in the scratch (jail.ts): the runner's files are out of sight.
    homes: homes().filter((h) => isInsideAnyRoot(h, inputs.roots)),
    home: homes()[0],
    copyDir: join(dir, "configs"),
  });
  const emptyDir = join(dir, "empty");
  mkdirSync(emptyDir, { recursive: true, mode: 0o755 });
  const emptyFile = join(dir, "empty-file");
  writeFileSync(emptyFile, "", { mode: 0o444 });
  return {
    plan,
    hidden,
    mountArgs: protectedMountArgs(plan, hidden, emptyDir, emptyFile),
    readOnly: (path) => enforcedReadOnly(plan, hidden, path),
    jailMeta: {
      read_only: plan.readOnly,
      empty_submodule_dirs: plan.emptyDirs,
      writable_again: plan.writable,
      credentials_hidden: hidden.configs.map((c) => c.path),
      credentials_masked: hidden.masked,
    },
  };
}
