// The release, in one place (docs/releasing.md): .github/workflows/release.yml runs it for a
// pushed tag vX.Y.Z, and CI runs it with --dry-run in a clone.
//
//   node scripts/release.mjs vX.Y.Z [--notes-file FILE]                   tag, move vX, push both
//   node scripts/release.mjs vX.Y.Z --dry-run --repo CLONE [--notes-file FILE]   the same, no push
//
// It checks that the tag is a semantic version equal to package.json's version and to VERSION in
// src/core/version.ts, takes the release notes from CHANGELOG.md's section for that version,
// checks dist/ is a fresh bundle of src/ (scripts/check-dist.mjs), creates the annotated tag
// vX.Y.Z at HEAD (or finds it there) and moves the major tag vX to it, unless a newer vX.*.*
// release holds it. Every refusal is one line: `release: CODE: what, where`, and exit 1.
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const USAGE =
  "usage: node scripts/release.mjs vX.Y.Z [--notes-file FILE]\n" +
  "       node scripts/release.mjs vX.Y.Z --dry-run --repo CLONE [--notes-file FILE]";

class ReleaseError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

function parseArgs(argv) {
  const options = { tag: null, dryRun: false, repo: null, notesFile: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--dry-run") options.dryRun = true;
    else if (arg === "--repo" || arg === "--notes-file") {
      const value = argv[++i];
      if (value === undefined || value.startsWith("--")) throw new ReleaseError("RELEASE_USAGE", `${arg} needs a value\n${USAGE}`);
      if (arg === "--repo") options.repo = value;
      else options.notesFile = value;
    } else if (arg.startsWith("--")) throw new ReleaseError("RELEASE_USAGE", `unknown option ${arg}\n${USAGE}`);
    else if (options.tag === null) options.tag = arg;
    else throw new ReleaseError("RELEASE_USAGE", `one tag only, got ${options.tag} and ${arg}\n${USAGE}`);
  }
  if (options.tag === null) throw new ReleaseError("RELEASE_USAGE", `no tag given\n${USAGE}`);
  // A dry run makes real tags: only in a repository named on purpose, never the one you work in by default.
  if (options.dryRun && options.repo === null) throw new ReleaseError("RELEASE_USAGE", `--dry-run needs --repo CLONE\n${USAGE}`);
  return options;
}

/** The version a tag names: `vX.Y.Z` only (no pre-release, no build metadata). */
function versionOfTag(tag) {
  const m = /^v(.*)$/.exec(tag);
  if (m === null || !SEMVER.test(m[1])) {
    throw new ReleaseError(
      "RELEASE_TAG_INVALID",
      `tag ${JSON.stringify(tag)} is not vMAJOR.MINOR.PATCH (a semantic version without pre-release or build parts, after a "v")`,
    );
  }
  return m[1];
}

/** 1-based line of the first match of `pattern` in `text`, or null. */
function lineOf(text, pattern) {
  const i = text.split("\n").findIndex((line) => pattern.test(line));
  return i < 0 ? null : i + 1;
}

function readRepoFile(repo, path) {
  const full = join(repo, path);
  if (!existsSync(full)) throw new ReleaseError("RELEASE_FILE_MISSING", `${path} is missing in ${repo}`);
  return readFileSync(full, "utf8");
}

function checkPackageVersion(repo, version) {
  const text = readRepoFile(repo, "package.json");
  let declared;
  try {
    declared = JSON.parse(text).version;
  } catch (err) {
    throw new ReleaseError("RELEASE_PACKAGE_INVALID", `package.json is not JSON: ${err.message}`);
  }
  if (declared !== version) {
    const line = lineOf(text, /^\s*"version"\s*:/) ?? 1;
    throw new ReleaseError(
      "RELEASE_PACKAGE_VERSION_MISMATCH",
      `package.json:${line}: version is ${JSON.stringify(declared)}, the tag says ${version}`,
    );
  }
}

function checkSourceVersion(repo, version) {
  const path = "src/core/version.ts";
  const text = readRepoFile(repo, path);
  const pattern = /^export const VERSION = "([^"]*)";/;
  const line = lineOf(text, pattern);
  if (line === null) throw new ReleaseError("RELEASE_SOURCE_VERSION_MISSING", `${path}: no line \`export const VERSION = "X.Y.Z";\``);
  const declared = pattern.exec(text.split("\n")[line - 1])[1];
  if (declared !== version) {
    throw new ReleaseError("RELEASE_SOURCE_VERSION_MISMATCH", `${path}:${line}: VERSION is "${declared}", the tag says ${version}`);
  }
}

