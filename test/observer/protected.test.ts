/**
 * Protected paths inside the roots and persisted credentials (issue 17), with real git, real
 * bubblewrap and strace. Each hostile program is paired with the unjailed control that shows its
 * payload works, and with a clean twin that must pass.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_RUN_AS_NOBODY, JAIL_AVAILABLE, ROOT, check, ids, program, run, sandbox, type Sandbox } from "./harness.js";

type Mode = "as the test's user" | "as nobody";
const MODES: Mode[] = ["as the test's user", "as nobody"];
const HAS_GIT = spawnSync("git", ["--version"], { stdio: "ignore" }).status === 0;
const skipMode = (mode: Mode): boolean => !JAIL_AVAILABLE || !HAS_GIT || (mode === "as nobody" && !CAN_RUN_AS_NOBODY);

const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync("git", ["-c", "protocol.file.allow=always", ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, ...GIT_ENV, ...env },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} in ${cwd}: ${r.stderr}`);
  return r.stdout;
}

/** Runs a shell command unjailed, as a later step of the job would, and returns what it printed. */
function sh(cwd: string, command: string, env: NodeJS.ProcessEnv = {}): string {
  const r = spawnSync("/bin/sh", ["-c", command], { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV, ...env } });
  return `${r.stdout}${r.stderr}`;
}

/**
 * A checked-out workspace: a commit, `.github/workflows`, the Action vendored in
 * `vendor/eg-action`, a populated submodule `subpop` and a registered but unpopulated one
 * `subempty` (a gitlink in the index, an empty directory).
 */
function repository(s: Sandbox): void {
  const upstream = join(s.base, "upstream");
  mkdirSync(upstream, { recursive: true });
  git(upstream, ["init", "-q", "-b", "main"]);
  writeFileSync(join(upstream, "lib.txt"), "lib\n");
  git(upstream, ["add", "."]);
  git(upstream, ["commit", "-qm", "upstream"]);
  git(s.workspace, ["init", "-q", "-b", "main"]);
  writeFileSync(join(s.workspace, "a.txt"), "a\n");
  mkdirSync(join(s.workspace, ".github/workflows"), { recursive: true });
  writeFileSync(join(s.workspace, ".github/workflows/ci.yml"), "on: pull_request\n");
  mkdirSync(join(s.workspace, "vendor/eg-action"), { recursive: true });
  writeFileSync(join(s.workspace, "vendor/eg-action/action.yml"), "runs: { using: node24, main: dist/index.js }\n");
  git(s.workspace, ["add", "."]);
  git(s.workspace, ["commit", "-qm", "first"]);
  git(s.workspace, ["submodule", "add", "-q", upstream, "subpop"]);
  git(s.workspace, ["submodule", "add", "-q", upstream, "subempty"]);
  git(s.workspace, ["commit", "-qm", "submodules"]);
  git(s.workspace, ["submodule", "deinit", "-q", "-f", "subempty"]);
}

/** Every file the unprivileged wrapper's command must be able to write if the jail let it. */
function openToNobody(s: Sandbox): void {
  spawnSync("chmod", ["-R", "a+rwX", s.workspace, s.scratch, join(s.base, "upstream")]);
}

/**
 * The checkout as nobody's own, its indexes refreshed by nobody, as a fresh checkout by the run's
 * user leaves them: the index records each file's owner, and `git diff` refreshes a stale index
 * whatever GIT_OPTIONAL_LOCKS says (a write to .git).
 */
function checkoutOfNobody(s: Sandbox): void {
  spawnSync("chown", ["65534:65534", s.base, s.home]); // not a+rwx: the jail hides world-writable directories
  spawnSync("chown", ["-R", "65534:65534", s.workspace, s.scratch]);
  const r = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "git", "-C", s.workspace, "status", "--porcelain"], {
    env: { ...process.env, HOME: s.home },
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`git status as nobody: ${r.stderr}`);
}

