/**
 * The release dry run (docs/releasing.md), as CI runs it: a clone of this repository's HEAD,
 * scripts/release.mjs --dry-run for the version package.json names, then
 * `uses: envelope-gate/envelope-gate@v1` resolved the way the runner resolves it (the tag's tree,
 * extracted into `_actions/envelope-gate/envelope-gate/v1`) and run on the bundled example agents
 * against the fake GitHub. And the refusals: a tag that is not the package's version, a version
 * with no CHANGELOG.md section.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO, makePull, policyFiles, runAction } from "../support/action-harness.js";
import { startFakeGitHub, type FakeGitHub } from "../support/fake-github.js";
import { REPO_ROOT } from "../support/fixtures.js";
import { TEST_TMP } from "../support/test-tmp.js";

const IDENTITY = {
  GIT_AUTHOR_NAME: "release test",
  GIT_AUTHOR_EMAIL: "release-test@example.com",
  GIT_COMMITTER_NAME: "release test",
  GIT_COMMITTER_EMAIL: "release-test@example.com",
};
const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: TEST_TMP, GIT_CONFIG_NOSYSTEM: "1", ...IDENTITY };

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
const NEXT_PATCH = VERSION.replace(/\d+$/, (patch) => String(Number(patch) + 1));
const MAJOR = `v${VERSION.split(".")[0]}`;

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function run(cwd: string, command: string, args: string[]): string {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", env: ENV });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} in ${cwd} failed: ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * A clone of HEAD in a `mktemp -d` folder, without tags: the dry run makes its own, and a real
 * v1.0.0 of the origin would sit on an older commit than HEAD. node_modules is the checkout's,
 * hard-linked (check-dist builds with ncc from it, and a symbolic link would change the bundles).
 */
function cloneHead(): string {
  const dir = mkdtempSync(join(TEST_TMP, "eg-release-"));
  made.push(dir);
  const clone = join(dir, "envelope-gate");
  run(dir, "git", ["clone", "-q", "--no-tags", REPO_ROOT, clone]);
  run(dir, "cp", ["-al", join(REPO_ROOT, "node_modules"), join(clone, "node_modules")]);
  return clone;
}

function commitAll(repo: string, message: string): void {
  run(repo, "git", ["add", "-A", "."]);
  if (run(repo, "git", ["status", "--porcelain", "--untracked-files=no"]) !== "") run(repo, "git", ["commit", "-q", "-m", message]);
}

function release(repo: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(repo, "scripts", "release.mjs"), ...args], { cwd: repo, encoding: "utf8", env: ENV });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const tags = (repo: string) => run(repo, "git", ["tag", "--list"]).split("\n").filter(Boolean);