const SECTION = /^## \[([^\]]+)\](.*)$/;

/** The text of CHANGELOG.md's `## [version] - YYYY-MM-DD` section, without its heading and link references. */
function releaseNotes(changelog, version, path = "CHANGELOG.md") {
  const lines = changelog.split("\n");
  const sections = [];
  lines.forEach((line, i) => {
    const m = SECTION.exec(line);
    if (m !== null) sections.push({ name: m[1], rest: m[2], line: i + 1 });
  });
  const at = sections.findIndex((s) => s.name === version);
  if (at < 0) {
    const found = sections.map((s) => `${s.name} (line ${s.line})`).join(", ") || "none";
    throw new ReleaseError(
      "RELEASE_NOTES_MISSING",
      `${path} has no section for ${version} (a heading "## [${version}] - YYYY-MM-DD"); its sections: ${found}`,
    );
  }
  const section = sections[at];
  if (!/^ - \d{4}-\d{2}-\d{2}\s*$/.test(section.rest)) {
    throw new ReleaseError(
      "RELEASE_NOTES_UNDATED",
      `${path}:${section.line}: the section for ${version} has no release date ("## [${version}] - YYYY-MM-DD")`,
    );
  }
  const end = sections[at + 1]?.line ?? lines.length + 1;
  const body = lines
    .slice(section.line, end - 1)
    .filter((line) => !/^\[[^\]]+\]:\s/.test(line))
    .join("\n")
    .trim();
  if (body === "") throw new ReleaseError("RELEASE_NOTES_EMPTY", `${path}:${section.line}: the section for ${version} is empty`);
  return body + "\n";
}

function git(repo, args) {
  const r = spawnSync("git", args, { cwd: repo, encoding: "utf8" });
  if (r.error || r.status !== 0) {
    throw new ReleaseError("RELEASE_GIT_FAILED", `git ${args.join(" ")} in ${repo}: ${(r.stderr || String(r.error)).trim()}`);
  }
  return r.stdout.trim();
}