/** actions/checkout's post step (src/git-auth-helper.ts removeToken/removeSsh), then a later step's git. */
const LATER_STEPS = [
  "git status",
  "git commit -qam 'a later step commits' --allow-empty",
  "git submodule foreach --recursive 'git status --short'",
  "git config --local --name-only --get-regexp 'http\\.https\\:\\/\\/github\\.com\\/\\.extraheader' && git config --local --unset-all 'http.https://github.com/.extraheader' || :",
  `git submodule foreach --recursive sh -c "git config --local --name-only --get-regexp 'http\\.https\\:\\/\\/github\\.com\\/\\.extraheader' && git config --local --unset-all 'http.https://github.com/.extraheader' || :"`,
  "git config --local --name-only --get-regexp '^includeIf\\.gitdir:' || :",
  `git submodule foreach --recursive "git config --local --show-origin --name-only --get-regexp remote.origin.url"`,
  `git submodule foreach --recursive sh -c "git config --local --name-only --get-regexp 'url\\.https\\:\\/\\/github\\.com\\/\\.insteadOf' && git config --local --unset-all 'url.https://github.com/.insteadOf' || :"`,
  `git submodule foreach --recursive sh -c "git config --local --name-only --get-regexp 'core\\.sshCommand' && git config --local --unset-all 'core.sshCommand' || :"`,
].join("; ");

/**
 * The hostile program: every way to leave a payload for a later unjailed git. Each attempt prints
 * `WROTE:<tag>` or `REFUSED:<tag>:<the error>`. Arguments: workspace, scratch, marker prefix.
 */
const PLANT = `set -u
WS="$1"; SCRATCH="$2"; MARK="$3"; ONLY="\${4:-}"
try() { tag="$1"; shift; [ -z "$ONLY" ] || [ "$ONLY" = "$tag" ] || return 0; if out=$( "$@" 2>&1 ); then echo "WROTE:$tag"; else echo "REFUSED:$tag:$out"; fi; }
try fsmonitor git -C "$WS" config core.fsmonitor "touch $MARK.fsmonitor; false"
try hook sh -c "printf '#!/bin/sh\\ntouch $MARK.hook\\n' > '$WS/.git/hooks/pre-commit' && chmod +x '$WS/.git/hooks/pre-commit'"
printf '[core]\\n\\tfsmonitor = touch %s.include; false\\n' "$MARK" > "$SCRATCH/evil.config"
try include sh -c "printf '[include]\\n\\tpath = $SCRATCH/evil.config\\n' >> '$WS/.git/config'"
cp -r "$WS/.git/modules/subpop" "$SCRATCH/planted"
git config --file "$SCRATCH/planted/config" core.worktree "$WS/subpop"
git config --file "$SCRATCH/planted/config" core.fsmonitor "touch $MARK.planted; false"
try gitfile sh -c "printf 'gitdir: $SCRATCH/planted\\n' > '$WS/subpop/.git'"
try unpopulated-dir mkdir "$WS/subempty/.git"
try unpopulated-file sh -c "printf 'gitdir: $SCRATCH/planted\\n' > '$WS/subempty/.git'"
try workflow sh -c "mkdir -p '$WS/.github/workflows' && echo 'on: push' > '$WS/.github/workflows/x.yml'"
try action sh -c "echo 'runs: { using: composite, steps: [] }' > '$WS/vendor/eg-action/action.yml'"
try move-gitdir mv "$WS/.git" "$WS/.git-moved"
echo planted
`;

const ATTEMPTS: Record<string, string> = {
  fsmonitor: ".git/config.lock",
  hook: ".git/hooks/pre-commit",
  include: ".git/config",
  gitfile: "subpop/.git",
  "unpopulated-dir": "subempty/.git",
  "unpopulated-file": "subempty/.git",
  workflow: ".github/workflows/x.yml",
  action: "vendor/eg-action/action.yml",
  "move-gitdir": ".git",
};

function markers(prefix: string): string[] {
  return ["fsmonitor", "hook", "include", "planted"].filter((m) => existsSync(`${prefix}.${m}`));
}