describe(`the release dry run for v${VERSION}`, () => {
  let fake: FakeGitHub;
  let clone: string;
  let dryRun: ReturnType<typeof release>;
  let notesFile: string;
  let originTags: string;
  beforeAll(async () => {
    fake = await startFakeGitHub();
    clone = cloneHead();
    originTags = run(clone, "git", ["ls-remote", "--tags", "origin"]);
    // dist/ is committed by whoever merges (a rebuilt bundle is never part of a feature branch),
    // so HEAD's may lag behind its sources; `npm test` has just rebuilt the working tree's from
    // them (pretest). That one is what a release of these sources commits: the clone gets it.
    rmSync(join(clone, "dist"), { recursive: true, force: true });
    cpSync(join(REPO_ROOT, "dist"), join(clone, "dist"), { recursive: true });
    commitAll(clone, "dist/: the fresh bundle of HEAD's sources");
    notesFile = join(clone, "..", "notes.md");
    dryRun = release(clone, [`v${VERSION}`, "--dry-run", "--repo", clone, "--notes-file", notesFile]);
  }, 1_800_000);
  afterAll(() => fake?.close());

  it("creates the annotated version tag and the major tag at HEAD, and pushes nothing", () => {
    expect(dryRun.status, dryRun.stdout + dryRun.stderr).toBe(0);
    const head = run(clone, "git", ["rev-parse", "HEAD"]);
    expect(run(clone, "git", ["rev-parse", `v${VERSION}^{commit}`])).toBe(head);
    expect(run(clone, "git", ["rev-parse", `${MAJOR}^{commit}`])).toBe(head);
    expect(run(clone, "git", ["cat-file", "-t", `v${VERSION}`])).toBe("tag");
    expect(dryRun.stdout).toContain(`created the major tag ${MAJOR} at ${head}`);
    expect(dryRun.stdout).toContain("dist/ is fresh");
    expect(dryRun.stdout).toContain("nothing pushed");
    expect(run(clone, "git", ["ls-remote", "--tags", "origin"])).toBe(originTags);
  });

  it("writes CHANGELOG.md's section for the version as the release notes", () => {
    const notes = readFileSync(notesFile, "utf8");
    const changelog = readFileSync(join(clone, "CHANGELOG.md"), "utf8");
    expect(notes.trim()).not.toBe("");
    expect(notes).not.toMatch(/^## /m);
    expect(notes).not.toMatch(/^\[[^\]]+\]: /m);
    const heading = `## [${VERSION}] - `;
    expect(changelog.indexOf(heading)).toBeGreaterThan(0);
    const section = changelog.slice(changelog.indexOf(heading));
    expect(section.slice(section.indexOf("\n")).trim().startsWith(notes.trim())).toBe(true);
  });

  it(`resolves envelope-gate/envelope-gate@${MAJOR} as the runner does, and that Action gates the example agents`, async () => {
    // The runner downloads the tag's tree into _actions/<owner>/<repo>/<ref> and starts runs.main with node24.
    const work = mkdtempSync(join(TEST_TMP, "eg-release-runner-"));
    made.push(work);
    const actionDir = join(work, "_actions", "envelope-gate", "envelope-gate", MAJOR);
    mkdirSync(actionDir, { recursive: true });
    const archive = join(work, "action.tar");
    run(clone, "git", ["archive", "--format=tar", "-o", archive, MAJOR]);
    run(actionDir, "tar", ["-xf", archive]);
    const action = parse(readFileSync(join(actionDir, "action.yml"), "utf8")) as { runs: { using: string; main: string } };
    expect(action.runs.using).toBe("node24");
    const entry = join(actionDir, action.runs.main);
    expect(existsSync(entry)).toBe(true);
    expect(existsSync(join(actionDir, "dist", "licenses.txt"))).toBe(true);

    const envelope = readFileSync(join(actionDir, "examples", "envelope.json"), "utf8");
    const checkout = (workspace: string) => run(workspace, "tar", ["-xf", archive, "examples", "dist"]);
    for (const [number, agent, exitCode, conclusion] of [
      [61, "examples/agent-good.js", 0, "success"],
      [62, "examples/agent.js", 1, "failure"],
    ] as const) {
      const pull = makePull(fake, { number, base: policyFiles(envelope), head: { [agent]: readFileSync(join(actionDir, agent), "utf8") } });
      const gated = await runAction({
        apiUrl: fake.url,
        pull,
        bundle: entry,
        prepareWorkspace: checkout,
        inputs: { run: `node ${agent}` },
        timeoutMs: 600_000,
      });
      const trace = `${agent}: exit ${gated.exitCode}\n${gated.stdout.slice(-4000)}\n${gated.stderr.slice(-4000)}`;
      expect(gated.exitCode, trace).toBe(exitCode);
      const check = fake.repo(REPO).checkRuns.find((c) => c.head_sha === pull.headSha);
      expect(check?.conclusion, trace).toBe(conclusion);
      if (conclusion === "failure") {
        expect(check?.annotations.map((a) => a.title)).toContain("undeclared_env:AWS_SECRET_ACCESS_KEY");
      }
    }
  }, 1_200_000);
});