/** The commit a tag points at, or null when there is no such tag. */
function tagCommit(repo, tag) {
  const r = spawnSync("git", ["rev-parse", "--verify", "--quiet", `refs/tags/${tag}^{commit}`], { cwd: repo, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : null;
}

function compareVersions(a, b) {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

function checkRepository(repo) {
  if (!existsSync(repo)) throw new ReleaseError("RELEASE_REPOSITORY_INVALID", `${repo} does not exist`);
  const r = spawnSync("git", ["rev-parse", "--show-toplevel"], { cwd: repo, encoding: "utf8" });
  if (r.status !== 0 || realpathSync(r.stdout.trim()) !== realpathSync(repo)) {
    throw new ReleaseError("RELEASE_REPOSITORY_INVALID", `${repo} is not the top of a git repository`);
  }
  const dirty = git(repo, ["status", "--porcelain", "--untracked-files=no"]);
  if (dirty !== "") {
    throw new ReleaseError(
      "RELEASE_WORKTREE_DIRTY",
      `${repo} has uncommitted changes (the checks would not be about HEAD, which is what gets tagged):\n${dirty}`,
    );
  }
}

function checkDist(repo) {
  if (!existsSync(join(repo, "node_modules", "@vercel", "ncc"))) {
    throw new ReleaseError("RELEASE_DEPENDENCIES_MISSING", `${repo} has no node_modules/@vercel/ncc: run npm ci there first`);
  }
  // ncc names a bundle's chunks after the modules' real paths: through a link they are other paths.
  if (lstatSync(join(repo, "node_modules")).isSymbolicLink()) {
    throw new ReleaseError(
      "RELEASE_DEPENDENCIES_LINKED",
      `${repo}/node_modules is a symbolic link, so the bundles built there differ from dist/: run npm ci there, or copy it (cp -al)`,
    );
  }
  console.log("release: checking dist/ is a fresh bundle of src/ (scripts/check-dist.mjs)");
  const r = spawnSync(process.execPath, ["scripts/check-dist.mjs"], { cwd: repo, stdio: "inherit" });
  if (r.status !== 0)
    throw new ReleaseError("RELEASE_DIST_STALE", `dist/ in ${repo} is not a fresh bundle of src/ (check-dist said why, above)`);
}

/**
 * A release is a reviewed commit: HEAD must be on origin's main (merged through its pull request),
 * never a branch or a tag pushed on a commit nobody reviewed. A dry run tags its own clone only.
 */
function checkOnDefaultBranch(repo) {
  const r = spawnSync("git", ["merge-base", "--is-ancestor", "HEAD", "refs/remotes/origin/main"], { cwd: repo, encoding: "utf8" });
  if (r.status === 0) return;
  if (r.status === 1)
    throw new ReleaseError(
      "RELEASE_NOT_ON_MAIN",
      `HEAD (${git(repo, ["rev-parse", "HEAD"])}) is not on origin/main: only a commit merged to main is released`,
    );
  throw new ReleaseError("RELEASE_GIT_FAILED", `git merge-base --is-ancestor HEAD origin/main in ${repo}: ${(r.stderr ?? "").trim()}`);
}

function release(options) {
  const repo = resolve(options.repo ?? ".");
  const version = versionOfTag(options.tag);
  if (!options.dryRun) checkOnDefaultBranch(repo);
  const major = `v${version.split(".")[0]}`;
  checkRepository(repo);
  checkPackageVersion(repo, version);
  checkSourceVersion(repo, version);
  const notes = releaseNotes(readRepoFile(repo, "CHANGELOG.md"), version);
  const head = git(repo, ["rev-parse", "HEAD^{commit}"]);
  const existing = tagCommit(repo, options.tag);
  if (existing !== null && existing !== head) {
    throw new ReleaseError(
      "RELEASE_TAG_ELSEWHERE",
      `tag ${options.tag} already points at ${existing}, not at HEAD (${head}): a release tag never moves`,
    );
  }
  checkDist(repo);

  const pushes = [];
  if (existing === null) {
    git(repo, ["tag", "-a", options.tag, "-m", `envelope-gate ${version}`, head]);
    console.log(`release: created the annotated tag ${options.tag} at ${head}`);
    pushes.push([`refs/tags/${options.tag}`]);
  } else console.log(`release: the tag ${options.tag} is already at HEAD (${head})`);

  const newer = git(repo, ["tag", "--list", `${major}.*`])
    .split("\n")
    .map((t) => /^v(\d+\.\d+\.\d+)$/.exec(t)?.[1])
    .filter((v) => v !== undefined && SEMVER.test(v) && compareVersions(v, version) > 0)
    .sort(compareVersions)
    .at(-1);
  if (newer !== undefined) {
    console.log(`release: ${major} stays where it is: v${newer} is a newer ${major} release`);
  } else {
    const before = tagCommit(repo, major);
    git(repo, ["tag", "-f", "-a", major, "-m", `envelope-gate ${version}`, head]);
    console.log(
      before === null
        ? `release: created the major tag ${major} at ${head} (${options.tag})`
        : before === head
          ? `release: the major tag ${major} was already at ${head}; re-made for ${options.tag}`
          : `release: moved the major tag ${major} from ${before} to ${head} (${options.tag})`,
    );
    pushes.push(["--force", `refs/tags/${major}`]);
  }

  if (options.notesFile !== null) writeFileSync(options.notesFile, notes);
  console.log(`release: notes for ${version}: ${notes.split("\n").length - 1} lines from CHANGELOG.md`);
  if (options.dryRun) {
    console.log(
      `release: dry run in ${repo}: nothing pushed (a release would push: ${pushes.map((p) => p.join(" ")).join("; ") || "nothing"})`,
    );
    return;
  }
  for (const refs of pushes) {
    const r = spawnSync("git", ["push", "origin", ...refs], { cwd: repo, encoding: "utf8", stdio: ["ignore", "inherit", "pipe"] });
    if (r.status !== 0) throw new ReleaseError("RELEASE_PUSH_FAILED", `git push origin ${refs.join(" ")}: ${(r.stderr ?? "").trim()}`);
    console.log(`release: pushed ${refs.join(" ")}`);
  }
}

try {
  release(parseArgs(process.argv.slice(2)));
} catch (err) {
  if (!(err instanceof ReleaseError)) throw err;
  console.error(`release: ${err.code}: ${err.message}`);
  process.exitCode = err.code === "RELEASE_USAGE" ? 2 : 1;
}