for (const mode of MODES)
  describe.skipIf(skipMode(mode))(`protected paths inside the roots (${mode})`, () => {
    const asNobody = mode === "as nobody";

    it("control: unjailed, the planted payloads run in checkout's post step and a later git", () => {
      // Each on its own: one payload's fsmonitor would stand in for the others, and moving .git away would hide them all.
      for (const [tag, payload] of [
        ["fsmonitor", "fsmonitor"],
        ["hook", "hook"],
        ["include", "include"],
        ["gitfile", "planted"],
        ["unpopulated-file", "planted"],
      ]) {
        const t = sandbox();
        repository(t);
        const mark = join(t.outside, tag as string);
        expect(sh(t.workspace, `sh ${program(t, "plant.sh", PLANT)} ${t.workspace} ${t.scratch} ${mark} ${tag}`)).toContain(`WROTE:${tag}`);
        sh(t.workspace, LATER_STEPS);
        expect(markers(mark), tag).toEqual([payload]);
      }
    });

    it("every planting is refused by the kernel (EROFS), judged write_protected, and nothing runs in the later steps", async () => {
      const s = sandbox();
      repository(s);
      if (asNobody) openToNobody(s);
      const plant = program(s, "plant.sh", PLANT);
      const marker = join(s.outside, "jailed");
      const r = await run(s, ["/bin/sh", plant, s.workspace, s.scratch, marker], {
        asNobody,
        env: { GITHUB_ACTION_PATH: join(s.workspace, "vendor/eg-action") },
      });
      expect(r.stderr).not.toContain("envelope-gate:");
      expect(r.stdout).toContain("planted");
      for (const tag of Object.keys(ATTEMPTS)) {
        const line = r.stdout.split("\n").find((l) => l.startsWith(`REFUSED:${tag}:`) || l === `WROTE:${tag}`);
        expect(line, tag).toBeDefined();
        expect(line, tag).toMatch(tag === "move-gitdir" ? /Device or resource busy|Read-only file system/ : /Read-only file system/);
      }
      const report = await check(s);
      expect(report.verdict).toBe("envelope_fail");
      for (const path of new Set(Object.values(ATTEMPTS))) expect(ids(report)).toContain(`write_protected:${join(s.workspace, path)}`);
      expect(ids(report).filter((id) => id.startsWith("write_outside_root:"))).toEqual([]);
      // The scratch's own planted gitdir is the run's business: not judged.
      expect(ids(report).some((id) => id.includes(join(s.scratch, "planted")))).toBe(false);
      const meta = r.lines[0] as { protected: { paths: string[] }; jail: { protected: { empty_submodule_dirs: string[] } } };
      expect(meta.protected.paths).toEqual(
        expect.arrayContaining([join(s.workspace, ".git"), join(s.workspace, ".github"), join(s.workspace, "vendor/eg-action")]),
      );
      expect(meta.jail.protected.empty_submodule_dirs).toEqual([join(s.workspace, "subempty")]);

      sh(s.workspace, LATER_STEPS);
      expect(markers(marker)).toEqual([]);
      expect(readFileSync(join(s.workspace, "subpop/.git"), "utf8")).toMatch(/^gitdir: \.\.\/\.git\/modules\/subpop/);
      expect(existsSync(join(s.workspace, "subempty/.git"))).toBe(false);
    });

    it("a second checkout inside the workspace (actions/checkout with path:) is protected, and its persisted token hidden", async () => {
      const s = sandbox();
      repository(s);
      const other = join(s.workspace, "other");
      mkdirSync(other);
      git(other, ["init", "-q", "-b", "main"]);
      writeFileSync(join(other, "o.txt"), "o\n");
      git(other, ["add", "."]);
      git(other, ["commit", "-qm", "other"]);
      const basic = Buffer.from(`x-access-token:ghs_${randomUUID().replace(/-/g, "")}`).toString("base64");
      git(other, ["config", "--local", "http.https://github.com/.extraheader", `AUTHORIZATION: basic ${basic}`]);
      if (asNobody) openToNobody(s);
      const marker = join(s.outside, "other");
      const r = await run(
        s,
        ["/bin/sh", "-c", `cat ${other}/.git/config; git -C ${other} config core.fsmonitor "touch ${marker}; false" 2>&1; echo done`],
        { asNobody },
      );
      expect(r.stdout).toContain("done");
      expect(r.stdout).toContain("Read-only file system");
      expect(r.stdout).not.toContain(basic);
      expect(ids(await check(s))).toEqual([`write_protected:${join(other, ".git/config.lock")}`]);
      sh(other, LATER_STEPS);
      expect(existsSync(marker)).toBe(false);
    });

    it("clean twin: a suite that writes in the workspace and runs git status, diff and log in the jail passes", async () => {
      const s = sandbox();
      repository(s);
      if (asNobody) openToNobody(s);
      if (asNobody) checkoutOfNobody(s);
      const suite = program(
        s,
        "suite.sh",
        `set -e
# git status would refresh .git/index (and each submodule's): without optional locks it does not write
export GIT_OPTIONAL_LOCKS=0
cd "$1"
echo changed >> a.txt
echo new > new.txt
mkdir -p build && echo out > build/out.txt
git status --porcelain
git diff --stat
git log --oneline -1
git submodule status
# a throwaway repository in /tmp (the run's scratch) is the run's own
cd /tmp && git init -q t && cd t && echo x > x && git add x && git -c user.email=t@t -c user.name=t commit -qm t && echo scratch-repo-ok
`,
      );
      const r = await run(s, ["/bin/sh", suite, s.workspace], { asNobody });
      expect(r.stderr).not.toContain("envelope-gate:");
      expect(r.stdout).toContain("?? new.txt");
      expect(r.stdout).toContain(" M a.txt");
      expect(r.stdout).toContain("scratch-repo-ok");
      const report = await check(s);
      expect(ids(report)).toEqual([]);
      expect(report.verdict).toBe("pass");
    });

    it("plain git status passes (every run sets GIT_OPTIONAL_LOCKS=0); with optional locks back on, its index refresh is judged write_protected", async () => {
      const s = sandbox();
      repository(s);
      if (asNobody) openToNobody(s);
      // A changed time stamp makes git status want to write the index.
      spawnSync("touch", ["-d", "2001-01-01", join(s.workspace, "a.txt")]);
      const plain = await run(s, ["git", "-C", s.workspace, "status", "--porcelain"], { asNobody });
      expect(plain.stderr).not.toContain("envelope-gate:");
      expect(ids(await check(s))).toEqual([]);
      const r = await run(s, ["env", "GIT_OPTIONAL_LOCKS=1", "git", "-C", s.workspace, "status", "--porcelain"], { asNobody });
      expect(r.stderr).not.toContain("envelope-gate:");
      expect(ids(await check(s)).sort()).toEqual([
        `write_protected:${join(s.workspace, ".git/index.lock")}`,
        `write_protected:${join(s.workspace, ".git/modules/subpop/index.lock")}`,
      ]);
    });

    it("writable_protected makes a named protected directory writable; the rest of .github stays read-only", async () => {
      const s = sandbox({ writable_protected: ["${WORKSPACE}/.github/generated"] });
      repository(s);
      mkdirSync(join(s.workspace, ".github/generated"));
      if (asNobody) openToNobody(s);
      const r = await run(
        s,
        [
          "/bin/sh",
          "-c",
          `echo '{}' > ${s.workspace}/.github/generated/out.json && echo ok; echo x > ${s.workspace}/.github/workflows/y.yml`,
        ],
        { asNobody },
      );
      expect(r.stdout).toContain("ok");
      expect(r.stderr).toContain("Read-only file system");
      expect(readFileSync(join(s.workspace, ".github/generated/out.json"), "utf8")).toBe("{}\n");
      expect(ids(await check(s))).toEqual([`write_protected:${join(s.workspace, ".github/workflows/y.yml")}`]);
    });

    it("the product's own install directory inside a root is read-only", async () => {
      const s = sandbox();
      repository(s);
      const install = join(s.workspace, "tools/envelope-gate");
      cpSync(join(ROOT, "dist"), join(install, "dist"), { recursive: true });
      writeFileSync(join(install, "package.json"), "{}\n");
      if (asNobody) openToNobody(s);
      const cli = join(install, "dist/cli/index.js");
      const target = join(install, "dist/cli/index.js");
      const r = await run(s, ["/bin/sh", "-c", `echo 'process.exit(0)' > ${target}`], { asNobody, cli });
      expect(r.stderr).toContain("Read-only file system");
      expect(ids(await check(s))).toEqual([`write_protected:${target}`]);
    });
  });