describe("the release refuses", () => {
  it("a tag that is not package.json's version, naming the file and line, and makes no tag", () => {
    const clone = cloneHead();
    const r = release(clone, [`v${NEXT_PATCH}`, "--dry-run", "--repo", clone]);
    expect(r.status).toBe(1);
    const line =
      readFileSync(join(clone, "package.json"), "utf8")
        .split("\n")
        .findIndex((l) => /"version":/.test(l)) + 1;
    expect(r.stderr).toContain(
      `RELEASE_PACKAGE_VERSION_MISMATCH: package.json:${line}: version is "${VERSION}", the tag says ${NEXT_PATCH}`,
    );
    expect(tags(clone)).toEqual([]);
  });

  it("a version whose VERSION in src/core/version.ts differs", () => {
    const clone = cloneHead();
    const pkg = join(clone, "package.json");
    writeFileSync(pkg, readFileSync(pkg, "utf8").replace(`"version": "${VERSION}"`, `"version": "${NEXT_PATCH}"`));
    commitAll(clone, `package.json: ${NEXT_PATCH}`);
    const r = release(clone, [`v${NEXT_PATCH}`, "--dry-run", "--repo", clone]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`RELEASE_SOURCE_VERSION_MISMATCH: src/core/version\\.ts:\\d+: VERSION is "${VERSION}"`));
    expect(tags(clone)).toEqual([]);
  });

  it("a version with no section in CHANGELOG.md", () => {
    const clone = cloneHead();
    const pkg = join(clone, "package.json");
    const source = join(clone, "src", "core", "version.ts");
    writeFileSync(pkg, readFileSync(pkg, "utf8").replace(`"version": "${VERSION}"`, `"version": "${NEXT_PATCH}"`));
    writeFileSync(source, readFileSync(source, "utf8").replace(`VERSION = "${VERSION}"`, `VERSION = "${NEXT_PATCH}"`));
    commitAll(clone, `version ${NEXT_PATCH}, no notes`);
    const r = release(clone, [`v${NEXT_PATCH}`, "--dry-run", "--repo", clone]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`RELEASE_NOTES_MISSING: CHANGELOG.md has no section for ${NEXT_PATCH}`);
    expect(tags(clone)).toEqual([]);
  });

  it("a release tag that already names another commit (a release tag never moves)", () => {
    const clone = cloneHead();
    const parent = run(clone, "git", ["rev-parse", "HEAD~1"]);
    run(clone, "git", ["tag", `v${VERSION}`, parent]);
    const r = release(clone, [`v${VERSION}`, "--dry-run", "--repo", clone]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`RELEASE_TAG_ELSEWHERE: tag v${VERSION} already points at ${parent}`);
    expect(tags(clone)).toEqual([`v${VERSION}`]);
  });

  it("a clone whose node_modules is a symbolic link (its bundles would differ from dist/), before anything is built", () => {
    const dir = mkdtempSync(join(TEST_TMP, "eg-release-"));
    made.push(dir);
    const clone = join(dir, "envelope-gate");
    run(dir, "git", ["clone", "-q", "--no-tags", REPO_ROOT, clone]);
    symlinkSync(join(REPO_ROOT, "node_modules"), join(clone, "node_modules"));
    const r = release(clone, [`v${VERSION}`, "--dry-run", "--repo", clone]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("RELEASE_DEPENDENCIES_LINKED");
    expect(r.stdout).not.toContain("check-dist");
    expect(tags(clone)).toEqual([]);
  });

  it("a dry run without a repository named for it (it would tag the checkout you work in)", () => {
    const r = release(REPO_ROOT, [`v${VERSION}`, "--dry-run"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("RELEASE_USAGE: --dry-run needs --repo CLONE");
  });
});

describe("a real release (not a dry run)", () => {
  it("a real release of a commit that is not on origin/main (a branch, an unreviewed tag), before anything is tagged or pushed", () => {
    // The origin is a bare copy, so even a release that wrongly went on could push only there.
    const dir = mkdtempSync(join(TEST_TMP, "eg-release-branch-"));
    made.push(dir);
    run(dir, "git", ["clone", "-q", "--bare", "--no-tags", REPO_ROOT, "origin.git"]);
    run(dir, "git", ["clone", "-q", join(dir, "origin.git"), "work"]);
    const work = join(dir, "work");
    run(work, "git", ["checkout", "-q", "-b", "unreviewed"]);
    writeFileSync(join(work, "UNREVIEWED"), "not merged\n");
    commitAll(work, "an unreviewed change");
    const r = release(work, [`v${VERSION}`]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("RELEASE_NOT_ON_MAIN");
    expect(tags(work)).toEqual([]);
    expect(run(work, "git", ["ls-remote", "--tags", "origin"])).toBe("");
  });
});