describe.skipIf(skipMode("as the test's user"))("protected paths: refusals", () => {
  it("git unavailable while the workspace is a repository: PROTECTED_PATHS_UNAVAILABLE, the command never runs", async () => {
    const s = sandbox();
    repository(s);
    const r = await run(s, ["/bin/sh", "-c", `touch ${s.outside}/ran`], { env: { ENVELOPE_GATE_GIT: "/nonexistent/git" } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("PROTECTED_PATHS_UNAVAILABLE");
    expect(existsSync(join(s.outside, "ran"))).toBe(false);
    expect((await check(s)).error?.code).toBe("OBSERVER_LOG_INCOMPLETE");
  });

  it("an index git cannot read: PROTECTED_PATHS_UNAVAILABLE (its submodules cannot be found)", async () => {
    const s = sandbox();
    repository(s);
    writeFileSync(join(s.workspace, ".git/index"), "not an index");
    const r = await run(s, ["/bin/sh", "-c", `touch ${s.outside}/ran`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("PROTECTED_PATHS_UNAVAILABLE");
    expect(existsSync(join(s.outside, "ran"))).toBe(false);
  });

  it("a git config the jail would see that git cannot parse: GIT_CREDENTIALS_UNCHECKED", async () => {
    const s = sandbox();
    repository(s);
    // HOME inside the workspace: the jail shows it as it is.
    const home = join(s.workspace, "home");
    mkdirSync(home);
    writeFileSync(join(home, ".gitconfig"), '[http "https://github.com/"\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n');
    const r = await run(s, ["/bin/sh", "-c", `touch ${s.outside}/ran`], { env: { HOME: home } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("GIT_CREDENTIALS_UNCHECKED");
    expect(existsSync(join(s.outside, "ran"))).toBe(false);
  });

  it("writable_protected naming a directory that holds a .git (by absolute path): ENVELOPE_INVALID before the run", async () => {
    const probe = sandbox();
    const s = sandbox({ writable_protected: [probe.workspace] });
    // The envelope names the other sandbox's workspace: use that one.
    repository(probe);
    const r = await run({ ...s, workspace: probe.workspace, scratch: probe.scratch }, ["/bin/sh", "-c", `touch ${probe.outside}/ran`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("ENVELOPE_INVALID");
    expect(r.stderr).toContain("contains the git directory");
    expect(existsSync(join(probe.outside, "ran"))).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Persisted credentials

type Layout = "checkout v4: in .git/config" | "checkout v6: a separate file under RUNNER_TEMP" | "persist-credentials: false";
const LAYOUTS: Layout[] = ["checkout v4: in .git/config", "checkout v6: a separate file under RUNNER_TEMP", "persist-credentials: false"];

interface Credentials {
  token: string;
  basic: string;
  runnerTemp: string;
  /** Files on the host that hold the token (checked to hold it, so the hostile dump would find it). */
  files: string[];
}

/** actions/checkout's layouts (src/git-auth-helper.ts configureToken, v4 and v6). */
function persist(s: Sandbox, layout: Layout): Credentials {
  const token = `ghs_${randomUUID().replace(/-/g, "")}`;
  const basic = Buffer.from(`x-access-token:${token}`).toString("base64");
  const runnerTemp = join(s.outside, "runner_temp");
  mkdirSync(runnerTemp, { recursive: true });
  const files: string[] = [];
  const header = `AUTHORIZATION: basic ${basic}`;
  const sub = join(s.workspace, ".git/modules/subpop");
  if (layout === "checkout v4: in .git/config") {
    git(s.workspace, ["config", "--local", "http.https://github.com/.extraheader", header]);
    git(join(s.workspace, "subpop"), ["config", "--local", "http.https://github.com/.extraheader", header]);
    git(s.workspace, ["remote", "add", "origin", `https://x-access-token:${token}@github.com/o/r`]);
    git(s.workspace, ["config", "--local", `url.https://x-access-token:${token}@github.com/.insteadOf`, "https://github.com/"]);
    files.push(join(s.workspace, ".git/config"), join(sub, "config"));
  } else if (layout === "checkout v6: a separate file under RUNNER_TEMP") {
    const file = join(runnerTemp, `git-credentials-${randomUUID()}.config`);
    writeFileSync(file, `[http "https://github.com/"]\n\textraheader = ${header}\n`);
    const gitDir = join(s.workspace, ".git");
    git(s.workspace, ["config", "--local", `includeIf.gitdir:${gitDir}.path`, file]);
    git(s.workspace, ["config", "--local", `includeIf.gitdir:${gitDir}/worktrees/*.path`, file]);
    git(s.workspace, ["config", "--local", "includeIf.gitdir:/github/workspace/.git.path", `/github/runner_temp/${file.split("/").pop()}`]);
    git(join(s.workspace, "subpop"), ["config", "--local", `includeIf.gitdir:${sub}.path`, file]);
    git(s.workspace, ["remote", "add", "origin", "https://github.com/o/r"]);
    files.push(file);
  } else {
    git(s.workspace, ["remote", "add", "origin", "https://github.com/o/r"]);
  }
  for (const f of files)
    expect(readFileSync(f, "utf8")).toContain(layout.startsWith("checkout v4") && f.endsWith(".git/config") ? token : basic);
  return { token, basic, runnerTemp, files };
}

/** The hostile dump: everything the token could be read from. Arguments: workspace, RUNNER_TEMP. */
const DUMP = `WS="$1"; RT="$2"
cat "$WS/.git/config" "$WS/.git/modules/subpop/config" 2>&1
find "$WS/.git" -name config -type f -exec cat {} + 2>&1
git -C "$WS" config --list --show-origin --includes 2>&1
git -C "$WS/subpop" config --list --show-origin --includes 2>&1
git -C "$WS" remote get-url origin 2>&1
ls -la "$RT" 2>&1; cat "$RT"/* 2>&1
cat "$HOME/.git-credentials" "$HOME/.gitconfig" 2>&1
env 2>&1
for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do tr '\\0' '\\n' < "$f" 2>&1; done
echo dump-done
`;

for (const mode of MODES)
  for (const layout of LAYOUTS)
    describe.skipIf(skipMode(mode))(`persisted credentials (${layout}, ${mode})`, () => {
      it("the token is unreadable in the jail, git still works there, and the host's files are untouched", async () => {
        const s = sandbox();
        repository(s);
        const creds = persist(s, layout);
        if (mode === "as nobody") openToNobody(s);
        const dump = program(s, "dump.sh", DUMP);
        // Control: unjailed, the same dump finds the token wherever checkout persisted it.
        const control = sh(s.workspace, `sh ${dump} ${s.workspace} ${creds.runnerTemp}`, { RUNNER_TEMP: creds.runnerTemp });
        if (layout !== "persist-credentials: false") expect(control).toContain(creds.basic);

        const r = await run(s, ["/bin/sh", dump, s.workspace, creds.runnerTemp], {
          asNobody: mode === "as nobody",
          env: { RUNNER_TEMP: creds.runnerTemp },
        });
        expect(r.stderr).not.toContain("envelope-gate:");
        expect(r.stdout).toContain("dump-done");
        expect(r.stdout).not.toContain(creds.token);
        expect(r.stdout).not.toContain(creds.basic);
        expect(r.stdout).toContain("https://github.com/o/r");

        const status = await run(s, ["git", "-C", s.workspace, "--no-optional-locks", "status", "--porcelain"], {
          asNobody: mode === "as nobody",
          env: { RUNNER_TEMP: creds.runnerTemp },
          logName: "status.jsonl",
        });
        expect(status.stderr).toBe("");
        expect(status.lines[status.lines.length - 1]).toMatchObject({ kind: "end", exit_code: 0 });
        expect((await check(s, "status.jsonl")).verdict).toBe("pass");

        const meta = r.lines[0] as { jail: { protected: { credentials_hidden: string[]; credentials_masked: string[] } } };
        const hidden = [...meta.jail.protected.credentials_hidden, ...meta.jail.protected.credentials_masked];
        if (layout === "persist-credentials: false") expect(hidden).toEqual([]);
        else expect(hidden.length).toBeGreaterThan(0);
        for (const f of creds.files) expect(readFileSync(f, "utf8")).toMatch(new RegExp(`${creds.token}|${creds.basic}`));
      });
    });
