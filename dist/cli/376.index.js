export const id = 376;
export const ids = [376];
export const modules = {

/***/ 1376:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  WITHHELD_SHOWN: () => (/* binding */ WITHHELD_SHOWN),
  jailUpLine: () => (/* binding */ jailUpLine),
  parseRunArgs: () => (/* binding */ parseRunArgs),
  recorderLine: () => (/* binding */ recorderLine),
  runAndReport: () => (/* binding */ runAndReport),
  runCommand: () => (/* binding */ runCommand),
  withheldLine: () => (/* binding */ withheldLine)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: external "node:util"
var external_node_util_ = __webpack_require__(7975);
// EXTERNAL MODULE: ./src/core/errors.ts
var errors = __webpack_require__(4296);
// EXTERNAL MODULE: ./src/core/markdown.ts
var markdown = __webpack_require__(6706);
// EXTERNAL MODULE: ./src/check/options.ts
var options = __webpack_require__(9066);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
// EXTERNAL MODULE: external "node:url"
var external_node_url_ = __webpack_require__(3136);
// EXTERNAL MODULE: ./src/core/envelope.ts + 2 modules
var core_envelope = __webpack_require__(1652);
// EXTERNAL MODULE: ./src/check/files.ts
var files = __webpack_require__(8279);
;// CONCATENATED MODULE: ./src/observer/canary.ts
/**
 * The self-check before the command: a canary program run as a stage of its own, which every
 * live observer must report (the run is refused otherwise).
 */


const CANARY_ENV_KEY = "ENVELOPE_GATE_CANARY";
const CANARY_HOST = "canary.envelope-gate.invalid";
const CANARY_FILE = ".envelope-gate-canary";
const JAIL_CANARY_DIR = "/dev/shm";
// The canary program: a write, an env read and a DNS lookup through the hooks, and a write, an
// exec and a connect to a resolver address through the process observer.
const CANARY_PROGRAM = `
const fs = require("node:fs");
const dns = require("node:dns");
const dgram = require("node:dgram");
fs.writeFileSync(process.argv[1], "envelope-gate canary\\n");
void process.env.${CANARY_ENV_KEY};
dns.lookup(${JSON.stringify(CANARY_HOST)}, () => {});
const socket = dgram.createSocket("udp4");
const done = () => process.exit(0);
socket.on("error", done);
socket.connect(53, "127.0.0.1", done);
`;
/** The canary's file in the jail: in the run's own /dev/shm, always private and writable (the scratch is not, unless the envelope lists ${SCRATCH}). */
const CANARY_JAIL_PATH = (0,external_node_path_.join)(JAIL_CANARY_DIR, CANARY_FILE);
/** The canary's command line. */
function canaryArgv(node) {
    return [node, "-e", CANARY_PROGRAM, CANARY_JAIL_PATH];
}
/** What the observers should have reported of the canary and did not (`canaryPath`: its file as recorded). */
function canaryMissing(seen, recording, canaryPath) {
    const missing = [];
    const has = (pred) => seen.some(pred);
    if (!recording && !has((e) => e.kind === "write" && e.source === "node" && e.path === canaryPath))
        missing.push("node: write");
    if (!has((e) => e.kind === "env" && e.source === "node" && e.key === CANARY_ENV_KEY))
        missing.push("node: env read");
    if (!has((e) => e.kind === "host" && e.source === "node" && e.host === CANARY_HOST))
        missing.push("node: DNS lookup");
    if (recording) {
        if (!has((e) => e.kind === "write" && e.source === "process" && e.path === canaryPath))
            missing.push("process: write");
        if (!has((e) => e.kind === "exec" && e.source === "process"))
            missing.push("process: exec");
        if (!has((e) => e.kind === "host" && e.source === "process" && e.port === 53))
            missing.push("process: resolver connect");
    }
    return missing;
}
/** The refusal of a run whose canary failed or went unreported. */
function canaryFailure(result, missing, recorder) {
    return new errors/* Refusal */.P_("OBSERVER_UNAVAILABLE", `the observer self-check failed (canary exit ${result.code ?? result.signal}; not seen: ${missing.join(", ") || "none"})`, {
        hint: recorder === "ebpf"
            ? "An observer is not reporting. The eBPF recorder attached but did not report the canary (a kernel whose tracepoints differ), or the Node hooks did not load. --recorder strace records with strace instead."
            : recorder !== null
                ? "An observer is not reporting. strace may be unable to attach (ptrace restricted: kernel.yama.ptrace_scope, seccomp, container policy), or the Node hooks did not load."
                : "The Node hooks did not load or did not report.",
    });
}

;// CONCATENATED MODULE: ./src/observer/scratch.ts
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




const HINT = "Remove it (it is not this user's), set TMPDIR to a directory of your own, or pass --scratch DIR.";
function unsafe(dir, why, st) {
    const owner = st === null ? "" : ` (owner uid ${st.uid}, mode ${(st.mode & 0o7777).toString(8).padStart(4, "0")})`;
    return new errors/* Refusal */.P_("SCRATCH_UNSAFE", `the scratch's parent ${dir}${owner} ${why}: no run's scratch is made under it`, {
        hint: HINT,
    });
}
/** Every directory above the parent: root's or the user's, and sticky where others may write it. */
function checkAncestors(dir, uid) {
    for (let d = (0,external_node_path_.dirname)(dir);; d = (0,external_node_path_.dirname)(d)) {
        const st = (0,external_node_fs_.lstatSync)(d);
        if (!st.isDirectory())
            throw unsafe(d, "is not a directory", st);
        if (st.uid !== 0 && st.uid !== uid)
            throw unsafe(d, "belongs to another user, who could replace what is in it", st);
        if ((st.mode & 0o022) !== 0 && (st.mode & 0o1000) === 0)
            throw unsafe(d, "may be written by others and is not sticky", st);
        if (d === "/")
            return;
    }
}
/** Makes the run's scratch under the user's own parent, or refuses with SCRATCH_UNSAFE. */
function defaultScratch(runId) {
    const uid = process.geteuid?.() ?? 0;
    const base = (0,external_node_fs_.realpathSync)((0,external_node_os_.tmpdir)());
    const parent = (0,external_node_path_.join)(base, `envelope-gate-${uid}`);
    checkAncestors(parent, uid);
    try {
        (0,external_node_fs_.mkdirSync)(parent, { mode: 0o700 });
    }
    catch (err) {
        if ((0,errors/* errnoOf */.UQ)(err) !== "EEXIST")
            throw err;
    }
    const st = (0,external_node_fs_.lstatSync)(parent);
    if (st.isSymbolicLink())
        throw unsafe(parent, "is a symbolic link", st);
    if (!st.isDirectory())
        throw unsafe(parent, "is not a directory", st);
    if (st.uid !== uid)
        throw unsafe(parent, "belongs to another user", st);
    if ((st.mode & 0o077) !== 0)
        throw unsafe(parent, "is open to other users (it must be 0700)", st);
    const scratch = (0,external_node_path_.join)(parent, runId);
    // Fresh: never a directory that was there before the run.
    (0,external_node_fs_.mkdirSync)(scratch, { mode: 0o700 });
    return scratch;
}

// EXTERNAL MODULE: ./src/core/paths.ts
var core_paths = __webpack_require__(6107);
;// CONCATENATED MODULE: ./src/observer/socket-places.ts
/**
 * The host directories where another process can make a unix socket after the jail starts:
 * hidden in the jail (an empty read-only tmpfs each, the roots and what the run needs bound back
 * at their own paths), so a socket made there later is out of reach, not only judged.
 *
 * The jail's snapshot of the host's listening sockets (jail.ts, hostUnixSockets) covers the ones
 * that exist at the start; these are the places a later one would appear:
 *
 * - `/run` (and `/var/run`, `/var/lock` through it), `/var/tmp`: the system's and every user's
 *   runtime and temporary files (Docker's socket, systemd's, a user's `XDG_RUNTIME_DIR`);
 * - every world-writable or sticky directory down to SCAN_DEPTH levels below `/` (`/var/tmp`,
 *   `/run/lock`, `/var/lib/php/sessions`, a `chmod 777` directory anywhere in that depth);
 * - other users' homes: a passwd entry's home, or a directory in `/home`, owned by a user who is
 *   neither root nor the wrapper's user.
 *
 * `/tmp`, `HOME` and `/dev/shm` are the run's own already (private directories of the jail), and
 * `/dev` is bubblewrap's. A place inside an allowed root is the command's own business. What a
 * place holds that the run needs is shown again by the jail: the roots, the scratch, the install
 * directories of the programs it starts, the stage directory, and the targets of `/etc`'s links
 * into a hidden place (`/etc/resolv.conf` is `/run/systemd/resolve/stub-resolv.conf` on Ubuntu).
 *
 * A place below a directory the jail's user cannot search (another user's 0700 directory, seen by a
 * root wrapper's scan) is hidden by that directory instead: bubblewrap sets the jail up as that
 * user in a user namespace where no other user is mapped, so it could not reach the place to
 * cover it, and the command could reach it only if the owner opened the directory later.
 *
 * Not covered (docs/observer.md): a directory writable only by root or the wrapper's own user
 * (root can make a socket anywhere), a world-writable directory deeper than SCAN_DEPTH, a
 * directory writable through its group.
 */



/** How deep below `/` the world-writable and sticky directories are looked for (`/a/b/c/d`). */
const SCAN_DEPTH = 4;
/** Named whatever their mode: where the system and its users keep runtime and temporary files. */
const FIXED = ["/run", "/var/run", "/var/lock", "/var/tmp"];
/** Never scanned or hidden: the jail's own (`/dev`, `/proc`), the kernel's (`/sys`), the run's private `/tmp`. */
const SKIP = ["/proc", "/sys", "/dev", "/tmp"];
function realDirectory(path) {
    try {
        const real = (0,external_node_fs_.realpathSync)(path);
        return (0,external_node_fs_.lstatSync)(real).isDirectory() ? real : null;
    }
    catch {
        return null;
    }
}
function worldWritableOrSticky(mode) {
    return (mode & 0o002) !== 0 || (mode & 0o1000) !== 0;
}
/** World-writable or sticky directories down to SCAN_DEPTH (the first one on each path; no symlink followed). */
function scan(out) {
    const walk = (dir, depth) => {
        let entries;
        try {
            entries = (0,external_node_fs_.readdirSync)(dir, { withFileTypes: true });
        }
        catch {
            return;
        }
        for (const e of entries) {
            if (!e.isDirectory())
                continue;
            const path = (0,external_node_path_.join)(dir, e.name);
            if (SKIP.includes(path))
                continue;
            let mode;
            try {
                mode = (0,external_node_fs_.lstatSync)(path).mode;
            }
            catch {
                continue;
            }
            if (worldWritableOrSticky(mode))
                out.add(path);
            else if (depth < SCAN_DEPTH)
                walk(path, depth + 1);
        }
    };
    walk("/", 1);
}
/** Homes of users other than root and `uid`: passwd homes and `/home/*` directories they own. */
function otherHomes(uid, out) {
    const candidates = new Set();
    try {
        for (const line of (0,external_node_fs_.readFileSync)("/etc/passwd", "utf8").split("\n")) {
            const home = line.split(":")[5];
            if (home !== undefined && home.startsWith("/") && home !== "/")
                candidates.add(home);
        }
    }
    catch {
        // no passwd file: only /home
    }
    try {
        for (const e of (0,external_node_fs_.readdirSync)("/home", { withFileTypes: true }))
            if (e.isDirectory())
                candidates.add((0,external_node_path_.join)("/home", e.name));
    }
    catch {
        // no /home
    }
    for (const home of candidates) {
        try {
            const st = (0,external_node_fs_.lstatSync)(home);
            if (st.isDirectory() && st.uid !== 0 && st.uid !== uid)
                out.add(home);
        }
        catch {
            continue;
        }
    }
}
/** The wrapper's own ids. */
function wrapperIds() {
    return { uid: process.geteuid?.() ?? 0 };
}
/**
 * Whether the jail's user can pass through a directory. For a wrapper running as root the jail
 * maps only root, so its capabilities reach a file only when both its owner and its group are
 * root; any other directory it passes by its mode bits alone. An unprivileged wrapper scans with
 * the jail's own rights: what it cannot pass it never found anything in.
 */
function searchable(path, ids) {
    if (ids.uid !== 0)
        return true;
    let st;
    try {
        st = (0,external_node_fs_.lstatSync)(path);
    }
    catch {
        return true;
    }
    if (st.uid === 0 && st.gid === 0)
        return true;
    if (st.uid === 0)
        return (st.mode & 0o100) !== 0;
    if (st.gid === 0)
        return (st.mode & 0o010) !== 0;
    return (st.mode & 0o001) !== 0;
}
/** The outermost directory above `path` the jail's user cannot search, or `path` when there is none. */
function coverFor(path, ids) {
    const parts = path.split("/").filter((p) => p !== "");
    let at = "";
    for (const part of parts.slice(0, -1)) {
        at += `/${part}`;
        if (!searchable(at, ids))
            return at;
    }
    return path;
}
/**
 * The places to hide for a run whose wrapper runs as `uid`, with these roots and private
 * directories (already the run's own). Read once per run: every stage's jail hides the same.
 */
function socketPlaces(ids, roots, privateTargets) {
    const seen = new Set();
    for (const p of FIXED) {
        const real = realDirectory(p);
        if (real !== null)
            seen.add(real);
    }
    scan(seen);
    otherHomes(ids.uid, seen);
    const found = new Set([...seen].map((p) => coverFor(p, ids)));
    const kept = [...found].filter((p) => p !== "/" && !SKIP.some((s) => (0,core_paths/* isInsideAnyRoot */.Jk)(p, [s])) && !(0,core_paths/* isInsideAnyRoot */.Jk)(p, [...roots, ...privateTargets]));
    const hidden = kept.filter((p) => !kept.some((o) => o !== p && (0,core_paths/* isInsideAnyRoot */.Jk)(p, [o]))).sort();
    const linkTargets = [];
    let etc = [];
    try {
        etc = (0,external_node_fs_.readdirSync)("/etc", { withFileTypes: true });
    }
    catch {
        // no /etc
    }
    for (const e of etc) {
        if (!e.isSymbolicLink())
            continue;
        const link = (0,external_node_path_.join)("/etc", e.name);
        let target;
        try {
            (0,external_node_fs_.readlinkSync)(link);
            target = (0,external_node_fs_.realpathSync)(link);
        }
        catch {
            continue;
        }
        if ((0,core_paths/* isInsideAnyRoot */.Jk)(target, hidden) && !(0,core_paths/* isInsideAnyRoot */.Jk)(target, roots))
            linkTargets.push(target);
    }
    return { hidden, linkTargets: [...new Set(linkTargets)].sort() };
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
;// CONCATENATED MODULE: ./src/observer/devices.ts
/**
 * The host's device nodes the jail shows, read-only: no chmod, chown, utimes, xattr, rename or
 * link on them, while reading and writing them still works.
 *
 * Bubblewrap's `--dev` binds the host's `/dev/null`, `zero`, `full`, `random`, `urandom` and
 * `tty` into the jail's `/dev` (and the caller's terminal as `/dev/console` when its stdout is
 * one). Those binds are writable mounts of the host's inodes: the jail's root is the host's uid 0
 * (bubblewrap maps root to itself), owns them, and could `chmod 0667 /dev/full` on the host. A
 * read-only mount refuses every metadata change (EROFS) but, for a device node, not an open for
 * writing (the kernel checks a mount's write access only for regular files, directories and
 * links), so `/dev/null` keeps taking writes. Bubblewrap cannot make such a mount itself (its
 * `--remount-ro` adds `nodev`, and a device on a `nodev` mount cannot be opened), so for root the
 * wrapper starts a *holder*: a process in a mount namespace of its own (`unshare --mount`) where
 * each node is bound read-only over a file in the wrapper's private directory; every stage enters
 * that namespace first (`nsenter --mount`, one exec, no child process: the recorder's tree is
 * unchanged) and bubblewrap binds those read-only nodes over its own (`--dev-bind`).
 *
 * Unprivileged, the nodes are root's: chmod and chown fail (EPERM) without a holder, and the jail
 * is not their owner. Setting their times to now (`touch /dev/null`) needs only write access to the
 * node, as for any user on the host; that is not refused. In both cases `/dev/console` is always
 * the null device (never the caller's terminal, whose owner may be the jail's user), and the jail's
 * `/dev` itself is read-only (jail.ts).
 */




/** The nodes bubblewrap's `--dev` binds from the host. */
const DEV_NODES = ["null", "zero", "full", "random", "urandom", "tty"];
const HOLDER_SCRIPT = [
    "set -e",
    // One mount(8) per node: since util-linux 2.27 `--bind -o ro` binds and makes the bind read-only
    // (an older one binds read-write and ignores `ro`: readOnlyDevices reads the holder's mounts
    // back and refuses unless every node is read-only).
    'for n in null zero full random urandom tty; do : > "$1/$n"; mount --bind -o ro "/dev/$n" "$1/$n"; done',
    "echo ready",
    // Held until the wrapper closes its input (or dies).
    "read -r _ || :",
].join("; ");
/** Unprivileged: no holder; `/dev/console` is the host's null device. */
const UNPRIVILEGED_DEVICES = {
    prefix: [],
    args: ["--dev-bind", "/dev/null", "/dev/console"],
    close: () => undefined,
};
/**
 * For a wrapper running as root: the holder with the read-only nodes in `dir` (made here), or
 * JAIL_UNAVAILABLE naming why it could not be had.
 */
async function readOnlyDevices(dir, tools, cwd) {
    if (tools.unshare === null || tools.nsenter === null) {
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", "unshare and nsenter (util-linux) are needed to show the host's device nodes read-only to a root run", {
            hint: "Install util-linux (unshare and nsenter ship with it on Debian and Ubuntu).",
        });
    }
    (0,external_node_fs_.mkdirSync)(dir, { mode: 0o700 });
    const child = (0,external_node_child_process_.spawn)(tools.unshare, ["--mount", "--propagation", "private", "--", "/bin/sh", "-c", HOLDER_SCRIPT, "sh", dir], {
        stdio: ["pipe", "pipe", "pipe"],
        // util-linux's mount, wherever the caller's PATH points.
        env: { PATH: "/usr/sbin:/usr/bin:/sbin:/bin" },
    });
    let stderr = "";
    child.stderr?.on("data", (d) => (stderr += d.toString("utf8")));
    const ready = await new Promise((settle) => {
        let out = "";
        child.stdout?.on("data", (d) => {
            out += d.toString("utf8");
            if (out.includes("ready\n"))
                settle(true);
        });
        child.once("error", () => settle(false));
        child.once("exit", () => settle(false));
    });
    if (!ready || child.pid === undefined) {
        child.kill("SIGKILL");
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `the host's device nodes cannot be shown read-only to the jail (${tools.unshare} --mount: ${stderr.trim().split("\n")[0] || "it ended"})`, { hint: "A root run needs to make mounts in a mount namespace of its own (CAP_SYS_ADMIN); run unprivileged otherwise." });
    }
    const pid = child.pid;
    const writable = notReadOnly(pid, dir);
    if (writable.length > 0) {
        child.stdin?.end();
        child.kill("SIGKILL");
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `the host's device nodes cannot be shown read-only to the jail (not read-only in the holder: ${writable.join(", ")})`, { hint: "mount(8) from util-linux 2.27 or later makes a bind read-only with --bind -o ro; install it." });
    }
    return {
        prefix: [tools.nsenter, `--mount=/proc/${pid}/ns/mnt`, `--wd=${cwd}`, "--"],
        args: [...DEV_NODES.flatMap((n) => ["--dev-bind", (0,external_node_path_.join)(dir, n), `/dev/${n}`]), "--dev-bind", (0,external_node_path_.join)(dir, "null"), "/dev/console"],
        close: () => {
            child.stdin?.end();
            child.kill("SIGKILL");
        },
    };
}
/** An octal escape of /proc/<pid>/mountinfo (space, tab, newline, backslash) read back. */
function unescapeMountPath(field) {
    return field.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(parseInt(octal, 8)));
}
/**
 * The nodes in `dir` that are not a read-only mount in the holder's mount namespace (the last
 * mount at a path is the one seen there): all of them when its mounts cannot be read.
 */
function notReadOnly(pid, dir) {
    let table;
    try {
        table = (0,external_node_fs_.readFileSync)(`/proc/${pid}/mountinfo`, "utf8");
    }
    catch {
        return [...DEV_NODES];
    }
    const readOnly = new Map();
    for (const line of table.split("\n")) {
        // id parent major:minor root mount-point mount-options ...
        const fields = line.split(" ");
        const point = fields[4];
        const options = fields[5];
        if (point === undefined || options === undefined)
            continue;
        readOnly.set(unescapeMountPath(point), options.split(",").includes("ro"));
    }
    let real;
    try {
        real = (0,external_node_fs_.realpathSync)(dir);
    }
    catch {
        return [...DEV_NODES];
    }
    return DEV_NODES.filter((n) => readOnly.get((0,external_node_path_.join)(real, n)) !== true);
}

;// CONCATENATED MODULE: ./src/observer/host-paths.ts
/** Facts about the host's own paths that the jail and the protected paths both need. */


/** The wrapper's homes: `$HOME` and the passwd entry's, when they are absolute and not `/`. */
function homes() {
    const out = new Set();
    const fromEnv = (0,external_node_os_.homedir)();
    if (fromEnv.startsWith("/") && fromEnv !== "/")
        out.add(fromEnv);
    try {
        const fromPasswd = (0,external_node_os_.userInfo)().homedir;
        if (fromPasswd.startsWith("/") && fromPasswd !== "/")
            out.add(fromPasswd);
    }
    catch {
        // no passwd entry: only HOME
    }
    return [...out];
}
/** Whether anything (a dangling link too) is at the path. */
function exists(path) {
    try {
        (0,external_node_fs_.lstatSync)(path);
        return true;
    }
    catch {
        return false;
    }
}

;// CONCATENATED MODULE: ./src/observer/runner-layout.ts
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


const { basename, dirname, normalize } = external_node_path_.posix;
const FILE_COMMAND_KEYS = ["GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"];
/** Directories the jail never covers whole: the system itself. A file there is masked alone. */
const SYSTEM_DIRS = ["/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/dev", "/sys", "/run", "/boot"];
function clean(path) {
    if (path === undefined || !path.startsWith("/"))
        return null;
    const p = normalize(path).replace(/\/+$/, "");
    return p === "" ? null : p;
}
function depth(path) {
    return path.split("/").filter((s) => s !== "").length;
}
function within(path, dir) {
    return (0,core_paths/* isInsideAnyRoot */.Jk)(path, [dir]);
}
/** A directory that may be covered whole: deeper than a top-level directory and not the system's. */
function coverable(dir) {
    return depth(dir) >= 2 && !SYSTEM_DIRS.some((s) => within(dir, s));
}
/** The runner's directory from its own Node (`<runner>/externals/node24/bin/node`), or the externals of a container job (`/__e`). */
function runnerDirOfNode(execPath) {
    const hosted = /^(\/.+)\/externals\/node[^/]*\/bin\/node$/.exec(execPath);
    if (hosted !== null)
        return { runnerDir: hosted[1], externals: `${hosted[1]}/externals` };
    const container = /^(\/__e)\/node[^/]*\/bin\/node$/.exec(execPath);
    if (container !== null)
        return { runnerDir: null, externals: "/__e" };
    return { runnerDir: null, externals: null };
}
function workDirOf(env) {
    const runnerWorkspace = clean(env.RUNNER_WORKSPACE);
    if (runnerWorkspace !== null && depth(runnerWorkspace) >= 2)
        return dirname(runnerWorkspace);
    const runnerTemp = clean(env.RUNNER_TEMP);
    if (runnerTemp !== null && basename(runnerTemp) === "_temp" && depth(runnerTemp) >= 2)
        return dirname(runnerTemp);
    return null;
}
/** `<prefix>` for `<prefix>/bin/<name>`, else the program's own directory. */
function installDirOf(executable) {
    const m = /^(\/.+)\/bin\/[^/]+$/.exec(executable);
    return m !== null ? m[1] : dirname(executable);
}
function runnerLayout(input) {
    const { env } = input;
    const fromNode = runnerDirOfNode(normalize(input.execPath));
    const workDir = workDirOf(env);
    // A self-hosted runner keeps its work directory inside its own (`<runner>/_work`).
    const runnerDir = fromNode.runnerDir ?? (workDir !== null && basename(workDir) === "_work" ? dirname(workDir) : null);
    const hidden = new Set();
    const masked = new Set();
    const hide = (dir) => {
        if (dir !== null && coverable(dir))
            hidden.add(dir);
    };
    if (runnerDir !== null) {
        hide(runnerDir);
        // Hosted runners keep each version under `runners/`: the whole of it is the runner's.
        if (basename(dirname(runnerDir)) === "runners")
            hide(dirname(runnerDir));
    }
    if (fromNode.externals !== null && (runnerDir === null || !within(fromNode.externals, runnerDir)))
        hide(fromNode.externals);
    if (workDir !== null)
        for (const name of ["_actions", "_temp", "_tool"])
            hide(`${workDir}/${name}`);
    hide(clean(env.RUNNER_TEMP));
    const toolCache = clean(env.RUNNER_TOOL_CACHE);
    hide(toolCache);
    // The Action's own directory, unless it is the repository the run works on (`uses: ./`):
    // inside a root it is left to the protected paths.
    const actionPath = clean(env.GITHUB_ACTION_PATH);
    if (actionPath !== null && !(0,core_paths/* isInsideAnyRoot */.Jk)(actionPath, input.roots))
        hide(actionPath);
    // The file-command files and the event payload: their directory when it is the runner's own
    // kind of place, else the file alone.
    for (const file of [...FILE_COMMAND_KEYS.map((k) => clean(env[k])), clean(env.GITHUB_EVENT_PATH)]) {
        if (file === null)
            continue;
        const dir = dirname(file);
        if (coverable(dir))
            hidden.add(dir);
        else
            masked.add(file);
    }
    // A container job's `/github` (home, workflow, file_commands) is the runner's, whole.
    const containerPaths = [clean(env.HOME), clean(env.GITHUB_EVENT_PATH), ...FILE_COMMAND_KEYS.map((k) => clean(env[k]))];
    if (containerPaths.some((p) => p !== null && within(p, "/github")))
        hidden.add("/github");
    // A root is the command's own: covering it (or one of its parents that is a root) would hide it.
    for (const dir of [...hidden])
        if (input.roots.includes(dir))
            hidden.delete(dir);
    for (const file of [...masked])
        if ([...hidden].some((d) => within(file, d)))
            masked.delete(file);
    const covered = [...hidden, ...input.privateTargets, ...(input.covered ?? [])];
    // Tools the job set up (setup-node, setup-python) live in the tool cache, on PATH.
    const toolDirs = [toolCache, workDir !== null ? `${workDir}/_tool` : null].filter((d) => d !== null);
    // Inside the runner's directory only its Node installs and the tool cache are programs' homes.
    const programPlaces = runnerDir !== null ? [`${runnerDir}/externals`, ...toolDirs] : [];
    const forbidden = (dir) => dir === "/" ||
        covered.some((c) => within(c, dir)) ||
        input.privateTargets.some((home) => home !== "/tmp" && within(dir, home) && depth(dir) <= depth(home) + 1) ||
        (runnerDir !== null && (within(runnerDir, dir) || (within(dir, runnerDir) && !programPlaces.some((p) => within(dir, p) && dir !== p))));
    const visible = new Set();
    const show = (program, dir) => {
        if ((0,core_paths/* isInsideAnyRoot */.Jk)(program, input.roots) || !covered.some((c) => within(program, c)))
            return;
        visible.add(forbidden(dir) ? program : dir);
    };
    for (const exe of input.executables.map((e) => clean(e)).filter((e) => e !== null))
        show(exe, installDirOf(exe));
    for (const entry of (env.PATH ?? "").split(":")) {
        const dir = clean(entry);
        if (dir !== null && toolDirs.some((t) => within(dir, t) && dir !== t))
            show(dir, basename(dir) === "bin" ? dirname(dir) : dir);
    }
    const byDepth = (a, b) => depth(a) - depth(b) || a.localeCompare(b);
    return {
        runnerDir,
        workDir,
        hidden: [...hidden].sort(byDepth),
        masked: [...masked].sort(byDepth),
        visible: [...visible].filter((v) => ![...visible].some((o) => o !== v && within(v, o))).sort(byDepth),
    };
}

;// CONCATENATED MODULE: ./src/observer/machine-identity.ts
/**
 * Machine identity hidden inside the jail: what PR code could read to tell runner A's machine
 * from runner B's, and so pick which one fails, is the same on every machine.
 *
 * - Fixed files bound read-only over the host's: `/etc/machine-id`, `/var/lib/dbus/machine-id`,
 *   `/etc/hostname`, `/etc/hosts` and `/proc/sys/kernel/random/boot_id`.
 * - The UTS hostname is `envelope-gate` (bwrap `--hostname`, in isolation()), so `hostname`,
 *   `uname -n` and `/proc/sys/kernel/hostname` say the same on every machine.
 * - Directories covered with an empty read-only tmpfs: the DMI ids (`/sys/devices/virtual/dmi`,
 *   behind `/sys/class/dmi/id`), `/sys/firmware` (the raw SMBIOS and ACPI tables, the device
 *   tree), the network interfaces' sysfs directories (MAC addresses; the jail's own network
 *   namespace has only loopback) and the cloud agents' instance data (cloud-init, Azure's waagent).
 * - SSH host keys (`/etc/ssh/ssh_host_*`) and the disks' serial numbers and world-wide ids in
 *   sysfs covered with an empty file.
 *
 * A path the host lacks stays absent (bubblewrap cannot create a mount point on the read-only
 * root) and meta says so; a path that is there but of another kind than the cover needs (a
 * directory at `/etc/machine-id`) is refused with JAIL_IDENTITY_UNAVAILABLE: the jail never
 * claims to hide what it did not.
 *
 * The wrapper itself still reads the real machine id and hostname outside the jail (meta.runner,
 * runner.json): the App compares those.
 */






const JAIL_HOSTNAME = "envelope-gate";
/** A valid machine id (32 lower-case hex, version 4 bits set), the same on every machine. */
const JAIL_MACHINE_ID = "e9a7e0000000400080000000000e9a7e";
const JAIL_BOOT_ID = "e9a7e000-0000-4000-8000-00000e9a7e00";
const JAIL_HOSTS = `127.0.0.1\tlocalhost\n127.0.1.1\t${JAIL_HOSTNAME}\n::1\tlocalhost ip6-localhost ip6-loopback\n`;
/** Files whose content is fixed in the jail: path -> content. */
const FIXED_FILES = [
    ["/etc/machine-id", `${JAIL_MACHINE_ID}\n`],
    ["/var/lib/dbus/machine-id", `${JAIL_MACHINE_ID}\n`],
    ["/etc/hostname", `${JAIL_HOSTNAME}\n`],
    ["/etc/hosts", JAIL_HOSTS],
    // The jail's /proc is its own (--proc), but a file of it can be bound over like any other.
    ["/proc/sys/kernel/random/boot_id", `${JAIL_BOOT_ID}\n`],
];
/** Directories covered with an empty read-only directory when the host has them. */
const COVERED_DIRECTORIES = [
    "/sys/devices/virtual/dmi",
    "/sys/firmware",
    "/sys/class/net",
    "/var/lib/cloud",
    "/run/cloud-init",
    "/var/lib/waagent",
];
/** Environment keys given the jail's hostname when an envelope lets them in (core/never-proposed.ts MACHINE_KEY for the rest). */
const HOSTNAME_KEYS = ["HOSTNAME", "HOST"];
function kindOf(path) {
    let real;
    try {
        // bubblewrap does not follow a symlink at a destination (Debian's dbus machine id links to /etc's): bind at the target.
        real = (0,external_node_fs_.realpathSync)(path);
    }
    catch (err) {
        const code = (0,errors/* errnoOf */.UQ)(err);
        if (code === "ENOENT" || code === "ENOTDIR")
            return { kind: "absent", real: path };
        throw identityError(path, `it cannot be resolved (${code ?? String(err)})`);
    }
    const st = (0,external_node_fs_.lstatSync)(real);
    return { kind: st.isFile() ? "file" : st.isDirectory() ? "directory" : "other", real };
}
function identityError(path, why) {
    return new errors/* Refusal */.P_("JAIL_IDENTITY_UNAVAILABLE", `the jail cannot hide the machine's identity at ${path}: ${why}`, {
        hint: "The run never starts with the machine's identity in view (docs/observer.md, What a run can still tell about its machine). Make it a regular file (or remove it).",
    });
}
/** The interfaces' own sysfs directories (their MAC addresses), behind /sys/class/net's links. */
function interfaceDirectories() {
    let names;
    try {
        names = (0,external_node_fs_.readdirSync)("/sys/class/net");
    }
    catch {
        return [];
    }
    const out = new Set();
    for (const name of names) {
        try {
            const real = (0,external_node_fs_.realpathSync)((0,external_node_path_.join)("/sys/class/net", name));
            if (real !== (0,external_node_path_.join)("/sys/class/net", name) && (0,external_node_fs_.lstatSync)(real).isDirectory())
                out.add(real);
        }
        catch {
            continue;
        }
    }
    return [...out].sort();
}
function sshHostKeys() {
    try {
        return (0,external_node_fs_.readdirSync)("/etc/ssh")
            .filter((n) => n.startsWith("ssh_host_"))
            .map((n) => (0,external_node_path_.join)("/etc/ssh", n))
            .sort();
    }
    catch {
        return [];
    }
}
/** Disk serial numbers and world-wide ids in sysfs (`/sys/block/<disk>/serial`, `…/device/wwid`, NVMe's `serial`). */
const DISK_ID_FILES = ["serial", "wwid", "device/serial", "device/wwid", "device/vpd_pg80", "device/vpd_pg83", "device/unit_serial_number"];
function diskIdFiles() {
    const out = [];
    const under = (dir, names) => {
        let entries;
        try {
            entries = (0,external_node_fs_.readdirSync)(dir);
        }
        catch {
            return;
        }
        for (const entry of entries)
            for (const name of names)
                out.push((0,external_node_path_.join)(dir, entry, name));
    };
    under("/sys/block", DISK_ID_FILES);
    under("/sys/class/nvme", ["serial"]);
    return out;
}
/**
 * The mounts that hide the machine's identity. `dir` is a directory of the wrapper's own (covered
 * inside the jail): the fixed files are written there and bound read-only from it. `extraHosts`:
 * lines the jail's /etc/hosts has after its fixed ones.
 */
function planMachineIdentity(dir, extraHosts = []) {
    (0,external_node_fs_.mkdirSync)(dir, { recursive: true, mode: 0o700 });
    const args = [];
    const meta = { hostname: JAIL_HOSTNAME, fixed: [], covered: [], emptied: [], absent: [] };
    const bound = new Set();
    FIXED_FILES.forEach(([path, content], i) => {
        const { kind, real } = kindOf(path);
        if (kind === "absent") {
            meta.absent.push(path);
            return;
        }
        if (kind !== "file")
            throw identityError(path, `it is a ${kind === "directory" ? "directory" : "special file"}, not a file`);
        if (bound.has(real)) {
            meta.fixed.push(path);
            return;
        }
        const source = (0,external_node_path_.join)(dir, `fixed-${i}`);
        // The declared services' names (jail-network.ts) resolve from the jail's hosts file as well.
        (0,external_node_fs_.writeFileSync)(source, path === "/etc/hosts" ? content + extraHosts.map((l) => `${l}\n`).join("") : content, { mode: 0o644 });
        args.push("--ro-bind", source, real);
        bound.add(real);
        meta.fixed.push(path);
    });
    const directories = [...COVERED_DIRECTORIES, ...interfaceDirectories()];
    for (const path of directories) {
        const { kind, real } = kindOf(path);
        if (kind === "absent") {
            if (COVERED_DIRECTORIES.includes(path))
                meta.absent.push(path);
            continue;
        }
        if (kind !== "directory")
            throw identityError(path, "it is not a directory");
        if (bound.has(real))
            continue;
        args.push("--tmpfs", real, "--remount-ro", real);
        bound.add(real);
        meta.covered.push(real);
    }
    const files = [...sshHostKeys(), ...diskIdFiles()];
    const empty = (0,external_node_path_.join)(dir, "empty");
    (0,external_node_fs_.writeFileSync)(empty, "", { mode: 0o644 });
    for (const file of files) {
        const { kind, real } = kindOf(file);
        if (kind === "absent" || bound.has(real) || (0,core_paths/* isInsideAnyRoot */.Jk)(real, [...bound]))
            continue;
        if (kind !== "file")
            throw identityError(file, "it is not a file");
        args.push("--ro-bind", empty, real);
        bound.add(real);
        meta.emptied.push(real);
    }
    return { args, meta };
}
/** Test seam: the file holding the machine id the runner is named by. */
const MACHINE_ID_ENV = "ENVELOPE_GATE_MACHINE_ID_FILE";
/** The runner as meta names it: the host name and a digest of the real machine id (never the jail's). */
function runnerIdentity() {
    const files = process.env[MACHINE_ID_ENV] !== undefined ? [process.env[MACHINE_ID_ENV]] : ["/etc/machine-id", "/var/lib/dbus/machine-id"];
    for (const file of files) {
        try {
            const id = (0,external_node_fs_.readFileSync)(file, "utf8").trim();
            if (id !== "")
                return `${(0,external_node_os_.hostname)()}#${(0,external_node_crypto_.createHash)("sha256").update(id).digest("hex").slice(0, 16)}`;
        }
        catch {
            continue;
        }
    }
    throw new errors/* Refusal */.P_("RUNNER_IDENTITY_UNAVAILABLE", `no machine id in ${files.join(" or ")}: the runner cannot be identified`, {
        hint: "The log names the machine it was recorded on (A/B runs must differ). Provide /etc/machine-id (systemd-machine-id-setup).",
    });
}

;// CONCATENATED MODULE: ./src/observer/jail.ts
/**
 * The run jail: bubblewrap around the observed command, with the wrapper and strace outside it.
 *
 *   wrapper (node) -> strace -f -> bwrap [namespaces, mounts, seccomp] -> command
 *
 * Inside: its own user (with no capabilities and no further user namespaces), PID, IPC, UTS and
 * mount namespaces, and a network namespace of its own under `network: deny`. The whole
 * filesystem is bound read-only, the allowed roots read-write at their own paths; `/tmp` and
 * `HOME` are empty directories in the run's scratch unless an allowed root covers them; `/proc` shows only
 * the jail's processes; `/dev` is a minimal one. The observer's log is hidden from the command,
 * and under `deny` every listening unix socket of the host is covered (abstract ones belong to
 * the host's network namespace and are out of reach already). What names the machine (its id,
 * hostname, boot id, DMI ids, MAC addresses) reads the same on every machine (machine-identity.ts).
 *
 * Paths the command sees are the host's own except under the private directories, so the
 * observer records what the command asked for, and PathView turns such a path into the host
 * path behind it when a symlink must be resolved.
 */








const BWRAP_ENV = "ENVELOPE_GATE_BWRAP";
/** Directories of the jail's own /dev given to the run as private space, like its /tmp. */
const JAIL_DEV_PRIVATE = ["/dev/shm", "/dev/mqueue"];
/** Jail paths <-> host paths, for resolving what the command named. */
class PathView {
    mounts;
    constructor(mounts) {
        // Most specific first.
        this.mounts = [...mounts].sort((a, b) => b.jail.length - a.jail.length);
    }
    /**
     * The path to record for a jail path: the jail's own, except under a directory that is the
     * host's in disguise (the jail's /tmp is the run's scratch), which is recorded as the host path.
     */
    recorded(jailPath) {
        for (const m of this.mounts) {
            if (PathView.under(jailPath, m.jail))
                return m.recordAsHost === true ? m.host + jailPath.slice(m.jail.length) : jailPath;
        }
        return jailPath;
    }
    static under(path, prefix) {
        return path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/");
    }
    toHost(jailPath) {
        const inDev = PathView.under(jailPath, "/dev");
        for (const m of this.mounts) {
            // The jail's /dev is its own (bubblewrap's): only its private directories (/dev/shm) have a host side.
            if (PathView.under(jailPath, m.jail) && (!inDev || PathView.under(m.jail, "/dev")))
                return m.host + jailPath.slice(m.jail.length);
        }
        if (inDev)
            return `/nonexistent/envelope-gate-jail${jailPath}`;
        return jailPath;
    }
    toJail(hostPath) {
        for (const m of [...this.mounts].sort((a, b) => b.host.length - a.host.length)) {
            if (PathView.under(hostPath, m.host))
                return m.jail + hostPath.slice(m.host.length);
        }
        return hostPath;
    }
}
/** Listening unix sockets of the host (from the wrapper's network namespace), by path. */
function hostUnixSockets() {
    let table;
    try {
        table = (0,external_node_fs_.readFileSync)("/proc/net/unix", "utf8");
    }
    catch {
        return [];
    }
    const out = new Set();
    for (const line of table.split("\n").slice(1)) {
        const fields = line.trim().split(/\s+/);
        // Num RefCount Protocol Flags Type St Inode Path; Flags 00010000 = listening.
        const path = fields[7];
        if (path === undefined || !path.startsWith("/") || fields.length !== 8)
            continue;
        if ((parseInt(fields[3] ?? "0", 16) & 0x10000) === 0)
            continue;
        try {
            // Bound over at its real path: bubblewrap does not follow a symlink such as /var/run.
            const real = (0,external_node_fs_.realpathSync)(path);
            if ((0,external_node_fs_.lstatSync)(real).isSocket())
                out.add(real);
        }
        catch {
            continue;
        }
    }
    return [...out].sort();
}
/**
 * The sockets the jail could reach: those the jail's own user (the wrapper's, in a user namespace
 * of its own, with no capabilities) finds when it looks, in a probe jail with the same isolation.
 * The wrapper lists the host's sockets with its own rights (as root: every path), but a socket in
 * a directory the jail's user cannot search (a 0700 directory of another user: a concurrent run's
 * `egress.sock` under its private directory) is out of the jail's reach, and bubblewrap cannot
 * cover it either: it makes the mount point with the same user, and stops with "Permission
 * denied" before the command starts. Bubblewrap can search wherever the command can (same user,
 * more rights while it builds the jail), so every socket the command could reach is still covered.
 * A probe that does not answer keeps every socket: bubblewrap then tries to cover them all.
 */
function reachableInJail(bwrap, sockets, known) {
    // A socket a probe jail of this run reached already is covered without asking again (covering
    // more is never less safe; one that went out of reach since stops bubblewrap, as it would have
    // between a probe and the jail before); every other one is asked about now.
    const ask = known === undefined ? sockets : sockets.filter((s) => !known.has(s));
    if (ask.length === 0)
        return sockets;
    const probe = (0,external_node_child_process_.spawnSync)(bwrap, [...isolation(), "--", "/bin/sh", "-c", SOCKET_PROBE, "sh", ...ask], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
        timeout: 30_000,
        maxBuffer: 16 * 1024 * 1024,
    });
    if (probe.status !== 0 || typeof probe.stdout !== "string")
        return sockets;
    const seen = probeAnswer(probe.stdout);
    for (const s of seen)
        known?.add(s);
    return sockets.filter((s) => seen.has(s) || known?.has(s) === true);
}
/** The probe jail's script: prints each argument that is a socket it can reach, NUL-terminated. */
const SOCKET_PROBE = 'for p; do if [ -S "$p" ]; then printf "%s\\0" "$p"; fi; done; exit 0';
function probeAnswer(stdout) {
    return new Set(stdout.split("\0").filter((p) => p !== ""));
}
/** Namespaces (the network one too: under allowlist the egress proxy is the only way out), no capabilities, no further user namespaces, the filesystem read-only, its own /dev and /proc. */
function isolation() {
    return [
        "--unshare-user",
        "--disable-userns",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        // The same hostname on every machine (machine-identity.ts): uname -n, hostname, /proc/sys/kernel/hostname.
        "--hostname",
        JAIL_HOSTNAME,
        "--unshare-cgroup-try",
        "--unshare-net",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        // /proc/sys is host-wide (core_pattern runs a program as host root), and the kernel checks
        // only the uid there, not capabilities: the jail's /proc is read-only.
        "--remount-ro",
        "/proc",
    ];
}
/**
 * The host directory behind one of the jail's private directories (its HOME, its /tmp), a real
 * directory inside the run's own directory in the scratch. Anything but a directory is removed
 * (a symlink itself, never its target) and a fresh directory made: bubblewrap would bind whatever
 * a link points at read-write, and every write through it would be recorded under the scratch.
 */
function privateRunDir(host) {
    let isDirectory = false;
    try {
        const st = (0,external_node_fs_.lstatSync)(host);
        isDirectory = st.isDirectory();
        if (!isDirectory)
            (0,external_node_fs_.rmSync)(host, { force: true });
    }
    catch (err) {
        if ((0,errors/* errnoOf */.UQ)(err) !== "ENOENT")
            throw err;
    }
    if (!isDirectory)
        (0,external_node_fs_.mkdirSync)(host, { mode: 0o700 });
    if (!(0,external_node_fs_.lstatSync)(host).isDirectory() || (0,external_node_fs_.realpathSync)(host) !== host) {
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `the jail's private directory ${host} is not a plain directory of the scratch`, {
            hint: "Remove it, or give the run a fresh scratch directory.",
        });
    }
}
/** A directory at `path` itself (a link to one is not). */
function isDirectory(path) {
    try {
        return (0,external_node_fs_.lstatSync)(path).isDirectory();
    }
    catch {
        return false;
    }
}
function isFile(path) {
    try {
        return (0,external_node_fs_.lstatSync)(path).isFile();
    }
    catch {
        return false;
    }
}
const KIND_ORDER = { hide: 0, private: 1, visible: 2, root: 3 };
function depthOf(path) {
    return path.split("/").filter((s) => s !== "").length;
}
/** The mount that decides what the jail shows at a path: the deepest one containing it. */
function coverOf(path, ops) {
    let best = null;
    for (const op of ops) {
        if (!(0,core_paths/* isInsideAnyRoot */.Jk)(path, [op.target]))
            continue;
        if (best === null || depthOf(op.target) > depthOf(best.target))
            best = op;
    }
    return best;
}
function planJail(bwrap, plan) {
    // A run's network namespace is the holder's (jail-network.ts), already the jail's own: joined, not made.
    const namespaces = plan.network !== undefined ? isolation().filter((a) => a !== "--unshare-net") : isolation();
    const args = [bwrap, ...namespaces, "--die-with-parent", "--new-session"];
    const privateMounts = [];
    const ops = [];
    // The run's own /tmp and HOME, fresh for each run, in its directory in the scratch: files a run
    // leaves there (a ~/.npmrc, a /tmp/sh it names) never reach the next run with the same scratch.
    const privateTargets = [];
    let homeIndex = 0;
    for (const target of ["/tmp", ...homes()]) {
        if ((0,core_paths/* isInsideAnyRoot */.Jk)(target, plan.writableRoots) || !exists(target) || privateTargets.includes(target))
            continue;
        const name = target === "/tmp" ? "tmp" : ++homeIndex === 1 ? "home" : `home${homeIndex}`;
        const host = (0,external_node_path_.join)(plan.runDir, name);
        privateRunDir(host);
        privateTargets.push(target);
        ops.push({ kind: "private", target, host });
        privateMounts.push({ jail: target, host, recordAsHost: true });
    }
    // A HOME that is not there (nor in a root) would make every cache write an attempt on the
    // read-only host: the command gets a private one instead, at its host path in the run's directory.
    let homeReplacement = null;
    const home = plan.commandHome;
    if (home !== undefined &&
        home.startsWith("/") &&
        !privateTargets.includes(home) &&
        !(0,core_paths/* isInsideAnyRoot */.Jk)(home, plan.writableRoots) &&
        !isDirectory(home)) {
        homeReplacement = (0,external_node_path_.join)(plan.runDir, homeIndex === 0 ? "home" : `home${homeIndex + 1}`);
        privateRunDir(homeReplacement);
        ops.push({ kind: "private", target: homeReplacement, host: homeReplacement });
        privateMounts.push({ jail: homeReplacement, host: homeReplacement });
    }
    const layout = runnerLayout({
        env: plan.runnerEnv,
        execPath: plan.execPath,
        privateTargets,
        executables: plan.executables,
        roots: plan.writableRoots,
        covered: plan.socketPlaces.hidden,
    });
    const hiddenPresent = layout.hidden.filter(isDirectory);
    for (const dir of hiddenPresent)
        ops.push({ kind: "hide", target: dir });
    // Where a host socket could appear later (/run, /var/tmp, world-writable directories, other
    // users' homes): empty and read-only, with what the run needs bound again at its own path.
    const socketDirs = plan.socketPlaces.hidden.filter((d) => isDirectory(d) && !hiddenPresent.includes(d));
    for (const dir of socketDirs)
        ops.push({ kind: "hide", target: dir });
    const visible = [...layout.visible, ...plan.socketPlaces.linkTargets].filter(exists);
    const scratch = plan.scratch;
    if (scratch !== undefined &&
        (0,core_paths/* isInsideAnyRoot */.Jk)(scratch, [...privateTargets, ...socketDirs]) &&
        !(0,core_paths/* isInsideAnyRoot */.Jk)(scratch, plan.writableRoots) &&
        !visible.includes(scratch) &&
        isDirectory(scratch))
        visible.push(scratch);
    for (const dir of visible)
        ops.push({ kind: "visible", target: dir });
    const roots = [...plan.writableRoots].filter(exists);
    for (const root of roots)
        ops.push({ kind: "root", target: root });
    // A directory covered already (inside another hidden one, or in a private HOME or /tmp, with
    // no root between) needs no mount of its own.
    const effective = ops.filter((op) => {
        if (op.kind !== "hide")
            return true;
        const parent = coverOf(op.target, ops.filter((o) => o !== op && o.target !== op.target));
        return parent === null || (parent.kind !== "hide" && parent.kind !== "private");
    });
    // Parents before children: bubblewrap applies mounts in order.
    effective.sort((a, b) => depthOf(a.target) - depthOf(b.target) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.target.localeCompare(b.target));
    for (const op of effective) {
        if (op.kind === "hide")
            args.push("--tmpfs", op.target);
        else if (op.kind === "private")
            args.push("--bind", op.host, op.target);
        else if (op.kind === "visible")
            args.push("--ro-bind", op.target, op.target);
        else
            args.push("--bind", op.target, op.target);
    }
    const shown = (path) => {
        const cover = coverOf(path, effective);
        return cover === null || cover.kind === "root" || cover.kind === "visible";
    };
    // The jail's /dev/shm and /dev/mqueue (POSIX shared memory and semaphores, message queues) are
    // the run's own too, like /tmp: bubblewrap's /dev is the jail's, so these are always made, in the
    // run's directory, bound after /dev and recorded there (inside ${SCRATCH}).
    for (const target of JAIL_DEV_PRIVATE) {
        const host = (0,external_node_path_.join)(plan.runDir, target.slice("/dev/".length));
        privateRunDir(host);
        args.push("--bind", host, target);
        privateMounts.push({ jail: target, host, recordAsHost: true });
    }
    // A root (or a directory shown read-only) under /dev/shm or /dev/mqueue, a workspace on that
    // tmpfs, is bound again over the run's own directory, at its own path.
    for (const op of effective) {
        if ((op.kind === "root" || op.kind === "visible") && (0,core_paths/* isInsideAnyRoot */.Jk)(op.target, [...JAIL_DEV_PRIVATE]))
            args.push(op.kind === "root" ? "--bind" : "--ro-bind", op.target, op.target);
    }
    if (!shown(plan.cwd)) {
        throw new errors/* Refusal */.P_("JAIL_CWD_HIDDEN", `the working directory ${plan.cwd} is hidden in the jail (under ${coverOf(plan.cwd, effective)?.target ?? "?"})`, {
            hint: "Run envelope-gate from the workspace or another allowed root (cd there, or pass --workspace for the directory you are in).",
        });
    }
    // Protected paths (protected.ts): .git, .github, the Action's files read-only inside the roots; credentials hidden.
    args.push(...plan.protectedMounts);
    // The machine's identity (machine-id, boot id, DMI, interfaces, host keys): fixed or covered, after every other mount.
    const identity = planMachineIdentity((0,external_node_path_.join)(plan.wrapperDir, "identity"), plan.network?.hostsLines);
    args.push(...identity.args);
    // Before the hidden places are made read-only: a file they hide (systemd-resolved's stub) needs its mount point made.
    if (plan.network !== undefined)
        args.push(...networkMounts(plan.network));
    // The wrapper's own directory (strace's output, the seccomp program, the private dirs' hosts)
    // is covered even where a root includes it; only the stage directory shows, read-only.
    args.push("--tmpfs", plan.wrapperDir, "--ro-bind", plan.stageDir, plan.stageDir);
    // Read-only once every mount inside them has its mount point (roots, install directories, the
    // stage directory when the wrapper's temporary directory is in RUNNER_TEMP).
    for (const op of effective)
        if (op.kind === "hide")
            args.push("--remount-ro", op.target);
    const masked = new Set();
    // Covered wherever the jail would show it, in a root or not: its meta names the machine (runner, paths).
    if (shown(plan.logPath) && exists(plan.logPath))
        masked.add(plan.logPath);
    for (const file of layout.masked)
        if (shown(file) && isFile(file))
            masked.add(file);
    // Sockets in a root are the command's business; under a private or hidden directory they are out of sight already.
    const hiddenSockets = reachableInJail(bwrap, hostUnixSockets().filter((s) => !(0,core_paths/* isInsideAnyRoot */.Jk)(s, [...plan.writableRoots, ...privateTargets]) && shown(s)), plan.reachableSockets);
    for (const socket of hiddenSockets)
        masked.add(socket);
    const serviceSockets = new Set(plan.network?.unixServices.map((u) => u.jail) ?? []);
    for (const path of masked)
        if (!serviceSockets.has(path))
            args.push("--ro-bind", "/dev/null", path);
    // The jail's /dev, last, once every mount point in it is made: nothing new can be made or
    // linked there, and the host's device nodes bubblewrap binds are read-only (devices, below).
    args.push(...plan.devices, "--remount-ro", "/dev");
    args.push("--seccomp", String(plan.seccompFd), "--chdir", plan.cwd, "--", plan.launcher, "-u", "PWD", "--");
    // Bound at their own paths: a path under one of them is the host's, even inside a private dir.
    const own = [...roots, ...visible, plan.stageDir].map((p) => ({ jail: p, host: p }));
    // Nothing of the host's is behind a hidden directory: its symlinks are not the jail's.
    const covers = [...hiddenPresent, ...socketDirs].map((d) => ({ jail: d, host: `/nonexistent/envelope-gate-hidden${d}` }));
    return {
        prefix: plan.prefix,
        argv: args,
        view: new PathView([...privateMounts, ...covers, ...own]),
        hiddenSockets,
        privateMounts,
        visiblePrefixes: visible,
        hidden: hiddenPresent,
        socketDirsHidden: effective.filter((op) => op.kind === "hide" && socketDirs.includes(op.target)).map((op) => op.target),
        maskedFiles: [...masked].filter((m) => layout.masked.includes(m)),
        masked,
        machineIdentity: identity.meta,
        homeReplacement,
    };
}
/**
 * The jail's resolv.conf (jail-network.ts) over the host's, at the file it resolves to (bubblewrap
 * does not follow a symlink at a destination: systemd-resolved's stub file), and each unix socket
 * service's forward at the service's path. (The services' names are in the jail's /etc/hosts,
 * machine-identity.ts.)
 */
function networkMounts(network) {
    const args = [];
    try {
        args.push("--ro-bind", network.resolvConf, (0,external_node_fs_.realpathSync)("/etc/resolv.conf"));
    }
    catch (err) {
        // A dangling link or no file: the resolver is where resolvers look by default (127.0.0.1:53).
        if ((0,errors/* errnoOf */.UQ)(err) !== "ENOENT")
            throw err;
    }
    for (const socket of network.unixServices)
        args.push("--ro-bind", socket.host, socket.jail);
    return args;
}
/**
 * Starts bwrap once with the same isolation flags on `/bin/sh`: a machine that cannot build the
 * jail (no bubblewrap, user namespaces restricted) is refused with the reason, before any
 * observer runs. Started early and awaited where the run needs the answer (run.ts, preflight),
 * so the probe's bubblewrap runs while the envelope is verified; its answer is never assumed:
 * the refusal (or null) it resolves to is what the caller acts on.
 */
function startJailProbe(bwrap, reachableSockets) {
    if (bwrap === null) {
        return Promise.resolve(new errors/* Refusal */.P_("JAIL_UNAVAILABLE", "the run jail cannot be built: bubblewrap (bwrap) was not found", {
            hint: "Install it (apt-get install -y bubblewrap). The command never runs outside the jail.",
        }));
    }
    return new Promise((resolve) => {
        let stderr = "";
        let stdout = "";
        let spawnError;
        // The same jail asks about the host's listening sockets (reachableInJail): what it reaches is
        // covered in every stage's jail without another bubblewrap.
        const sockets = reachableSockets !== undefined ? hostUnixSockets() : [];
        const child = (0,external_node_child_process_.spawn)(bwrap, [...isolation(), "--", "/bin/sh", "-c", sockets.length > 0 ? SOCKET_PROBE : ":", "sh", ...sockets], {
            stdio: ["ignore", "pipe", "pipe"],
            timeout: 30_000,
        });
        child.stdout?.setEncoding("utf8");
        child.stdout?.on("data", (chunk) => {
            if (stdout.length < 16 * 1024 * 1024)
                stdout += chunk;
        });
        child.stderr?.setEncoding("utf8");
        child.stderr?.on("data", (chunk) => {
            if (stderr.length < 64 * 1024)
                stderr += chunk;
        });
        let settled = false;
        const settle = (code, signal) => {
            if (settled)
                return;
            settled = true;
            if (code === 0 && spawnError === undefined) {
                const asked = new Set(sockets);
                for (const p of probeAnswer(stdout))
                    if (asked.has(p))
                        reachableSockets?.add(p);
                return resolve(null);
            }
            const why = (stderr || spawnError?.message || `exit ${String(code ?? signal)}`).trim().split("\n")[0];
            resolve(new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `the run jail cannot be built: ${bwrap} failed (${why})`, {
                hint: "bubblewrap needs user namespaces. On Ubuntu 24.04 grant them to bwrap alone with an AppArmor profile " +
                    "(the Action writes one itself; by hand: docs/action.md, Prerequisites), never by turning the restriction off for every program.",
            }));
        };
        child.on("error", (err) => {
            spawnError = err;
            // Not started at all (no 'close' follows then): the answer is now.
            if (child.pid === undefined)
                settle(null, null);
        });
        child.on("close", settle);
    });
}

// EXTERNAL MODULE: ./src/core/log-format.ts
var log_format = __webpack_require__(7653);
;// CONCATENATED MODULE: ./src/observer/log-writer.ts
/** The observer log's file: opened first, written only by LogWriter. */



/** Opens (and truncates) the log: a stale log from an earlier run must never survive a refusal. */
function openLog(logPath) {
    try {
        return (0,external_node_fs_.openSync)(logPath, "w", 0o644);
    }
    catch (err) {
        throw new errors/* Refusal */.P_("OBSERVER_LOG_UNWRITABLE", `cannot write the observer log ${logPath} (${(0,errors/* errnoOf */.UQ)(err) ?? String(err)})`, {
            file: logPath,
            cause: err,
        });
    }
}
/**
 * The log's only writer. A write that fails (a full disk, a quota, an I/O error) is the end of
 * the log: nothing is written after it, the file is cut back to its last whole line (so it has no
 * `end`, and check refuses it), and `onFailure` stops the command, whose actions would otherwise
 * go unrecorded. `failure` holds the typed error; `flush` throws it.
 */
class LogWriter {
    fd;
    path;
    onFailure;
    seq = 0;
    buffer = [];
    scheduled = false;
    bytesWritten = 0;
    linesWritten = 0;
    failed = null;
    constructor(fd, path, onFailure) {
        this.fd = fd;
        this.path = path;
        this.onFailure = onFailure;
    }
    get lines() {
        return this.seq;
    }
    get failure() {
        return this.failed;
    }
    write(event) {
        if (this.failed !== null)
            return;
        const { kind, ...rest } = event;
        this.buffer.push(JSON.stringify({ v: log_format/* LOG_VERSION */.Ae, kind, ...rest, seq: this.seq }) + "\n");
        this.seq++;
        if (!this.scheduled) {
            this.scheduled = true;
            setImmediate(() => this.writeBuffered());
        }
    }
    /** Writes what is buffered; throws if the log can no longer be written. */
    flush() {
        this.writeBuffered();
        if (this.failed !== null)
            throw this.failed;
    }
    /** Flushes and closes without throwing: a failure is left in `failure` for the caller. */
    close() {
        this.writeBuffered();
        try {
            (0,external_node_fs_.closeSync)(this.fd);
        }
        catch (err) {
            if (this.failed === null)
                this.fail(err);
        }
    }
    writeBuffered() {
        this.scheduled = false;
        const lines = this.buffer.length;
        const bytes = Buffer.from(this.buffer.join(""), "utf8");
        this.buffer = [];
        if (this.failed !== null || lines === 0)
            return;
        let offset = 0;
        try {
            while (offset < bytes.length)
                offset += (0,external_node_fs_.writeSync)(this.fd, bytes, offset, bytes.length - offset);
        }
        catch (err) {
            this.fail(err);
            return;
        }
        this.bytesWritten += bytes.length;
        this.linesWritten += lines;
    }
    fail(err) {
        const reason = (0,errors/* errnoOf */.UQ)(err) ?? String(err);
        let state = `the log ends after ${this.linesWritten} whole lines, with no end line`;
        try {
            (0,external_node_fs_.ftruncateSync)(this.fd, this.bytesWritten);
        }
        catch (truncateError) {
            // The partial last line stays; check refuses a truncated last line as it refuses a missing end.
            state = `the log ends in a partial line (it could not be cut back: ${(0,errors/* errnoOf */.UQ)(truncateError) ?? String(truncateError)})`;
        }
        const full = reason === "ENOSPC" || reason === "EDQUOT";
        this.failed = new errors/* Refusal */.P_("OBSERVER_LOG_WRITE_FAILED", `cannot write the observer log ${this.path} (${reason}): the run is stopped and ${state}, so check refuses it`, {
            file: this.path,
            hint: full
                ? "The filesystem holding the log is full (or its quota is): free space there, or point --observer at a filesystem with room, and run again."
                : "The filesystem holding the log refused a write: check the device, or point --observer elsewhere, and run again.",
            cause: err,
        });
        this.onFailure();
    }
}

// EXTERNAL MODULE: ./src/core/version.ts
var version = __webpack_require__(3323);
// EXTERNAL MODULE: ./src/core/rules.ts
var rules = __webpack_require__(1688);
;// CONCATENATED MODULE: ./src/observer/merge.ts
/**
 * Turns hook messages and strace events into log events. The rules (docs/observer.md, "Merging"):
 *
 * - Hook records can add events, never take a process-level one away: with the process
 *   observer live, everything it reports is written.
 * - write: with the process observer live the hooks leave writes to it (preload-config.json);
 *   any hook write record that still arrives is written as well. Under Node-only observation
 *   the hooks are the only record.
 * - exec: with the process observer live only its execs are written (it sees the real execve of
 *   every program); hook exec records are kept only under Node-only observation.
 * - host: hook records (by name) are always written. A process-level connect or send is
 *   written once per (process, address, port); when the same process's hooks noted that they
 *   connected that address for a name, the line carries the name as `via`. Under allowlist the
 *   egress proxy writes each request it gets (`source: "proxy"`, the destination by name), and
 *   connects to the relay that leads to it are not written again by either observer.
 * - env and tool come only from the hooks; `syscall` (a refused call) only from the process observer.
 */


class ChannelMessageError extends Error {
}
function merge_text(value, field, kind) {
    if (typeof value !== "string" || value === "" || value.includes("\u0000")) {
        throw new ChannelMessageError(`a ${kind} message needs a non-empty string "${field}"`);
    }
    return value;
}
function absolutePath(value, field, kind) {
    const p = merge_text(value, field, kind);
    if (!p.startsWith("/"))
        throw new ChannelMessageError(`a ${kind} message has a relative "${field}"`);
    return p;
}
function integer(value, field, kind) {
    if (!Number.isInteger(value))
        throw new ChannelMessageError(`a ${kind} message needs an integer "${field}"`);
    return value;
}
function mappedV4(address) {
    const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return m ? m[1] : address;
}
class Merger {
    options;
    /** `${pid}\0${address}\0${port}` the hooks connected to -> the name they connected by. */
    hookedAddresses = new Map();
    /** `${pid}\0${port}` -> the last name the hooks connected to on that port. */
    lastHookName = new Map();
    processHostsSeen = new Set();
    /** Maps a pid the hooks report (the jail's) to the process observer's (the host's). */
    pidOfHook = (pid) => pid;
    constructor(options) {
        this.options = options;
    }
    out(event) {
        if (this.options.canary)
            event.canary = true;
        this.options.emit(event);
    }
    /** One parsed JSON message from the hooks' channel. Throws ChannelMessageError on anything unexpected. */
    fromHook(message) {
        if (message === null || typeof message !== "object" || Array.isArray(message)) {
            throw new ChannelMessageError("a channel message is not a JSON object");
        }
        const m = message;
        const kind = m.kind;
        const pid = integer(m.pid, "pid", String(kind));
        const ts = typeof m.ts === "number" ? m.ts : undefined;
        // What every hook event carries after its kind, in this order.
        const head = ts !== undefined ? { ts, pid } : { pid };
        switch (kind) {
            case "write": {
                const seen = absolutePath(m.path, "path", kind);
                const path = this.options.recordPath?.(seen) ?? seen;
                const op = merge_text(m.op, "op", kind);
                if (!(0,log_format/* isWriteOp */.Nx)(op))
                    throw new ChannelMessageError(`a write message has an unknown op "${op}"`);
                // The hottest record: built directly (same fields, same order as head gives).
                this.out(ts !== undefined ? { kind: "write", ts, pid, path, op, source: "node" } : { kind: "write", pid, path, op, source: "node" });
                return;
            }
            case "env": {
                const key = merge_text(m.key, "key", kind);
                const op = merge_text(m.op, "op", kind);
                const runtime = m.origin === "internal" && rules/* RUNTIME_ENV_KEYS */.yG.has(key);
                this.out({ kind: "env", ...head, key, op, source: runtime ? "runtime" : "node" });
                return;
            }
            case "host": {
                const host = merge_text(m.host, "host", kind);
                const proto = merge_text(m.proto, "proto", kind);
                const port = m.port !== undefined ? integer(m.port, "port", kind) : undefined;
                if (this.isEgress(host, port))
                    return;
                const outer = this.pidOfHook(pid);
                if (outer !== null && proto !== "dns" && port !== undefined)
                    this.lastHookName.set(`${outer}\0${String(port)}`, host);
                this.out({ kind: "host", ...head, host, ...(port !== undefined ? { port } : {}), proto, source: "node" });
                return;
            }
            case "note": {
                const address = mappedV4(merge_text(m.address, "address", kind));
                const port = integer(m.port, "port", kind);
                const outer = this.pidOfHook(pid);
                const name = outer === null ? undefined : this.lastHookName.get(`${outer}\0${port}`);
                if (name !== undefined && name !== address)
                    this.hookedAddresses.set(`${outer}\0${address}\0${port}`, name);
                return;
            }
            case "exec": {
                const path = absolutePath(m.path, "path", kind);
                const argv = m.argv;
                if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
                    throw new ChannelMessageError(`an exec message needs "argv" as an array of strings`);
                }
                if (this.options.processObserverLive && !this.options.canary)
                    return;
                const event = { kind: "exec", ...head, path, argv };
                if (m.cwd !== undefined)
                    event.cwd = absolutePath(m.cwd, "cwd", kind);
                event.source = "node";
                this.out(event);
                return;
            }
            case "tool": {
                const name = merge_text(m.name, "name", kind);
                this.out({ kind: "tool", ...head, name, source: "sdk" });
                return;
            }
            default:
                throw new ChannelMessageError(`unknown channel message kind ${JSON.stringify(kind)}`);
        }
    }
    isEgress(host, port) {
        const e = this.options.egressEndpoint;
        if (e !== null && e !== undefined && port === e.port && (host === e.host || host === "localhost"))
            return true;
        const plain = mappedV4(host);
        return (this.options.plumbing ?? []).some((p) => port === p.port && (plain === p.host || (host === "localhost" && p.host === "127.0.0.1")));
    }
    /** A lookup the jail's resolver answered or refused, or a connection the forward to a service carried. */
    fromNetwork(record) {
        if (record.kind === "lookup") {
            const event = { kind: "host", ts: Date.now(), host: record.name, proto: "dns" };
            if (!record.allowed)
                event.ok = false;
            event.source = "resolver";
            this.out(event);
            return;
        }
        const event = { kind: "host", ts: Date.now(), host: record.host };
        if (record.port !== null)
            event.port = record.port;
        event.proto = record.port === null ? "unix" : "tcp";
        if (!record.ok)
            event.ok = false;
        event.source = "service";
        event.bytes_in = record.bytesIn;
        event.bytes_out = record.bytesOut;
        this.out(event);
    }
    /** One request the egress proxy decided on. */
    fromEgress(record) {
        const event = { kind: "host", ts: Date.now(), host: record.host, port: record.port, proto: record.proto };
        if (!record.allowed)
            event.ok = false;
        event.source = "proxy";
        this.out(event);
        // A TLS hello naming another host than the tunnel's (fronting) is an attempt on that host: judged by its own name.
        if (record.sni !== undefined && record.sni !== record.host) {
            const named = { kind: "host", ts: event.ts, host: record.sni, port: record.port, proto: record.proto };
            if (!record.allowed)
                named.ok = false;
            named.source = "proxy";
            this.out(named);
        }
    }
    fromProcess(event) {
        const ts = Date.now();
        switch (event.kind) {
            case "write":
                // A path that cannot be known is said as such, never judged: check refuses the log.
                if (event.pathUnknown !== undefined) {
                    this.out({
                        kind: "write",
                        ts,
                        pid: event.tgid,
                        path: event.path,
                        op: event.op,
                        path_unknown: event.pathUnknown,
                        source: "process",
                    });
                    return;
                }
                this.out(event.refused === true
                    ? { kind: "write", ts, pid: event.tgid, path: event.path, op: event.op, ok: false, source: "process" }
                    : event.errno !== undefined
                        ? { kind: "write", ts, pid: event.tgid, path: event.path, op: event.op, errno: event.errno, source: "process" }
                        : { kind: "write", ts, pid: event.tgid, path: event.path, op: event.op, source: "process" });
                return;
            case "exec": {
                this.out({
                    kind: "exec",
                    ts,
                    pid: event.tgid,
                    ...(event.ppid !== null ? { ppid: event.ppid } : {}),
                    // The pid the Node hooks' lines carry for this process (the jail's): joins them to this exec.
                    ...(event.jailPid !== undefined ? { jail_pid: event.jailPid } : {}),
                    path: event.path,
                    argv: event.argv,
                    ...(event.interpreter !== undefined ? { interpreter: event.interpreter } : {}),
                    source: "process",
                });
                return;
            }
            case "host": {
                const key = `${event.tgid}\0${event.host}\0${event.port}`;
                if (!this.options.canary) {
                    if (this.isEgress(event.host, event.port))
                        return;
                    if (this.processHostsSeen.has(key))
                        return;
                    this.processHostsSeen.add(key);
                }
                const out = { kind: "host", ts, pid: event.tgid, host: event.host, port: event.port, proto: event.proto };
                const via = this.hookedAddresses.get(key);
                if (via !== undefined)
                    out.via = via;
                out.source = "process";
                this.out(out);
                return;
            }
            case "unix": {
                const key = `${event.tgid}\0unix:${event.address}`;
                if (!this.options.canary) {
                    if (this.processHostsSeen.has(key))
                        return;
                    this.processHostsSeen.add(key);
                }
                this.out({ kind: "host", ts, pid: event.tgid, host: `unix:${event.address}`, proto: event.proto, source: "process" });
                return;
            }
            case "forbidden":
                this.out({ kind: "syscall", ts, pid: event.tgid, name: event.name, source: "process" });
                return;
            case "channel":
                return;
        }
    }
}

;// CONCATENATED MODULE: ./src/observer/protocol.ts
/**
 * The channel between the in-process hooks (preload) and the run wrapper, and the constants
 * both sides share. Pure and import-free on purpose: it is bundled into the preload, which
 * must stay loadable both as CommonJS (`--require`, the only preload form Node 20 also runs
 * in worker threads) and as ESM.
 *
 * Each message is one line of ASCII JSON. A line of at most FRAME_LIMIT bytes is written with
 * one write(2) to a FIFO, which the kernel keeps atomic up to PIPE_BUF (4096), so lines from
 * many processes never interleave. A longer message is cut into fragments, each its own
 * atomic line: `~<writer>:<msg>:<last 0|1>:<text>`.
 */
/** File name of the preload copy in a stage directory; the hooks find their channel beside it. */
const PRELOAD_FILE_NAME = "envelope-gate-preload.cjs";
/** The FIFO the hooks write to, in the same stage directory as the preload copy. */
const EVENTS_FIFO_NAME = "events.fifo";
/** Optional settings for the hooks, `{"recordWrites": boolean}`, in the same stage directory. */
const PRELOAD_CONFIG_NAME = "preload-config.json";
/** The FIFO strace writes to. */
const STRACE_FIFO_NAME = "strace.fifo";
/** worker_threads environment-data key that hands the channel to worker threads. */
const WORKER_CHANNEL_KEY = "envelope-gate.channel";
/** Global the preload installs for the SDK's recordTool. */
const RECORD_TOOL_SYMBOL = "envelope-gate.recordTool";
/** Largest frame written in one write(2); below PIPE_BUF (4096) with room for the fragment header. */
const FRAME_LIMIT = 3800;
/**
 * Character devices a write to which mutates no file: shells redirect to /dev/null all the
 * time. Both observers skip exactly these (docs/observer.md lists them).
 */
const DEVICE_PATHS = new Set([
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/tty",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/random",
    "/dev/urandom",
]);
function isIgnoredDevice(path) {
    return DEVICE_PATHS.has(path) || path.startsWith("/dev/pts/") || path.startsWith("/dev/fd/") || path.startsWith("/proc/self/fd/");
}
/** The NODE_OPTIONS entry that preloads the hooks from a stage directory. */
function preloadOption(stageDir) {
    return `--require "${stageDir.replace(/(["\\])/g, "\\$1")}/${PRELOAD_FILE_NAME}"`;
}
const PRELOAD_OPTION = /(?:^|\s)--require[= ]"((?:[^"\\]|\\.)*\/envelope-gate-preload\.cjs)"/;
/** Finds the preload option in a NODE_OPTIONS value: the stage dir and the value without it. */
function splitNodeOptions(value) {
    if (value === undefined)
        return { stageDir: null, rest: "" };
    const m = PRELOAD_OPTION.exec(value);
    if (!m)
        return { stageDir: null, rest: value };
    const file = m[1].replace(/\\(.)/g, "$1");
    const rest = (value.slice(0, m.index) + " " + value.slice(m.index + m[0].length)).trim();
    return { stageDir: file.slice(0, file.length - PRELOAD_FILE_NAME.length - 1), rest };
}
/** Joins the preload option with whatever NODE_OPTIONS the program itself passes on. */
function mergeNodeOptions(stageDir, rest) {
    const own = preloadOption(stageDir);
    const other = splitNodeOptions(rest).rest;
    return other === "" ? own : `${own} ${other}`;
}
const HAS_NON_ASCII = /[\u007f-\uffff]/;
const NON_ASCII = /[\u007f-\uffff]/g;
function asciiJson(message) {
    const json = JSON.stringify(message);
    return HAS_NON_ASCII.test(json) ? json.replace(NON_ASCII, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) : json;
}
/** Encodes one message as one or more frames (each ends with a newline, each at most FRAME_LIMIT + header bytes). */
function encodeFrames(message, writer, messageNo) {
    const json = asciiJson(message);
    if (json.length <= FRAME_LIMIT)
        return [json + "\n"];
    const frames = [];
    for (let i = 0; i < json.length; i += FRAME_LIMIT) {
        const last = i + FRAME_LIMIT >= json.length ? 1 : 0;
        frames.push(`~${writer}:${messageNo}:${last}:${json.slice(i, i + FRAME_LIMIT)}\n`);
    }
    return frames;
}
class FrameError extends Error {
}
/** Reassembles frames into message texts. Pure: fed lines, returns whole JSON texts. */
class FrameDecoder {
    partial = new Map();
    pending = "";
    /** Feeds raw text; returns every complete message (JSON text) in order. */
    push(text) {
        const out = [];
        let start = 0;
        const data = this.pending === "" ? text : this.pending + text;
        this.pending = "";
        for (;;) {
            const nl = data.indexOf("\n", start);
            if (nl === -1)
                break;
            const line = data.slice(start, nl);
            start = nl + 1;
            if (line.charCodeAt(0) !== 0x7e) {
                out.push(line);
                continue;
            }
            const m = /^~([^:]+):(\d+):([01]):/.exec(line);
            if (!m)
                throw new FrameError(`bad fragment header: ${line.slice(0, 60)}`);
            const key = `${m[1]}:${m[2]}`;
            const body = (this.partial.get(key) ?? "") + line.slice(m[0].length);
            if (m[3] === "1") {
                this.partial.delete(key);
                out.push(body);
            }
            else {
                if (body.length > 64 * 1024 * 1024)
                    throw new FrameError("a fragmented message longer than 64 MiB");
                this.partial.set(key, body);
            }
        }
        if (start < data.length)
            this.pending = data.slice(start);
        return out;
    }
    /** True when no message is half-received (used at the end of a stage). */
    get idle() {
        return this.pending === "" && this.partial.size === 0;
    }
}

;// CONCATENATED MODULE: ./src/observer/seccomp.ts
/**
 * The jail's seccomp filter, as a classic BPF program that bubblewrap installs (`--seccomp FD`)
 * on the command just before it runs. Pure: builds bytes, runs nothing.
 *
 * - A call that would blind or escape the observer (FORBIDDEN_SYSCALLS) returns
 *   SECCOMP_RET_TRACE. Under strace, which is told to inject EPERM into exactly those calls, the
 *   call is refused AND printed (`= -1 EPERM (INJECTED)`), so it is recorded and judged as
 *   `forbidden_syscall:<name>`. With no tracer attached the kernel refuses a TRACE call with
 *   ENOSYS on its own: a dead tracer can never turn the refusal into an allow. Under the eBPF
 *   recorder (`"eperm"`) there is no tracer to inject the refusal: the filter returns EPERM
 *   itself, and the recorder sees the refused call at sys_exit.
 * - `clone3` returns ENOSYS: its flags sit behind a pointer the filter cannot read, and libc
 *   falls back to `clone`, whose flags strace prints (namespace flags are recorded there, and
 *   the kernel refuses them: the jail has no capabilities and user namespaces are disabled).
 * - System calls newer than the tracer knows by name (numbers from NEWEST_KNOWN_SYSCALL + 1)
 *   return ENOSYS, so libc falls back to the older calls the tracer does record
 *   (`fchmodat2` -> `fchmodat`, for example).
 * - Another ABI returns ENOSYS: i386 through int 0x80 by its audit arch, x32 on x86-64 because
 *   its numbers (0x40000000 and up) are above NEWEST_KNOWN_SYSCALL.
 * - io_uring returns ENOSYS: in the jail it does not exist (see ABSENT).
 */
/** [name, x86_64 number, aarch64 number or null where the architecture lacks the call]. */
const TABLE = [
    ["open_by_handle_at", 304, 265],
    ["mount", 165, 40],
    ["umount2", 166, 39],
    ["pivot_root", 155, 41],
    ["move_mount", 429, 429],
    ["open_tree", 428, 428],
    ["fsopen", 430, 430],
    ["fsconfig", 431, 431],
    ["fsmount", 432, 432],
    ["fspick", 433, 433],
    ["mount_setattr", 442, 442],
    ["unshare", 272, 97],
    ["setns", 308, 268],
    ["pidfd_getfd", 438, 438],
    ["ptrace", 101, 117],
    ["process_vm_readv", 310, 270],
    ["process_vm_writev", 311, 271],
    ["bpf", 321, 280],
    ["perf_event_open", 298, 241],
    ["userfaultfd", 323, 282],
    ["keyctl", 250, 219],
    ["add_key", 248, 217],
    ["request_key", 249, 218],
    ["kexec_load", 246, 104],
    ["kexec_file_load", 320, 294],
    ["init_module", 175, 105],
    ["finit_module", 313, 273],
    ["delete_module", 176, 106],
    ["chroot", 161, 51],
    ["acct", 163, 89],
    ["swapon", 167, 224],
    ["swapoff", 168, 225],
    ["reboot", 169, 142],
    ["fanotify_init", 300, 262],
    ["iopl", 172, null],
    ["ioperm", 173, null],
];
/**
 * io_uring answers ENOSYS, as on a kernel built without it: its operations run outside any
 * system call the tracer sees, so it must not exist in the jail, and runtimes probe it on every
 * start (Node 24's libuv calls io_uring_setup in each process) and fall back on ENOSYS. A probe
 * of a missing facility is not an attempt worth judging; everything done after the fallback is
 * observed as usual.
 */
const ABSENT = [
    ["io_uring_setup", 425, 425],
    ["io_uring_enter", 426, 426],
    ["io_uring_register", 427, 427],
];
/** Names of the calls the jail refuses and records. */
const FORBIDDEN_SYSCALLS = TABLE.map(([name]) => name);
const CLONE3 = 435;
const SECCOMP = { x86_64: 317, aarch64: 277 };
/** seccomp(2)'s SECCOMP_SET_MODE_FILTER and SECCOMP_FILTER_FLAG_NEW_LISTENER. */
const SECCOMP_SET_MODE_FILTER = 1;
const SECCOMP_FILTER_FLAG_NEW_LISTENER = 8;
/**
 * The newest system call the process observer (strace 6.1, Debian 12's) knows by name is
 * set_mempolicy_home_node (450); later ones are refused with ENOSYS (see above).
 */
const NEWEST_KNOWN_SYSCALL = 450;
const AUDIT_ARCH = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };
const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_TRACE = 0x7ff00000;
const RET_ERRNO = 0x00050000;
const ENOSYS = 38;
const EPERM = 1;
/** offsetof(struct seccomp_data, nr) and (…, arch). */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** Low 32 bits of args[0] and args[1] (little-endian). */
const OFFSET_ARG0 = 16;
const OFFSET_ARG1 = 24;
function jailArch(arch = process.arch) {
    if (arch === "x64")
        return "x86_64";
    if (arch === "arm64")
        return "aarch64";
    return null;
}
function forbiddenNumbers(arch) {
    const out = new Map();
    for (const [name, x86, arm] of TABLE) {
        const nr = arch === "x86_64" ? x86 : arm;
        if (nr !== null)
            out.set(nr, name);
    }
    return out;
}
/** The filter program: `struct sock_filter[]`, little-endian, as bwrap --seccomp reads it. */
function seccompProgram(arch, forbiddenAction = "trace") {
    const program = [];
    const forbidden = [...forbiddenNumbers(arch).keys()];
    program.push([BPF_LD_W_ABS, 0, 0, OFFSET_ARCH]);
    program.push([BPF_JEQ_K, 1, 0, AUDIT_ARCH[arch]]);
    program.push([BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS]);
    program.push([BPF_LD_W_ABS, 0, 0, OFFSET_NR]);
    program.push([BPF_JEQ_K, 0, 1, CLONE3]);
    program.push([BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS]);
    // A filter of the command's own with a user-notification listener outranks TRACE: its
    // supervisor could let calls run that strace never stops on. Refused (EPERM).
    program.push([BPF_JEQ_K, 0, 6, SECCOMP[arch]]); // not seccomp: on, with nr still loaded
    program.push([BPF_LD_W_ABS, 0, 0, OFFSET_ARG0]);
    program.push([BPF_JEQ_K, 0, 3, SECCOMP_SET_MODE_FILTER]); // another operation: reload nr
    program.push([BPF_LD_W_ABS, 0, 0, OFFSET_ARG1]);
    program.push([BPF_JSET_K, 0, 1, SECCOMP_FILTER_FLAG_NEW_LISTENER]);
    program.push([BPF_RET_K, 0, 0, RET_ERRNO | EPERM]);
    program.push([BPF_LD_W_ABS, 0, 0, OFFSET_NR]);
    program.push([BPF_JGE_K, 0, 1, NEWEST_KNOWN_SYSCALL + 1]);
    program.push([BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS]);
    for (const [, x86, arm] of ABSENT) {
        program.push([BPF_JEQ_K, 0, 1, arch === "x86_64" ? x86 : arm]);
        program.push([BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS]);
    }
    for (const nr of forbidden) {
        program.push([BPF_JEQ_K, 0, 1, nr]);
        program.push([BPF_RET_K, 0, 0, forbiddenAction === "trace" ? RET_TRACE : RET_ERRNO | EPERM]);
    }
    program.push([BPF_RET_K, 0, 0, RET_ALLOW]);
    const bytes = Buffer.alloc(program.length * 8);
    program.forEach(([code, jt, jf, k], i) => {
        bytes.writeUInt16LE(code, i * 8);
        bytes.writeUInt8(jt, i * 8 + 2);
        bytes.writeUInt8(jf, i * 8 + 3);
        bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
    });
    return bytes;
}

// EXTERNAL MODULE: ./src/core/protected.ts
var core_protected = __webpack_require__(1085);
;// CONCATENATED MODULE: ./src/observer/protected.ts
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







const GIT_ENV = "ENVELOPE_GATE_GIT";
/** Files the product ships, protected when its install directory holds the workspace (`uses: ./` on its own repository). */
const PRODUCT_FILES = ["action.yml", "action.yaml", "dist", "package.json"];
function under(path, dirs) {
    return (0,core_paths/* isInsideAnyRoot */.Jk)(path, dirs);
}
/** Keeps the outermost of nested paths. */
function outermost(paths) {
    const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
    const out = [];
    for (const p of sorted)
        if (!under(p, out))
            out.push(p);
    return out;
}
/** Pure: what the jail binds read-only, and what the log records as protected. */
function planProtected(inputs, facts) {
    const judged = new Set();
    for (const p of [...facts.gitEntries, ...facts.gitDirs])
        judged.add(p);
    judged.add((0,external_node_path_.join)(inputs.workspace, ".github"));
    for (const dir of inputs.actionDirs) {
        if ((0,core_paths/* isInsideRoot */.Xj)(inputs.workspace, dir))
            for (const f of PRODUCT_FILES)
                judged.add((0,external_node_path_.join)(dir, f));
        else
            judged.add(dir);
    }
    const gitPaths = [...facts.gitEntries, ...facts.gitDirs];
    inputs.writableProtected.forEach((entry, i) => {
        const git = (0,core_protected/* containsAny */.kc)(entry, gitPaths);
        if (git !== null) {
            const line = inputs.writableLines[i] ?? 1;
            throw new errors/* Refusal */.P_("ENVELOPE_INVALID", `${inputs.envelopeFile}:${line}: writable_protected "${entry}" contains the git directory ${git}, whose hooks and config are never writable`, {
                file: inputs.envelopeFile,
                line,
                hint: "Name the one directory the suite must write (e.g. ${WORKSPACE}/.github/generated), not one that holds a .git.",
            });
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
function protectedMountArgs(plan, hidden, emptyDir, emptyFile) {
    const args = [];
    for (const p of plan.readOnly)
        args.push("--ro-bind", p, p);
    for (const d of plan.emptyDirs)
        args.push("--ro-bind", emptyDir, d);
    for (const w of plan.writable)
        args.push("--bind", w, w);
    for (const c of hidden.configs)
        args.push("--ro-bind", c.copy, c.path);
    // An empty regular file, not /dev/null: bubblewrap binds with nodev, and git must still read the include as empty.
    for (const m of hidden.masked)
        args.push("--ro-bind", emptyFile, m);
    return args;
}
/** Whether the jail refuses writes at a path inside a root (the strace parser's "writable" must say no). */
function enforcedReadOnly(plan, hidden, path) {
    if (under(path, plan.writable))
        return false;
    return under(path, plan.readOnly) || under(path, plan.emptyDirs) || hidden.configs.some((c) => c.path === path);
}
// ---------------------------------------------------------------------------------------------
// Discovery (I/O)
function realOrNull(path) {
    try {
        return (0,external_node_fs_.realpathSync)(path);
    }
    catch {
        return null;
    }
}
/** The git the wrapper uses to read indexes and config files: never the repository's hooks or fsmonitor. */
function findGit(pathValue, resolveExecutable) {
    const configured = process.env[GIT_ENV];
    return resolveExecutable(configured ?? "git", pathValue);
}
const GIT_SAFE = ["-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "safe.directory=*", "--no-optional-locks"];
function gitEnv() {
    return {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: "/nonexistent",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        LC_ALL: "C",
    };
}
function unavailable(message, cause) {
    return new errors/* Refusal */.P_("PROTECTED_PATHS_UNAVAILABLE", message, {
        hint: "The wrapper reads the repository's index with git to find submodules before the run (ENVELOPE_GATE_GIT names the binary). Install git, or fix the repository; the run does not start without its protected paths.",
        cause,
    });
}
function runGit(git, args, what) {
    if (git === null)
        throw unavailable(`cannot ${what}: git was not found${process.env[GIT_ENV] !== undefined ? ` at ${process.env[GIT_ENV]}` : " on PATH"}`);
    const r = (0,external_node_child_process_.spawnSync)(git, [...GIT_SAFE, ...args], { encoding: "utf8", env: gitEnv(), maxBuffer: 256 * 1024 * 1024, timeout: 120_000 });
    if (r.status !== 0) {
        const why = (r.stderr || r.error?.message || `exit ${String(r.status ?? r.signal)}`).trim().split("\n")[0];
        throw unavailable(`cannot ${what}: ${git} failed (${why})`, r.error);
    }
    return r.stdout;
}
/** The path a `.git` file points at (`gitdir: X`), resolved from the file's directory. */
function gitFileTarget(file) {
    let text;
    try {
        text = (0,external_node_fs_.readFileSync)(file, "utf8");
    }
    catch (err) {
        throw unavailable(`cannot read the git file ${file} (${(0,errors/* errnoOf */.UQ)(err) ?? String(err)})`, err);
    }
    const m = /^gitdir: (.+?)\r?\n?$/m.exec(text);
    if (m === null)
        throw unavailable(`the git file ${file} does not name a gitdir ("gitdir: <path>")`);
    return (0,external_node_path_.resolve)((0,external_node_path_.dirname)(file), m[1]);
}
/**
 * Finds the `.git` entries of the workspace and of every root, the gitdirs their `.git` files
 * point at, the worktrees' `.git` files, and the submodules registered in each index (populated
 * ones are followed; unpopulated ones are reported).
 */
function discoverProtected(inputs) {
    const exempt = (0,core_protected/* gitExemptFor */.Pw)(inputs.workspace, inputs.scratch);
    const gitEntries = new Set();
    const protectedGitDirs = new Set();
    const allGitDirs = new Set();
    const unpopulated = new Set();
    const existing = new Set();
    const visited = new Set();
    const inRoots = (p) => (0,core_paths/* isInsideAnyRoot */.Jk)(p, inputs.roots);
    const noteGitDir = (dir) => {
        allGitDirs.add(dir);
        if (inRoots(dir)) {
            protectedGitDirs.add(dir);
            existing.add(dir);
        }
        // A linked worktree's gitdir names the common directory it shares.
        const common = (0,external_node_path_.join)(dir, "commondir");
        if (exists(common)) {
            const target = realOrNull((0,external_node_path_.resolve)(dir, (0,external_node_fs_.readFileSync)(common, "utf8").trim()));
            if (target !== null && !allGitDirs.has(target))
                noteGitDir(target);
        }
        // Worktrees of this repository: their `.git` files.
        let names;
        try {
            names = (0,external_node_fs_.readdirSync)((0,external_node_path_.join)(dir, "worktrees"));
        }
        catch {
            names = [];
        }
        for (const name of names) {
            let pointer;
            try {
                pointer = (0,external_node_fs_.readFileSync)((0,external_node_path_.join)(dir, "worktrees", name, "gitdir"), "utf8").trim();
            }
            catch {
                continue;
            }
            const real = realOrNull(pointer);
            if (real !== null && inRoots(real)) {
                gitEntries.add(real);
                existing.add(real);
            }
        }
    };
    const examine = (repo, depth) => {
        if (depth > 32 || visited.has(repo))
            return;
        visited.add(repo);
        const entry = (0,external_node_path_.join)(repo, ".git");
        let st;
        try {
            st = (0,external_node_fs_.lstatSync)(entry);
        }
        catch {
            return;
        }
        const real = realOrNull(entry) ?? entry;
        for (const p of new Set([entry, real])) {
            if (inRoots(p)) {
                gitEntries.add(p);
                existing.add(p);
            }
        }
        let gitDir;
        if (st.isSymbolicLink() ? (0,external_node_fs_.lstatSync)(real).isDirectory() : st.isDirectory())
            gitDir = real;
        else {
            const target = realOrNull(gitFileTarget(real));
            if (target === null)
                return;
            gitDir = target;
        }
        noteGitDir(gitDir);
        // Other checkouts inside this one (actions/checkout with `path:`): untracked directories
        // holding a `.git`, which git lists without entering them.
        const untracked = runGit(inputs.git, ["-C", repo, "ls-files", "-z", "--others", "--directory"], `list the nested checkouts of ${repo}`);
        for (const record of untracked.split("\0")) {
            if (!record.endsWith("/"))
                continue;
            const dir = (0,external_node_path_.join)(repo, record.slice(0, -1));
            if (exists((0,external_node_path_.join)(dir, ".git")))
                examine(dir, depth + 1);
        }
        // Submodules (gitlinks, mode 160000) registered in the index.
        const listing = runGit(inputs.git, ["-C", repo, "ls-files", "--stage", "-z"], `list the submodules of ${repo}`);
        for (const record of listing.split("\0")) {
            const m = /^160000 [0-9a-f]+ \d\t(.+)$/s.exec(record);
            if (m === null)
                continue;
            const dir = (0,external_node_path_.join)(repo, m[1]);
            if (exists((0,external_node_path_.join)(dir, ".git"))) {
                examine(dir, depth + 1);
                continue;
            }
            // Only where the path has no symlink in it: bubblewrap would follow one when it binds.
            let probe = dir;
            while (!exists(probe))
                probe = (0,external_node_path_.dirname)(probe);
            if (realOrNull(probe) !== probe)
                continue;
            if (probe === dir) {
                let entries;
                try {
                    entries = (0,external_node_fs_.readdirSync)(dir);
                }
                catch {
                    continue;
                }
                if (entries.length > 0 || !(0,external_node_fs_.lstatSync)(dir).isDirectory())
                    continue;
                existing.add(dir);
            }
            unpopulated.add(dir);
        }
    };
    const candidates = new Set([
        inputs.workspace,
        ...inputs.roots.filter((r) => !(0,core_paths/* isInsideAnyRoot */.Jk)(r, exempt)),
        ...inputs.extra.filter(inRoots),
    ]);
    for (const repo of candidates) {
        const real = realOrNull(repo);
        if (real !== null)
            examine(real, 0);
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
function noteExisting(facts, paths) {
    const existing = new Set(facts.existing);
    for (const p of paths)
        if (exists(p))
            existing.add(p);
    return { ...facts, existing };
}
const HTTP_USERINFO = /^(https?|ftps?):\/\/[^/@?#]+@/i;
/** `scheme://user:token@host/...` -> `scheme://host/...` (only for the web schemes: an ssh user names no secret). */
function stripUserinfo(url) {
    return url.replace(/^((?:https?|ftps?):\/\/)[^/@?#]+@/i, "$1");
}
/** Parses `git config --list -z` output: records split by NUL, key and value by the first newline. */
function parseConfigList(text) {
    return text
        .split("\0")
        .filter((r) => r !== "")
        .map((r) => {
        const nl = r.indexOf("\n");
        return nl === -1 ? { key: r, value: "" } : { key: r.slice(0, nl), value: r.slice(nl + 1) };
    });
}
/** Pure: what in one config file carries, or points at, credentials. */
function credentialFindings(entries) {
    const out = { unset: [], rewrite: [], removeSections: [], referenced: [] };
    const rewrite = new Map();
    for (const { key, value } of entries) {
        const lower = key.toLowerCase();
        const section = lower.slice(0, lower.indexOf("."));
        const name = lower.slice(lower.lastIndexOf(".") + 1);
        if (section === "http" && name === "extraheader") {
            if (!out.unset.includes(key))
                out.unset.push(key);
        }
        else if (section === "url" && (name === "insteadof" || name === "pushinsteadof")) {
            const base = key.slice(4, key.lastIndexOf("."));
            if (HTTP_USERINFO.test(base) && !out.removeSections.includes(`url.${base}`))
                out.removeSections.push(`url.${base}`);
        }
        else if (HTTP_USERINFO.test(value)) {
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
                if (file !== null)
                    out.referenced.push({ kind: "store", path: (file[1] ?? file[2] ?? file[3]) });
            }
        }
        if (section === "http" && name === "cookiefile" && value !== "")
            out.referenced.push({ kind: "store", path: value });
    }
    for (const [key, values] of rewrite) {
        // Every value of the key, in order: a multi-valued key is unset whole and added back.
        const all = entries.filter((e) => e.key === key).map((e) => e.value);
        out.rewrite.push({ key, values: all.length > 0 ? all : values });
    }
    return out;
}
function hasCredentials(f) {
    return f.unset.length > 0 || f.rewrite.length > 0 || f.removeSections.length > 0;
}
/** A config without any of these names no credential and includes nothing (git's keys are case-insensitive). */
const MAY_CARRY_CREDENTIALS = /extraheader|:\/\/[^\s/@]*@|include|store|cookiefile/i;
function notHidden(message, cause) {
    return new errors/* Refusal */.P_("GIT_CREDENTIALS_UNCHECKED", message, {
        hint: "The jail must not see the job's token, and this git config could not be read or cleaned of it. Fix the file, or check out with persist-credentials: false.",
        cause,
    });
}
function listConfig(git, file) {
    if (git === null)
        throw notHidden(`cannot read the git config ${file}: git was not found`);
    const r = (0,external_node_child_process_.spawnSync)(git, ["config", "--file", file, "--list", "-z"], { encoding: "utf8", env: gitEnv(), timeout: 60_000 });
    if (r.status !== 0) {
        const why = (r.stderr || r.error?.message || `exit ${String(r.status ?? r.signal)}`).trim().split("\n")[0];
        throw notHidden(`cannot read the git config ${file} (${why}): it may carry credentials the jail would see`, r.error);
    }
    return parseConfigList(r.stdout);
}
function editConfig(git, file, args) {
    const r = (0,external_node_child_process_.spawnSync)(git, ["config", "--file", file, ...args], { encoding: "utf8", env: gitEnv(), timeout: 60_000 });
    if (r.status !== 0 && r.status !== 5) {
        throw notHidden(`cannot remove credentials from a copy of a git config (${(r.stderr || `exit ${String(r.status)}`).trim()})`);
    }
}
/** The config files git reads for a repository (its gitdir's, its common dir's, nested submodule gitdirs'). */
function repositoryConfigs(gitDirs) {
    const out = new Set();
    // modules/<name>: a submodule's gitdir (it has a HEAD), whose name may itself hold slashes.
    const walkModules = (dir, depth) => {
        if (depth > 16)
            return;
        let names;
        try {
            names = (0,external_node_fs_.readdirSync)(dir);
        }
        catch {
            return;
        }
        for (const name of names) {
            const sub = (0,external_node_path_.join)(dir, name);
            if (exists((0,external_node_path_.join)(sub, "HEAD"))) {
                for (const f of ["config", "config.worktree"])
                    if (exists((0,external_node_path_.join)(sub, f)))
                        out.add((0,external_node_path_.join)(sub, f));
                walkModules((0,external_node_path_.join)(sub, "modules"), depth + 1);
            }
            else
                walkModules(sub, depth + 1);
        }
    };
    for (const g of gitDirs) {
        for (const f of ["config", "config.worktree"])
            if (exists((0,external_node_path_.join)(g, f)))
                out.add((0,external_node_path_.join)(g, f));
        walkModules((0,external_node_path_.join)(g, "modules"), 0);
        let names;
        try {
            names = (0,external_node_fs_.readdirSync)((0,external_node_path_.join)(g, "worktrees"));
        }
        catch {
            names = [];
        }
        for (const n of names)
            if (exists((0,external_node_path_.join)(g, "worktrees", n, "config.worktree")))
                out.add((0,external_node_path_.join)(g, "worktrees", n, "config.worktree"));
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
function hideCredentials(inputs) {
    const configs = [];
    const masked = new Set();
    const homeFiles = inputs.homes.flatMap((h) => [(0,external_node_path_.join)(h, ".gitconfig"), (0,external_node_path_.join)(h, ".config", "git", "config")]);
    const xdgValue = process.env.XDG_CONFIG_HOME;
    const xdg = xdgValue !== undefined && inputs.homes.some((h) => (0,core_paths/* isInsideRoot */.Xj)(xdgValue, h)) ? xdgValue : undefined;
    if (xdg !== undefined)
        homeFiles.push((0,external_node_path_.join)(xdg, "git", "config"));
    const queue = [...repositoryConfigs(inputs.gitDirs), ...homeFiles, "/etc/gitconfig"]
        .filter(exists)
        .map((file) => ({ file, depth: 0 }));
    // Credential stores git reads by default, whatever the helper: covered wherever they exist.
    for (const h of inputs.homes)
        for (const f of [(0,external_node_path_.join)(h, ".git-credentials"), (0,external_node_path_.join)(h, ".config", "git", "credentials")])
            if (exists(f))
                masked.add(realOrNull(f) ?? f);
    if (xdg !== undefined && exists((0,external_node_path_.join)(xdg, "git", "credentials")))
        masked.add((0,external_node_path_.join)(xdg, "git", "credentials"));
    const seen = new Set();
    (0,external_node_fs_.mkdirSync)(inputs.copyDir, { recursive: true, mode: 0o700 });
    while (queue.length > 0) {
        const { file, depth } = queue.shift();
        if (seen.has(file) || depth > 10)
            continue;
        seen.add(file);
        let isFile;
        try {
            isFile = (0,external_node_fs_.lstatSync)(file).isFile();
        }
        catch {
            continue;
        }
        if (!isFile)
            continue;
        // Nothing in it that could carry or point at a credential: no need for git to parse it.
        let text;
        try {
            text = (0,external_node_fs_.readFileSync)(file, "latin1");
        }
        catch (err) {
            throw notHidden(`cannot read the git config ${file} (${(0,errors/* errnoOf */.UQ)(err) ?? String(err)})`, err);
        }
        if (!MAY_CARRY_CREDENTIALS.test(text))
            continue;
        const findings = credentialFindings(listConfig(inputs.git, file));
        for (const ref of findings.referenced) {
            const path = ref.path.startsWith("~/") && inputs.home !== undefined ? (0,external_node_path_.join)(inputs.home, ref.path.slice(2)) : (0,external_node_path_.resolve)((0,external_node_path_.dirname)(file), ref.path);
            const real = realOrNull(path);
            if (real === null)
                continue;
            if (ref.kind === "store")
                masked.add(real);
            else
                queue.push({ file: real, depth: depth + 1 });
        }
        if (!hasCredentials(findings))
            continue;
        // An include file that carries credentials is only ever read for them (checkout's
        // git-credentials-<uuid>.config): covered whole. A repository's own config is cleaned.
        if (depth > 0) {
            masked.add(file);
            continue;
        }
        const git = inputs.git;
        const copy = (0,external_node_path_.join)(inputs.copyDir, `config-${configs.length}`);
        (0,external_node_fs_.copyFileSync)(file, copy);
        for (const key of findings.unset)
            editConfig(git, copy, ["--unset-all", key]);
        for (const section of findings.removeSections)
            editConfig(git, copy, ["--remove-section", section]);
        for (const { key, values } of findings.rewrite) {
            editConfig(git, copy, ["--unset-all", key]);
            for (const v of values)
                editConfig(git, copy, ["--add", key, stripUserinfo(v)]);
        }
        if (hasCredentials(credentialFindings(listConfig(inputs.git, copy)))) {
            throw notHidden(`the sanitized copy of ${file} still carries credentials`);
        }
        configs.push({ path: file, copy });
    }
    return { configs, masked: [...masked].filter((m) => !configs.some((c) => c.path === m)).sort() };
}
/** The product's own install directory: the package that holds this bundle (dist/<entry>/index.js). */
function productInstallDir(moduleDir) {
    const root = (0,core_paths/* foldPath */.tu)((0,external_node_path_.resolve)(moduleDir, "..", ".."));
    return root === null ? null : realOrNull(root);
}
/** Everything the run needs about protected paths and credentials, found before the jail is planned. */
function prepareProtected(inputs) {
    const actionDirs = [...new Set(inputs.actionDirs.map((d) => realOrNull(d)).filter((d) => d !== null))];
    const repos = discoverProtected({
        roots: inputs.roots,
        workspace: inputs.workspace,
        scratch: inputs.scratch,
        git: inputs.git,
        extra: actionDirs,
    });
    const productFiles = actionDirs.flatMap((d) => PRODUCT_FILES.map((f) => (0,external_node_path_.join)(d, f)));
    const facts = noteExisting(repos.facts, [(0,external_node_path_.join)(inputs.workspace, ".github"), ...actionDirs, ...productFiles, ...inputs.writableProtected]);
    const plan = planProtected({
        roots: inputs.roots,
        workspace: inputs.workspace,
        scratch: inputs.scratch,
        actionDirs,
        writableProtected: inputs.writableProtected,
        envelopeFile: inputs.envelope.file,
        writableLines: inputs.writableProtected.map((_, i) => inputs.envelope.lines.get(`/writable_protected/${i}`)),
    }, facts);
    const dir = (0,external_node_path_.join)(inputs.privateDir, "protected");
    const hidden = hideCredentials({
        git: inputs.git,
        gitDirs: repos.gitDirs,
        // Elsewhere HOME is the run's own, in the scratch (jail.ts): the runner's files are out of sight.
        homes: homes().filter((h) => (0,core_paths/* isInsideAnyRoot */.Jk)(h, inputs.roots)),
        home: homes()[0],
        copyDir: (0,external_node_path_.join)(dir, "configs"),
    });
    const emptyDir = (0,external_node_path_.join)(dir, "empty");
    (0,external_node_fs_.mkdirSync)(emptyDir, { recursive: true, mode: 0o755 });
    const emptyFile = (0,external_node_path_.join)(dir, "empty-file");
    (0,external_node_fs_.writeFileSync)(emptyFile, "", { mode: 0o444 });
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

// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(8500);
;// CONCATENATED MODULE: ./src/core/effects.ts
/**
 * Effects, checked on the filesystem (issue 29, docs/observer.md "The effects check"). Pure: the
 * filesystem is read through `EffectsFs` (src/observer/effects.ts gives the real one).
 *
 * The recorders record what a program asked; the kernel may have done something else (a `..`
 * after a symlink, a path rewritten while the call ran, a cwd another process moved). What later
 * unjailed steps trust are the protected entries inside the roots, so those are looked at where
 * the kernel left them: before the command runs and again after its jail is gone.
 *
 *   takeSnapshot (before): walks the roots, recording every directory (identity and ctime) and
 *     every protected entry (`.git`, `.gitmodules`, `.github`, and everything inside a protected
 *     directory or a recorded protected path).
 *   recheck (after): re-stats the known directories; reads only those whose identity or ctime
 *     changed (adding, removing or renaming an entry sets the parent's ctime to now, and no call
 *     sets a ctime back), walks whole any directory that is new, and re-stats every known
 *     protected entry.
 *   compareSnapshots: what is new, gone, replaced (type or identity) or changed (ctime, mtime,
 *     size of a file or symlink); a change inside a new or gone directory is that directory's.
 */


const join = (dir, name) => (dir === "/" ? `/${name}` : `${dir}/${name}`);
const baseName = (path) => path.slice(path.lastIndexOf("/") + 1);
const parentOf = (path) => {
    const i = path.lastIndexOf("/");
    return i <= 0 ? "/" : path.slice(0, i);
};
/** The roots to walk: each outermost root not inside an exempt area. */
function effectsRoots(scope) {
    const sorted = [...new Set(scope.roots)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    const out = [];
    for (const r of sorted)
        if (!(0,core_paths/* isInsideAnyRoot */.Jk)(r, scope.exempt) && !(0,core_paths/* isInsideAnyRoot */.Jk)(r, out))
            out.push(r);
    return out;
}
/** Whether `path` (below `root`) is protected by its name or lies inside a protected name or recorded path. */
function isProtectedEntryPath(path, root, protectedPaths) {
    return isInsideAnyRoot(path, protectedPaths) || hasProtectedSegmentBelow(path, root);
}
class Walker {
    fs;
    scope;
    dirs;
    entries;
    constructor(fs, scope, dirs, entries) {
        this.fs = fs;
        this.scope = scope;
        this.dirs = dirs;
        this.entries = entries;
    }
    /** Records `path` (already lstat'ed as `stat`) and, for a directory, everything below it. */
    walk(path, stat, prot) {
        if (prot)
            this.entries.set(path, stat);
        if (stat.type !== "dir")
            return;
        const stack = [{ path, stat, prot }];
        while (stack.length > 0) {
            const d = stack.pop();
            this.dirs.set(d.path, { stat: d.stat, prot: d.prot });
            for (const e of this.fs.readdir(d.path)) {
                const child = join(d.path, e.name);
                const childProt = d.prot || core_protected/* PROTECTED_NAMES */.MO.has(e.name) || (0,core_paths/* isInsideAnyRoot */.Jk)(child, this.scope.protectedPaths);
                if (e.dir && (0,core_paths/* isInsideAnyRoot */.Jk)(child, this.scope.exempt))
                    continue;
                if (!e.dir && !childProt)
                    continue;
                const st = this.fs.lstat(child);
                // Gone between the listing and the look: nothing is there.
                if (st === null)
                    continue;
                if (childProt)
                    this.entries.set(child, st);
                if (st.type === "dir")
                    stack.push({ path: child, stat: st, prot: childProt });
            }
        }
    }
    /** A root: walked whole when it is there. Returns false when it is not. */
    root(root) {
        const st = this.fs.lstat(root);
        if (st === null)
            return false;
        this.walk(root, st, (0,core_paths/* isInsideAnyRoot */.Jk)(root, this.scope.protectedPaths) || core_protected/* PROTECTED_NAMES */.MO.has(baseName(root)));
        return true;
    }
}
/** Before the command: every directory of the roots and every protected entry in them. */
function takeSnapshot(fs, scope) {
    const walker = new Walker(fs, scope, new Map(), new Map());
    const walked = effectsRoots(scope);
    const missing = walked.filter((r) => !walker.root(r));
    return { scope, walked, missing, dirs: walker.dirs, entries: walker.entries };
}
/**
 * After the command: the protected entries as they are now, reading only what can have changed.
 * A known directory with the same identity and ctime has the same names in it (its protected
 * entries are re-stat'ed, for changes in place); one whose ctime moved is listed again; a directory
 * not known before (or known under another identity) is walked whole.
 */
function recheck(fs, before) {
    const scope = before.scope;
    const walker = new Walker(fs, scope, new Map(), new Map());
    const unchanged = new Set();
    const changed = [];
    for (const [path, rec] of before.dirs) {
        const now = fs.lstat(path);
        if (now === null || now.type !== "dir")
            continue;
        if (now.id === rec.stat.id && now.ctime === rec.stat.ctime) {
            unchanged.add(path);
            walker.dirs.set(path, { stat: now, prot: rec.prot });
            if (rec.prot)
                walker.entries.set(path, now);
        }
        else
            changed.push(path);
    }
    // Parents first: a directory walked whole is not listed again.
    changed.sort();
    for (const path of changed) {
        if (walker.dirs.has(path))
            continue;
        const rec = before.dirs.get(path);
        const now = fs.lstat(path);
        if (now === null || now.type !== "dir")
            continue;
        if (now.id !== rec.stat.id) {
            walker.walk(path, now, rec.prot);
            continue;
        }
        walker.dirs.set(path, { stat: now, prot: rec.prot });
        if (rec.prot)
            walker.entries.set(path, now);
        for (const e of fs.readdir(path)) {
            const child = join(path, e.name);
            const childProt = rec.prot || core_protected/* PROTECTED_NAMES */.MO.has(e.name) || (0,core_paths/* isInsideAnyRoot */.Jk)(child, scope.protectedPaths);
            if (e.dir && (0,core_paths/* isInsideAnyRoot */.Jk)(child, scope.exempt))
                continue;
            if (!e.dir && !childProt)
                continue;
            const known = before.dirs.get(child);
            const st = fs.lstat(child);
            if (st === null)
                continue;
            if (st.type === "dir") {
                // Known under the same identity: its own ctime says whether it changed (the loops above).
                if (known !== undefined && known.stat.id === st.id) {
                    if (childProt)
                        walker.entries.set(child, st);
                    continue;
                }
                walker.walk(child, st, childProt);
            }
            else if (childProt)
                walker.entries.set(child, st);
        }
    }
    // Protected entries in directories that did not change: the same names, perhaps changed in place.
    for (const path of before.entries.keys()) {
        if (walker.entries.has(path) || !unchanged.has(parentOf(path)))
            continue;
        const st = fs.lstat(path);
        if (st === null)
            continue;
        // A directory that is not one of the known ones (the loops above saw those): walked whole.
        if (st.type === "dir" && !walker.dirs.has(path))
            walker.walk(path, st, true);
        else
            walker.entries.set(path, st);
    }
    // A root that was missing and is there now.
    for (const r of before.missing)
        if (!walker.dirs.has(r))
            walker.root(r);
    return {
        scope,
        walked: before.walked,
        missing: before.missing.filter((r) => !walker.dirs.has(r)),
        dirs: walker.dirs,
        entries: walker.entries,
    };
}
/** What differs between two snapshots' protected entries, in path order, each under the outermost new or gone directory. */
function compareSnapshots(before, after) {
    const out = [];
    const paths = [...new Set([...before.entries.keys(), ...after.entries.keys()])].sort();
    const covering = [];
    for (const path of paths) {
        if ((0,core_paths/* isInsideAnyRoot */.Jk)(path, covering))
            continue;
        const b = before.entries.get(path);
        const a = after.entries.get(path);
        const change = compareEntry(path, b, a);
        if (change === null)
            continue;
        out.push(change);
        // Everything inside a directory that is new, gone or another one is that directory's change.
        if (change.op !== "write" && (a?.type === "dir" || b?.type === "dir"))
            covering.push(path);
    }
    return out;
}
function compareEntry(path, b, a) {
    if (b === undefined && a === undefined)
        return null;
    if (b === undefined)
        return { path, op: a?.type === "dir" ? "mkdir" : "create", why: "new" };
    if (a === undefined)
        return { path, op: "delete", why: "gone" };
    if (a.type !== b.type)
        return { path, op: a.type === "dir" ? "mkdir" : "create", why: `type ${b.type} -> ${a.type}` };
    if (a.id !== b.id)
        return { path, op: a.type === "dir" ? "mkdir" : "create", why: "identity" };
    // A directory's own times move with its entries, which are compared one by one.
    if (a.type === "dir")
        return null;
    const why = ["ctime", "mtime", "size"].filter((k) => a[k] !== b[k]);
    return why.length === 0 ? null : { path, op: "write", why: why.join(",") };
}

;// CONCATENATED MODULE: ./src/observer/effects.ts
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




/**
 * A directory's ctime is the kernel's coarse clock (one tick: 1 to 10 ms). The command starts at
 * least this long after the snapshot ended, so a change it makes cannot carry the ctime seen.
 */
const CLOCK_TICK_MARGIN_MS = 25;
const toBytes = (utf8) => Buffer.from(utf8, "utf8").toString("latin1");
const fromBytes = (bytes) => Buffer.from(bytes, "latin1").toString("utf8");
const fsPath = (bytes) => Buffer.from(bytes, "latin1");
function unchecked(what, path, err) {
    return new errors/* Refusal */.P_("OBSERVER_EFFECTS_UNCHECKED", `the effects check cannot ${what} ${fromBytes(path)} (${(0,errors/* errnoOf */.UQ)(err) ?? String(err)})`, {
        hint: "Every directory of the allowed roots (outside the scratch) must stay readable by the user that runs envelope-gate: a directory it cannot read could hold a new .git. Remove or fix the directory and run again.",
        cause: err,
    });
}
function typeOf(st) {
    if (st.isDirectory())
        return "dir";
    if (st.isFile())
        return "file";
    if (st.isSymbolicLink())
        return "symlink";
    return "other";
}
/** The real filesystem, for the core's walker. */
const REAL_EFFECTS_FS = {
    lstat(path) {
        let st;
        try {
            st = (0,external_node_fs_.lstatSync)(fsPath(path), { bigint: true, throwIfNoEntry: false });
        }
        catch (err) {
            if ((0,errors/* errnoOf */.UQ)(err) === "ENOTDIR")
                return null;
            throw unchecked("examine", path, err);
        }
        if (st === undefined)
            return null;
        return {
            type: typeOf(st),
            id: `${st.dev}:${st.ino}`,
            ctime: String(st.ctimeNs),
            mtime: String(st.mtimeNs),
            size: String(st.size),
        };
    },
    readdir(path) {
        try {
            return (0,external_node_fs_.readdirSync)(fsPath(path), { withFileTypes: true, encoding: "buffer" }).map((d) => ({
                name: d.name.toString("latin1"),
                dir: d.isDirectory(),
            }));
        }
        catch (err) {
            throw unchecked("list", path, err);
        }
    },
};
function realOrSame(path) {
    try {
        return (0,external_node_fs_.realpathSync)(path);
    }
    catch (err) {
        if ((0,errors/* errnoOf */.UQ)(err) === "ENOENT" || (0,errors/* errnoOf */.UQ)(err) === "ENOTDIR")
            return path;
        throw unchecked("resolve", toBytes(path), err);
    }
}
/** Before the command stage: the roots' protected entries and directories (scope in UTF-8, as meta has it). */
function watchEffects(scope, fs = REAL_EFFECTS_FS) {
    const bytes = {
        // A root the jail binds is its target: walked there (a root not yet there is looked for as named).
        roots: scope.roots.map((r) => toBytes(realOrSame(r))),
        exempt: scope.exempt.map(toBytes),
        protectedPaths: scope.protectedPaths.map(toBytes),
    };
    const before = takeSnapshot(fs, bytes);
    return { before, readyAt: Date.now() + CLOCK_TICK_MARGIN_MS };
}
/** Waits until the command may start. */
async function effectsReady(watch) {
    const wait = watch.readyAt - Date.now();
    if (wait > 0)
        await (0,promises_.setTimeout)(wait);
}
/** After the jail is gone: what changed, as log lines (`write`, `source: "effects"`). */
function effectsFound(watch, fs = REAL_EFFECTS_FS) {
    const after = recheck(fs, watch.before);
    return compareSnapshots(watch.before, after).map((c) => ({
        kind: "write",
        ts: Date.now(),
        source: "effects",
        path: fromBytes(c.path),
        op: c.op,
    }));
}

;// CONCATENATED MODULE: ./src/observer/recorder.ts
/**
 * Which process recorder runs: the eBPF recorder (docs/recorder-protocol.md) or strace. The
 * choice is made once per `run`, before meta, so the canary stage and the command stage use the
 * same recorder and meta.recorder says which one that was.
 */





const RECORDERS = ["auto", "ebpf", "strace"];
const RECORDER_ENV = "ENVELOPE_GATE_RECORDER";
const RECORDER_BINARY_ENV = "ENVELOPE_GATE_RECORDER_BINARY";
/** How long the recorder may take to load and attach its programs before it counts as unable to start. */
const RECORDER_START_MS = 30_000;
function parseRecorderChoice(value, source) {
    if (RECORDERS.includes(value))
        return value;
    throw new errors/* Refusal */.P_("CONFIG_INVALID", `${source} must be auto, ebpf or strace, got "${value}"`, {
        hint: "auto runs the eBPF recorder when it can start and strace otherwise; ebpf refuses when it cannot start.",
    });
}
/** The CLI flag wins over the environment; neither means auto. */
function recorderChoice(flag, env = process.env) {
    if (flag !== undefined)
        return parseRecorderChoice(flag, "--recorder");
    const fromEnv = env[RECORDER_ENV];
    if (fromEnv !== undefined && fromEnv !== "")
        return parseRecorderChoice(fromEnv, RECORDER_ENV);
    return "auto";
}
function recorderFileName(arch) {
    return `envelope-gate-recorder-${arch}`;
}
/**
 * The recorder binary: ENVELOPE_GATE_RECORDER_BINARY, else beside the running bundle
 * (dist/cli/index.js -> dist/recorder/), else, running from src (tests), the repository's dist/.
 */
function recorderBinaryPath(arch, env = process.env, here = moduleDir()) {
    const configured = env[RECORDER_BINARY_ENV];
    if (configured !== undefined && configured !== "")
        return configured;
    const name = recorderFileName(arch);
    const candidates = [(0,external_node_path_.join)(here, "..", "recorder", name), (0,external_node_path_.join)(here, "..", "..", "dist", "recorder", name)];
    return candidates.find((c) => (0,external_node_fs_.existsSync)(c)) ?? candidates[0];
}
function moduleDir() {
    return (0,external_node_path_.dirname)((0,external_node_url_.fileURLToPath)(import.meta.url));
}
/** The decision, pure: which recorder runs, or the typed refusal when ebpf was demanded and cannot start. */
function decideRecorder(choice, started) {
    if (choice === "strace")
        return { name: "strace" };
    if (started === null)
        throw new Error("decideRecorder: a start is needed unless strace is chosen");
    if (started.ok)
        return { name: "ebpf" };
    if (choice === "ebpf") {
        throw new errors/* Refusal */.P_("RECORDER_UNAVAILABLE", `the eBPF recorder was asked for (--recorder ebpf) and cannot start: ${started.why}`, {
            hint: "It needs root (or passwordless sudo), a kernel with BTF, and dist/recorder/ for this architecture. --recorder auto falls back to strace, and says so.",
        });
    }
    return { name: "strace", fallback: started.why };
}
function executable(path) {
    try {
        (0,external_node_fs_.accessSync)(path, external_node_fs_.constants.X_OK);
        return (0,external_node_fs_.statSync)(path).isFile();
    }
    catch {
        return false;
    }
}
/** How to start the recorder with the privileges it needs, or why it cannot be. */
function recorderLaunch(binary, sudo) {
    if (!executable(binary))
        return { ok: false, why: `no recorder binary at ${binary}` };
    if (process.geteuid?.() === 0)
        return { ok: true, launch: [binary] };
    if (sudo === null)
        return { ok: false, why: "not root, and sudo was not found" };
    const r = (0,external_node_child_process_.spawnSync)(sudo, ["-n", "true"], { stdio: "ignore", timeout: 10_000 });
    if (r.status !== 0)
        return { ok: false, why: "not root, and `sudo -n true` fails (no passwordless sudo)" };
    return { ok: true, launch: [sudo, "-n", binary] };
}
/** How long the recorder may take to drain once asked (`sync`, or its input closed). */
const RECORDER_DRAIN_MS = 30_000;
function recorder_within(ms, work, late) {
    let timer;
    return Promise.race([work, new Promise((r) => (timer = setTimeout(() => r(late), ms)))]).finally(() => clearTimeout(timer));
}
/**
 * The run's eBPF recorder (docs/recorder-protocol.md): one process for the whole run, loaded
 * once, following each stage's gate in turn. Control lines start with `@`; every other line is
 * an event of the stage being followed.
 */
class EbpfRecorder {
    child;
    pending = "";
    ended = false;
    control = [];
    controlWaiter = null;
    onEvent = null;
    /** Losses the recorder reported (cumulative over the run). */
    lost = 0;
    endSeen = false;
    closing = false;
    /** Called once when the recorder's output ends while the run still needs it. */
    onLost = null;
    exited;
    constructor(launch) {
        this.child = (0,external_node_child_process_.spawn)(launch[0], launch.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
        this.exited = new Promise((resolveExit) => {
            this.child.on("error", () => resolveExit({ code: null, signal: null }));
            this.child.once("exit", (code, signal) => resolveExit({ code, signal }));
        });
        this.child.stdin?.on("error", () => { });
        const stdout = this.child.stdout;
        if (stdout === null)
            throw new Error("recorder spawned without stdout");
        stdout.setEncoding("utf8");
        stdout.on("data", (chunk) => this.data(chunk));
        stdout.on("end", () => this.end());
        stdout.on("error", () => this.end());
        this.child.on("error", () => this.end());
    }
    /** Event lines go out in runs (one call per run of them, newlines kept), control lines one by one, in order. */
    data(chunk) {
        const text = this.pending + chunk;
        let start = 0;
        let run = 0;
        for (;;) {
            const nl = text.indexOf("\n", start);
            if (nl === -1)
                break;
            if (text.charCodeAt(start) === 0x40) {
                if (run < start)
                    this.onEvent?.(text.slice(run, start));
                this.line(text.slice(start, nl));
                run = nl + 1;
            }
            start = nl + 1;
        }
        if (run < start)
            this.onEvent?.(text.slice(run, start));
        this.pending = text.slice(start);
    }
    line(line) {
        if (!line.startsWith("@")) {
            this.onEvent?.(line + "\n");
            return;
        }
        const lost = /^@lost (\d+)$/.exec(line);
        if (lost)
            this.lost = Math.max(this.lost, Number(lost[1]));
        if (line === "@end")
            this.endSeen = true;
        this.control.push(line);
        const w = this.controlWaiter;
        this.controlWaiter = null;
        w?.();
    }
    end() {
        if (this.ended)
            return;
        this.ended = true;
        if (this.pending !== "") {
            const last = this.pending;
            this.pending = "";
            this.line(last);
        }
        const w = this.controlWaiter;
        this.controlWaiter = null;
        w?.();
        if (!this.closing)
            this.onLost?.();
    }
    /** The next control line matching `want` (others before it are skipped); null when the output ended first. */
    async awaitControl(want) {
        for (;;) {
            while (this.control.length > 0) {
                const line = this.control.shift();
                if (want(line))
                    return line;
            }
            if (this.ended)
                return null;
            await new Promise((r) => (this.controlWaiter = r));
        }
    }
    /** `@ready` (true), or why the recorder cannot record: `@error …`, an early exit, or no answer in time. */
    async ready(timeoutMs = RECORDER_START_MS) {
        const answer = this.awaitControl((l) => l === "@ready" || l.startsWith("@error "));
        const line = await recorder_within(timeoutMs, answer, undefined);
        if (line === undefined)
            return `the recorder did not answer within ${timeoutMs / 1000} s`;
        if (line === null) {
            const { code, signal } = await this.exited;
            return `the recorder exited (${signal ?? `status ${String(code)}`}) before @ready`;
        }
        if (line === "@ready")
            return true;
        const error = /^@error (privilege|kernel|other)(?: (.*))?$/.exec(line);
        return error ? `the recorder printed @error ${error[1]}${error[2] !== undefined ? ` ${error[2]}` : ""}` : line;
    }
    /** Follows one stage's gate: its events go to `onEvent` (whole lines, newlines kept) from now on. The reason when it did not. */
    async follow(pid, onEvent) {
        this.onEvent = onEvent;
        this.child.stdin?.write(`follow ${String(pid)}\n`);
        const line = await recorder_within(RECORDER_START_MS, this.awaitControl((l) => l === `@following ${String(pid)}`), undefined);
        if (line === undefined)
            return `the recorder did not follow process ${String(pid)} within ${RECORDER_START_MS / 1000} s`;
        if (line === null)
            return "the recorder ended before it followed the jail";
        return null;
    }
    /** After a stage's jail exited: everything the kernel holds is read; false when the recorder did not answer. */
    async sync() {
        this.child.stdin?.write("sync\n");
        const line = await recorder_within(RECORDER_DRAIN_MS, this.awaitControl((l) => l === "@synced"), undefined);
        this.onEvent = null;
        return line === "@synced";
    }
    get alive() {
        return !this.ended;
    }
    /** Ends the recorder: its input closed, it prints `@lost`, `@end` and exits; killed if it does not. */
    async close() {
        this.closing = true;
        this.onEvent = null;
        this.child.stdin?.end();
        const stopped = await recorder_within(RECORDER_DRAIN_MS, this.exited.then(() => true), false);
        if (!stopped)
            this.child.kill("SIGKILL");
        await recorder_within(5_000, this.awaitControl((l) => l === "@end"), null);
        return this.endSeen;
    }
}
/**
 * Starts the run's eBPF recorder (or finds why it cannot start). Call early: loading its
 * programs takes the kernel a while, and the rest of the run's setup can go on meanwhile.
 */
function startRecorder(arch, sudo, env = process.env) {
    const launch = recorderLaunch(recorderBinaryPath(arch, env), sudo);
    if (!launch.ok)
        return Promise.resolve(launch);
    let ebpf;
    try {
        ebpf = new EbpfRecorder(launch.launch);
    }
    catch (err) {
        return Promise.resolve({ ok: false, why: `the recorder cannot be started (${err.message})` });
    }
    return ebpf.ready().then(async (ready) => {
        if (ready === true)
            return { ok: true, ebpf };
        await ebpf.close();
        return { ok: false, why: ready };
    });
}
/** The decision for one run, from a start begun earlier (null when strace was asked for). */
async function resolveRecorder(choice, started) {
    if (choice === "strace" || started === null)
        return { meta: decideRecorder("strace", null), ebpf: null };
    const result = await started;
    try {
        const meta = decideRecorder(choice, result.ok ? { ok: true } : result);
        return { meta, ebpf: result.ok ? result.ebpf : null };
    }
    catch (err) {
        if (result.ok)
            await result.ebpf.close();
        throw err;
    }
}

;// CONCATENATED MODULE: ./src/observer/signals.ts


const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
class RunControl {
    signal = null;
    child = null;
    onSignal = (signal) => {
        this.signal = signal;
        this.stop();
    };
    /** The signal that interrupted the run, if one did. */
    get interrupted() {
        return this.signal;
    }
    listen() {
        for (const signal of SIGNALS)
            process.on(signal, this.onSignal);
    }
    unlisten() {
        for (const signal of SIGNALS)
            process.off(signal, this.onSignal);
    }
    /**
     * The stage's child, while it runs (null once it has exited). A signal that came while no child
     * ran (the stage was still being set up) stops the child as soon as it is given: the run never
     * goes on to its natural end after being told to stop.
     */
    running(child) {
        this.child = child;
        if (child !== null && this.signal !== null)
            this.stop();
    }
    /** Stops the running stage: its child and every descendant. */
    stop() {
        if (this.child?.pid !== undefined)
            killTree(this.child.pid);
    }
    /** Throws when a signal interrupted the run. */
    throwIfInterrupted() {
        if (this.signal === null)
            return;
        throw new errors/* Refusal */.P_("OBSERVER_INTERRUPTED", `envelope-gate run was interrupted by ${this.signal}; the log has no end line and will be refused`, {
            hint: "Run it again to completion.",
        });
    }
}
/** SIGKILLs a process and every descendant still attached to it (found through /proc). */
function killTree(root) {
    const children = new Map();
    let entries;
    try {
        entries = (0,external_node_fs_.readdirSync)("/proc");
    }
    catch {
        entries = []; // no /proc: only the direct child is reachable
    }
    for (const name of entries) {
        if (!/^\d+$/.test(name))
            continue;
        try {
            const stat = (0,external_node_fs_.readFileSync)(`/proc/${name}/stat`, "utf8");
            const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
            const list = children.get(ppid) ?? [];
            list.push(Number(name));
            children.set(ppid, list);
        }
        catch {
            continue;
        }
    }
    const order = [];
    const queue = [root];
    while (queue.length > 0 && order.length < 100_000) {
        const pid = queue.shift();
        order.push(pid);
        queue.push(...(children.get(pid) ?? []));
    }
    for (const pid of order) {
        try {
            process.kill(pid, "SIGKILL");
        }
        catch {
            continue;
        }
    }
}

// EXTERNAL MODULE: external "node:dns/promises"
var external_node_dns_promises_ = __webpack_require__(1553);
// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(7067);
var external_node_http_default = /*#__PURE__*/__webpack_require__.n(external_node_http_);
// EXTERNAL MODULE: external "node:net"
var external_node_net_ = __webpack_require__(7030);
var external_node_net_default = /*#__PURE__*/__webpack_require__.n(external_node_net_);
// EXTERNAL MODULE: ./src/core/hosts.ts
var hosts = __webpack_require__(3848);
;// CONCATENATED MODULE: ./src/observer/egress.ts
/**
 * The egress proxy for `network: "allowlist"` (docs/egress.md). It runs in the wrapper, outside
 * the jail, and is the jailed command's only way out: the relay inside the jail (egress-relay.ts)
 * hands every TCP connection made to its loopback port to this proxy's unix socket.
 *
 * It speaks HTTP proxy: `CONNECT host:port` opens a tunnel, an absolute-form request
 * (`GET http://host[:port]/path`, any method) is forwarded. Each request is decided by name
 * through `allowed(host, port)`: a refused host gets 403 and nothing is resolved or connected;
 * an allowed name is resolved here (the jail resolves nothing) and connected. Every request
 * that names a target is recorded exactly once (EgressRecord), before any byte of the client's
 * reaches the upstream.
 *
 * Bounds: a request head is at most HEAD_LIMIT bytes (431, connection closed), and so is an
 * upstream response head (502); a TLS ClientHello peeked in a tunnel is at most
 * CLIENT_HELLO_LIMIT bytes; at most MAX_CLIENT_CONNECTIONS clients at once; bodies and tunnels
 * are streamed with backpressure, never buffered whole.
 */





/** Largest request head (request line and headers) the proxy reads. */
const HEAD_LIMIT = 64 * 1024;
/** Most bytes buffered while waiting for a tunnel's complete TLS ClientHello. */
const CLIENT_HELLO_LIMIT = 64 * 1024;
/** Most client connections open at once (each may hold one upstream socket too); more are closed at accept. */
const MAX_CLIENT_CONNECTIONS = 1024;
/** How long one upstream address may take to accept a connection. */
const CONNECT_TIMEOUT_MS = 15_000;
const LOCAL_HOSTS = "localhost,127.0.0.1,::1";
/**
 * The environment keys the jailed command gets under `allowlist`, whatever `allowed_env` says:
 * every proxy variable points at the relay, and NODE_USE_ENV_PROXY=1 makes a Node that honours it
 * (24.5+, 22.21+) send fetch, http and https through them (on an older Node the preload does,
 * src/observer/preload/proxy.ts). The keys are exactly PROXY_ENV_KEYS (src/core/rules.ts), whose
 * reads the check does not judge under allowlist.
 */
function proxyEnv(port) {
    if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw new RangeError(`proxyEnv: port ${String(port)} is not 1-65535`);
    const url = `http://127.0.0.1:${port}`;
    return {
        HTTP_PROXY: url,
        HTTPS_PROXY: url,
        http_proxy: url,
        https_proxy: url,
        ALL_PROXY: url,
        all_proxy: url,
        NO_PROXY: LOCAL_HOSTS,
        no_proxy: LOCAL_HOSTS,
        NODE_USE_ENV_PROXY: "1",
    };
}
const NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;
/** A normalised host if `raw` is a DNS name or an IP literal (no zone id), else null. */
function validHost(raw) {
    const host = (0,hosts/* normalizeHost */.cS)(raw);
    if (host.includes("%"))
        return null;
    if (external_node_net_default().isIP(host) !== 0)
        return host;
    return host.length <= 253 && NAME.test(host) ? host : null;
}
/** Parses `host:port` or `[v6]:port` (a CONNECT target, the relay's --listen). Null if malformed. */
function parseAuthority(authority) {
    const m = /^(\[[^\]]*\]|[^:[\]]+):(\d{1,5})$/.exec(authority);
    if (!m)
        return null;
    const port = Number(m[2]);
    const bracketed = m[1].startsWith("[");
    const host = validHost(m[1]);
    if (host === null || port < 1 || port > 65535)
        return null;
    if (bracketed !== external_node_net_default().isIPv6(host))
        return null;
    return { host, port };
}
const INCOMPLETE = { kind: "incomplete" };
const malformed = (why) => ({ kind: "malformed", why });
/**
 * Looks at the first bytes a client sent into a tunnel. A first byte other than 0x16 (a TLS
 * handshake record) is "not-tls". Otherwise the ClientHello is reassembled from consecutive
 * handshake records and its server_name read; anything that does not parse is "malformed".
 * Pure, and it reads no further than the ClientHello's own declared lengths.
 */
function peekClientHello(data) {
    if (data.length === 0)
        return INCOMPLETE;
    if (data[0] !== 0x16)
        return { kind: "not-tls" };
    const fragments = [];
    let have = 0;
    let need = -1;
    /** Reads the handshake header once 4 bytes of it are there (in whole records or the one still arriving). */
    const header = (partial) => {
        if (need !== -1 || have + partial.length < 4)
            return null;
        const start = Buffer.concat([...fragments, partial], 4);
        if (start[0] !== 1)
            return malformed("the first handshake message is not a ClientHello");
        need = 4 + start.readUIntBE(1, 3);
        return need > CLIENT_HELLO_LIMIT ? malformed("ClientHello longer than the limit") : null;
    };
    for (let off = 0;;) {
        if (data.length - off < 5)
            return INCOMPLETE;
        if (data[off] !== 0x16)
            return malformed("a non-handshake record before the end of the ClientHello");
        if (data[off + 1] !== 3)
            return malformed("not a TLS record version");
        const length = data.readUInt16BE(off + 3);
        if (length === 0 || length > 16384)
            return malformed(`record length ${length}`);
        if (data.length - off - 5 < length)
            return header(data.subarray(off + 5)) ?? INCOMPLETE;
        const fragment = data.subarray(off + 5, off + 5 + length);
        const verdict = header(fragment);
        if (verdict !== null)
            return verdict;
        fragments.push(fragment);
        have += length;
        off += 5 + length;
        if (need !== -1 && have >= need)
            return parseClientHelloBody(Buffer.concat(fragments, need).subarray(4));
    }
}
function parseClientHelloBody(body) {
    let p = 2 + 32; // legacy_version, random
    const fits = (n) => p + n <= body.length;
    if (!fits(1))
        return malformed("truncated before session_id");
    const sessionId = body[p];
    p += 1;
    if (sessionId > 32 || !fits(sessionId + 2))
        return malformed("bad session_id");
    p += sessionId;
    const suites = body.readUInt16BE(p);
    p += 2;
    if (suites < 2 || suites % 2 !== 0 || !fits(suites + 1))
        return malformed("bad cipher_suites");
    p += suites;
    const compressions = body[p];
    p += 1;
    if (compressions < 1 || !fits(compressions))
        return malformed("bad compression_methods");
    p += compressions;
    if (p === body.length)
        return { kind: "hello", serverName: null };
    if (!fits(2))
        return malformed("truncated extensions");
    const extensionsEnd = p + 2 + body.readUInt16BE(p);
    p += 2;
    if (extensionsEnd !== body.length)
        return malformed("extensions length does not match the ClientHello");
    const seen = new Set();
    let serverName = null;
    while (p < extensionsEnd) {
        if (!fits(4))
            return malformed("truncated extension header");
        const type = body.readUInt16BE(p);
        const length = body.readUInt16BE(p + 2);
        p += 4;
        if (!fits(length))
            return malformed("truncated extension");
        if (seen.has(type))
            return malformed(`extension ${type} twice`);
        seen.add(type);
        if (type === 0) {
            const name = parseServerName(body.subarray(p, p + length));
            if (typeof name !== "string" && name !== null)
                return name;
            serverName = name;
        }
        p += length;
    }
    return { kind: "hello", serverName };
}
/** The host_name of a server_name extension: a string, null when it names none, or a malformed verdict. */
function parseServerName(ext) {
    if (ext.length === 0)
        return null;
    if (ext.length < 2 || 2 + ext.readUInt16BE(0) !== ext.length)
        return malformed("bad server_name list length");
    let name = null;
    for (let p = 2; p < ext.length;) {
        if (p + 3 > ext.length)
            return malformed("truncated server_name entry");
        const type = ext[p];
        const length = ext.readUInt16BE(p + 1);
        p += 3;
        if (length === 0 || p + length > ext.length)
            return malformed("bad server_name entry length");
        if (type === 0) {
            if (name !== null)
                return malformed("two host_name entries");
            name = ext.toString("latin1", p, p + length);
            if (!/^[\x21-\x7e]+$/.test(name))
                return malformed("host_name is not printable ASCII");
        }
        p += length;
    }
    return name;
}
// ---------------------------------------------------------------------------------------------
// Plumbing
const noop = () => { };
/** Pipes two sockets both ways (with backpressure); when either closes, the other is destroyed. */
function splice(a, b) {
    a.on("error", noop);
    b.on("error", noop);
    a.once("close", () => b.destroy());
    b.once("close", () => a.destroy());
    a.pipe(b);
    b.pipe(a);
}
/** Addresses a name may not lead to unless the client named the IP itself: this host's loopback, "any", link-local (cloud metadata). */
const LOCAL_ONLY = new (external_node_net_default()).BlockList();
LOCAL_ONLY.addSubnet("127.0.0.0", 8, "ipv4");
LOCAL_ONLY.addSubnet("0.0.0.0", 8, "ipv4");
LOCAL_ONLY.addSubnet("169.254.0.0", 16, "ipv4");
LOCAL_ONLY.addAddress("::1", "ipv6");
LOCAL_ONLY.addAddress("::", "ipv6");
LOCAL_ONLY.addSubnet("fe80::", 10, "ipv6");
function localOnly(address) {
    return LOCAL_ONLY.check(address, external_node_net_default().isIPv6(address) ? "ipv6" : "ipv4");
}
const HOP_BY_HOP = [
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];
/** Copies headers without the hop-by-hop ones (RFC 9110 7.6.1), the ones `Connection` names, and Proxy-Authorization. */
function stripHopByHop(headers) {
    const drop = new Set(HOP_BY_HOP);
    for (const token of String(headers.connection ?? "").split(","))
        drop.add(token.trim().toLowerCase());
    const out = {};
    for (const [key, value] of Object.entries(headers)) {
        if (value !== undefined && !drop.has(key))
            out[key] = value;
    }
    return out;
}
const STATUS_TEXT = {
    400: "Bad Request",
    403: "Forbidden",
    408: "Request Timeout",
    431: "Request Header Fields Too Large",
    502: "Bad Gateway",
};
/** A complete response written straight to a socket that the HTTP server no longer manages (CONNECT, parse errors); then closed. */
function rawReply(socket, status, text) {
    if (!socket.writable) {
        socket.destroy();
        return;
    }
    const head = `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ""}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n`;
    socket.end(head + text, () => socket.destroy());
}
function plainReply(res, status, text) {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text), connection: "close" });
    res.end(text);
}
function errorText(e) {
    return (0,errors/* errnoOf */.UQ)(e) ?? e.message ?? String(e);
}
// ---------------------------------------------------------------------------------------------
// The proxy
/** Starts the proxy on `socketPath`; resolves once it listens. */
async function startEgressProxy(options) {
    const open = new Set();
    /** Requests not yet recorded, each with what to record if the proxy closes first. */
    const pending = new Set();
    let closing = false;
    const track = (socket) => {
        if (closing) {
            socket.destroy();
            return;
        }
        open.add(socket);
        socket.once("close", () => open.delete(socket));
    };
    /** One request's record: written exactly once, by the first of its outcome or close(). */
    const begin = (host, port, proto) => {
        let address;
        let done = false;
        const finish = (allowed, extra = {}) => {
            if (done)
                return;
            done = true;
            pending.delete(onClose);
            const e = { host, port, proto, allowed };
            if (address !== undefined)
                e.address = address;
            if (extra.reason !== undefined)
                e.reason = extra.reason;
            if (extra.sni !== undefined)
                e.sni = extra.sni;
            options.record(e);
        };
        const onClose = () => finish(true, address === undefined ? { reason: "proxy closed before the upstream connected" } : {});
        pending.add(onClose);
        return {
            finish,
            connected: (a) => {
                address = a;
            },
        };
    };
    const refusal = (host, port) => {
        try {
            return options.allowed(host, port) ? null : "host not allowed";
        }
        catch (e) {
            return `allowed() failed: ${errorText(e)}`;
        }
    };
    const connectOnce = (address, port) => new Promise((resolve, reject) => {
        const socket = external_node_net_default().connect({ host: address, port });
        socket.on("error", noop);
        track(socket);
        const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
        socket.once("connect", () => {
            clearTimeout(timer);
            resolve(socket);
        });
        socket.once("close", () => {
            clearTimeout(timer);
            reject(new Error(socket.errored ? errorText(socket.errored) : "closed"));
        });
    });
    /** Resolves an allowed name (every address, in the resolver's order) and connects to the first that answers. */
    const openUpstream = async (host, port) => {
        let addresses;
        if (external_node_net_default().isIP(host) !== 0) {
            addresses = [host];
        }
        else {
            try {
                addresses = (await (0,external_node_dns_promises_.lookup)(host, { all: true, verbatim: true })).map((a) => a.address);
            }
            catch (e) {
                return { ok: false, status: 502, reason: `dns: ${errorText(e)}` };
            }
            const reachable = addresses.filter((a) => !localOnly(a));
            if (reachable.length === 0)
                return { ok: false, status: 403, reason: `resolves only to loopback or link-local addresses (${addresses.join(", ")})` };
            addresses = reachable;
        }
        const failures = [];
        for (const address of addresses) {
            if (closing)
                break;
            try {
                return { ok: true, socket: await connectOnce(address, port), address };
            }
            catch (e) {
                failures.push(`${(0,hosts/* formatEndpoint */.T0)(address, port)} ${errorText(e)}`);
            }
        }
        return { ok: false, status: 502, reason: closing ? "proxy closed" : `upstream: ${failures.join("; ")}` };
    };
    const tunnel = async (host, port, client, head) => {
        const endpoint = (0,hosts/* formatEndpoint */.T0)(host, port);
        const why = refusal(host, port);
        if (why !== null) {
            options.record({ host, port, proto: "connect", allowed: false, reason: why });
            rawReply(client, 403, `envelope-gate egress: ${endpoint} is not an allowed host\n`);
            return;
        }
        client.pause();
        const request = begin(host, port, "connect");
        const up = await openUpstream(host, port);
        if (!up.ok) {
            request.finish(up.status !== 403, { reason: up.reason });
            rawReply(client, up.status, `envelope-gate egress: ${endpoint}: ${up.reason}\n`);
            return;
        }
        const upstream = up.socket;
        request.connected(up.address);
        if (closing || client.destroyed) {
            upstream.destroy();
            request.finish(true, { reason: "client closed before the tunnel opened" });
            return;
        }
        // The server's bytes flow at once (server-first protocols); the client's wait for the peek.
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        client.once("close", () => {
            upstream.destroy();
            request.finish(true);
        });
        upstream.once("close", () => {
            client.destroy();
            request.finish(true);
        });
        upstream.pipe(client);
        let buffered = head;
        let peeking = true;
        const refuse = (reason, sni) => {
            peeking = false;
            request.finish(false, { reason, sni });
            client.destroy();
            upstream.destroy();
        };
        const inspect = () => {
            const peek = peekClientHello(buffered);
            if (peek.kind === "incomplete") {
                if (buffered.length > CLIENT_HELLO_LIMIT)
                    refuse("client hello too large");
                return;
            }
            if (peek.kind === "malformed")
                return refuse(`malformed client hello: ${peek.why}`);
            const sni = peek.kind === "hello" && peek.serverName !== null ? (0,hosts/* normalizeHost */.cS)(peek.serverName) : undefined;
            if (sni !== undefined && sni !== host)
                return refuse("sni mismatch", sni);
            peeking = false;
            client.removeListener("data", onData);
            request.finish(true, { sni });
            upstream.write(buffered);
            client.pipe(upstream);
        };
        const onData = (chunk) => {
            buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
            inspect();
        };
        client.on("data", onData);
        client.once("end", () => {
            if (!peeking)
                return;
            // The client half-closed before its first bytes were judged: with nothing sent, pass the
            // half-close on (the server may still answer); a cut-off ClientHello is refused.
            if (buffered.length > 0)
                return refuse("client closed inside its client hello");
            peeking = false;
            client.removeListener("data", onData);
            request.finish(true);
            upstream.end();
        });
        if (buffered.length > 0)
            inspect();
        if (peeking)
            client.resume();
    };
    const forward = async (req, res) => {
        let url;
        try {
            url = new URL(req.url ?? "");
        }
        catch {
            return plainReply(res, 400, "envelope-gate egress: send an absolute-form http:// request or CONNECT\n");
        }
        const host = validHost(url.hostname);
        if (url.protocol !== "http:" || host === null)
            return plainReply(res, 400, `envelope-gate egress: cannot forward ${url.protocol}//${url.host}\n`);
        const port = url.port === "" ? 80 : Number(url.port);
        const endpoint = (0,hosts/* formatEndpoint */.T0)(host, port);
        const why = refusal(host, port);
        if (why !== null) {
            options.record({ host, port, proto: "http", allowed: false, reason: why });
            return plainReply(res, 403, `envelope-gate egress: ${endpoint} is not an allowed host\n`);
        }
        req.pause();
        const request = begin(host, port, "http");
        const up = await openUpstream(host, port);
        if (!up.ok) {
            request.finish(up.status !== 403, { reason: up.reason });
            return plainReply(res, up.status, `envelope-gate egress: ${endpoint}: ${up.reason}\n`);
        }
        request.connected(up.address);
        request.finish(true);
        const upstream = up.socket;
        if (closing || res.destroyed) {
            upstream.destroy();
            return;
        }
        const headers = stripHopByHop(req.headers);
        headers.host = url.host;
        // Node decoded any chunked body; re-chunk it upstream whatever the method.
        if (req.headers["transfer-encoding"] !== undefined)
            headers["transfer-encoding"] = "chunked";
        const upstreamRequest = external_node_http_default().request({
            createConnection: () => upstream,
            method: req.method,
            path: url.pathname + url.search,
            headers,
            setHost: false,
            maxHeaderSize: HEAD_LIMIT,
        });
        upstreamRequest.on("response", (upstreamResponse) => {
            res.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.statusMessage, stripHopByHop(upstreamResponse.headers));
            upstreamResponse.pipe(res);
        });
        upstreamRequest.on("error", (e) => {
            if (res.headersSent)
                res.destroy();
            else
                plainReply(res, 502, `envelope-gate egress: ${endpoint}: upstream: ${errorText(e)}\n`);
        });
        res.once("close", () => upstream.destroy());
        req.pipe(upstreamRequest);
    };
    const server = external_node_http_default().createServer({ maxHeaderSize: HEAD_LIMIT, requestTimeout: 0, requireHostHeader: false });
    server.maxConnections = MAX_CLIENT_CONNECTIONS;
    server.on("connection", track);
    server.on("request", (req, res) => {
        forward(req, res).catch((e) => res.destroy(e));
    });
    server.on("connect", (req, client, head) => {
        client.on("error", noop);
        const target = parseAuthority(req.url ?? "");
        if (target === null)
            return rawReply(client, 400, "envelope-gate egress: CONNECT needs host:port\n");
        tunnel(target.host, target.port, client, head).catch(() => client.destroy());
    });
    server.on("clientError", (err, socket) => {
        const status = err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
        const what = status === 431 ? `request head over ${HEAD_LIMIT} bytes` : status === 408 ? "request head not received in time" : "bad request";
        rawReply(socket, status, `envelope-gate egress: ${what}\n`);
    });
    await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(options.socketPath, () => {
            server.removeListener("error", reject);
            resolve();
        });
    });
    let closed = null;
    return {
        socketPath: options.socketPath,
        close() {
            if (closed !== null)
                return closed;
            closing = true;
            closed = new Promise((resolve) => server.close(() => resolve()));
            for (const flush of [...pending])
                flush();
            for (const socket of open)
                socket.destroy();
            return closed;
        },
    };
}

;// CONCATENATED MODULE: ./src/observer/tools.ts
/** The programs and bundles a run needs, found (or refused) before anything starts. */




/** Test and packaging seam: which strace to use. Pointing it at nothing makes the run refuse. */
const STRACE_ENV = "ENVELOPE_GATE_STRACE";
/** Finds an executable the way execvp would, with the wrapper's own PATH. */
function resolveExecutable(name, pathValue) {
    const candidates = name.includes("/")
        ? [(0,external_node_path_.resolve)(name)]
        : (pathValue ?? "")
            .split(external_node_path_.delimiter)
            .filter((d) => d !== "")
            .map((d) => (0,external_node_path_.join)((0,external_node_path_.resolve)(d), name));
    for (const candidate of candidates) {
        try {
            (0,external_node_fs_.accessSync)(candidate, external_node_fs_.constants.X_OK);
            if ((0,external_node_fs_.statSync)(candidate).isFile())
                return candidate;
        }
        catch {
            continue;
        }
    }
    return null;
}
function preloadBundlePath() {
    // Beside the CLI bundle: dist/cli/index.js -> dist/preload/index.js (kept out of the bundler's asset analysis).
    const parts = [(0,external_node_path_.dirname)((0,external_node_url_.fileURLToPath)(import.meta.url)), "..", "preload", "index.js"];
    return parts.join(external_node_path_.sep);
}
function relayBundlePath() {
    return [(0,external_node_path_.dirname)((0,external_node_url_.fileURLToPath)(import.meta.url)), "..", "relay", "index.js"].join(external_node_path_.sep);
}
/** The jail's network holder (netns-holder.ts), bundled beside the relay. */
function netnsBundlePath() {
    return [(0,external_node_path_.dirname)((0,external_node_url_.fileURLToPath)(import.meta.url)), "..", "netns", "index.js"].join(external_node_path_.sep);
}
/** The strace binary (ENVELOPE_GATE_STRACE, else strace on PATH), or the refusal naming what is missing. */
function straceOrRefuse() {
    const configured = process.env[STRACE_ENV];
    const found = configured !== undefined ? (resolveExecutable(configured, process.env.PATH) ?? null) : resolveExecutable("strace", process.env.PATH);
    if (found === null) {
        throw new errors/* Refusal */.P_("OBSERVER_UNAVAILABLE", `the process-level observer cannot start: strace not found${configured !== undefined ? ` at ${configured}` : " on PATH"}`, {
            hint: "Install strace (apt-get install -y strace). Node-only observation runs only when asked for with --node-only, and the log then says so.",
        });
    }
    return found;
}
/** The jail's launcher (jail.ts): coreutils' env. */
function findLauncher() {
    return ["/usr/bin/env", "/bin/env"].find((p) => (0,external_node_fs_.existsSync)(p)) ?? null;
}
/** util-linux setpriv, which starts the recorder with a parent-death signal. */
function findSetpriv() {
    return resolveExecutable("setpriv", process.env.PATH) ?? ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => (0,external_node_fs_.existsSync)(p)) ?? null;
}
/** A util-linux program (unshare, nsenter) on PATH or in /usr/bin, /bin. */
function findUtilLinux(name) {
    return resolveExecutable(name, process.env.PATH) ?? [`/usr/bin/${name}`, `/bin/${name}`].find((p) => (0,external_node_fs_.existsSync)(p)) ?? null;
}

;// CONCATENATED MODULE: ./src/observer/fifo.ts
/**
 * A FIFO the wrapper owns and reads: the hooks' channel and strace's output. The wrapper keeps
 * its own write end open until the stage's processes are gone, then closes it and reads to EOF,
 * so every byte any writer put in is read before the stage ends.
 */





/** mkfifo as PATH names it, found once per PATH (execvp would search PATH again for every channel). */
let mkfifoFound;
function makeFifo(path) {
    try {
        const found = mkfifoFound !== undefined && mkfifoFound.pathValue === process.env.PATH
            ? mkfifoFound
            : { pathValue: process.env.PATH, path: resolveExecutable("mkfifo", process.env.PATH) ?? "mkfifo" };
        mkfifoFound = found;
        const mkfifo = found.path;
        (0,external_node_child_process_.execFileSync)(mkfifo, ["-m", "600", path], { stdio: ["ignore", "ignore", "pipe"] });
    }
    catch (err) {
        throw new errors/* Refusal */.P_("OBSERVER_UNAVAILABLE", `cannot create the observer channel ${path} with mkfifo (${err.message.split("\n")[0]})`, {
            hint: "mkfifo (coreutils) must be on PATH for envelope-gate run.",
            cause: err,
        });
    }
}
class FifoReader {
    path;
    readFd;
    holdFd;
    socket;
    onText;
    decoder = new TextDecoder("utf-8");
    ended;
    scratch = Buffer.allocUnsafe(1 << 16);
    constructor(path, onText, onError) {
        this.path = path;
        this.onText = onText;
        this.readFd = (0,external_node_fs_.openSync)(path, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NONBLOCK);
        // Our own writer: the reader must not see EOF before the first real writer opens.
        this.holdFd = (0,external_node_fs_.openSync)(path, external_node_fs_.constants.O_WRONLY | external_node_fs_.constants.O_NONBLOCK);
        this.socket = new external_node_net_.Socket({ fd: this.readFd, readable: true, writable: false });
        this.socket.on("data", (chunk) => {
            try {
                this.deliver(chunk);
            }
            catch (err) {
                onError(err);
            }
        });
        this.ended = new Promise((resolve) => {
            this.socket.once("end", () => resolve());
            this.socket.once("close", () => resolve());
            this.socket.once("error", (err) => {
                onError(err);
                resolve();
            });
        });
    }
    deliver(chunk) {
        const text = this.decoder.decode(chunk, { stream: true });
        if (text !== "")
            this.onText(text);
    }
    /** Reads whatever is already in the pipe, now (ordering: hook records precede their syscalls). */
    drainNow() {
        for (let i = 0; i < 4096; i++) {
            let n;
            try {
                n = (0,external_node_fs_.readSync)(this.readFd, this.scratch, 0, this.scratch.length, null);
            }
            catch (err) {
                if ((0,errors/* errnoOf */.UQ)(err) === "EAGAIN")
                    return;
                throw err;
            }
            if (n <= 0)
                return;
            this.deliver(Buffer.from(this.scratch.subarray(0, n)));
        }
    }
    /** Drops the wrapper's write end and waits until every other writer has closed and all is read. */
    async finish() {
        if (this.holdFd !== null) {
            (0,external_node_fs_.closeSync)(this.holdFd);
            this.holdFd = null;
        }
        await this.ended;
        const tail = this.decoder.decode();
        if (tail !== "")
            this.onText(tail);
    }
    destroy() {
        if (this.holdFd !== null) {
            (0,external_node_fs_.closeSync)(this.holdFd);
            this.holdFd = null;
        }
        this.socket.destroy();
    }
}

// EXTERNAL MODULE: ./src/core/container-engine.ts
var container_engine = __webpack_require__(5275);
;// CONCATENATED MODULE: ./src/observer/shebang.ts
/**
 * A `#!` script's interpreter line, read as the kernel's binfmt_script reads it (Linux 5.1 and
 * later, fs/binfmt_script.c), and the argv the kernel starts the interpreter with. The strace
 * recorder derives an exec's canonical record from these (docs/formats.md, "exec"): the eBPF
 * recorder has the kernel's own account (bprm->file, the new image's argv), strace only the
 * file name and argv the caller gave.
 */
/** How much of a file the kernel reads to choose its handler (BINPRM_BUF_SIZE). */
const BINPRM_BUF_SIZE = 256;
/** How many handlers the kernel runs for one exec before it refuses (ELOOP): exec_binprm's depth 0..5. */
const MAX_INTERPRETER_DEPTH = 6;
const spacetab = (c) => c === 0x20 || c === 0x09;
function nextNonSpacetab(b, first, last) {
    for (let i = first; i <= last; i++)
        if (!spacetab(b[i]))
            return i;
    return null;
}
function nextTerminator(b, first, last) {
    for (let i = first; i <= last; i++)
        if (spacetab(b[i]) || b[i] === 0)
            return i;
    return null;
}
/** The bytes from `from` up to the first NUL before `to`, as text. */
function cString(b, from, to) {
    let end = from;
    while (end < to && b[end] !== 0)
        end++;
    return Buffer.from(b.subarray(from, end)).toString("utf8");
}
/**
 * The `#!` line of a file whose first bytes are `head` (BINPRM_BUF_SIZE of them, or all it has),
 * or null where the kernel would not run it as a script (no `#!`, no interpreter name, a name cut
 * by the buffer's end).
 */
function parseShebang(head) {
    if (head.length < 2 || head[0] !== 0x23 || head[1] !== 0x21)
        return null;
    // bprm->buf: zero past what the file holds.
    const b = new Uint8Array(BINPRM_BUF_SIZE + 1);
    b.set(head.subarray(0, BINPRM_BUF_SIZE));
    const bufEnd = BINPRM_BUF_SIZE - 1;
    // strnchr: the first newline before the first NUL.
    let iEnd = -1;
    for (let i = 0; i < BINPRM_BUF_SIZE && b[i] !== 0; i++) {
        if (b[i] === 0x0a) {
            iEnd = i;
            break;
        }
    }
    if (iEnd < 0) {
        const start = nextNonSpacetab(b, 2, bufEnd);
        if (start === null)
            return null;
        // No later blank or NUL: the interpreter's name may be cut; the kernel refuses it.
        if (nextTerminator(b, start, bufEnd) === null)
            return null;
        iEnd = bufEnd;
    }
    while (spacetab(b[iEnd - 1]))
        iEnd--;
    b[iEnd] = 0;
    const iName = nextNonSpacetab(b, 2, iEnd);
    if (iName === null || iName === iEnd)
        return null;
    const iSep = nextTerminator(b, iName, iEnd);
    let arg = null;
    if (iSep !== null && b[iSep] !== 0) {
        const iArg = nextNonSpacetab(b, iSep, iEnd);
        if (iArg !== null)
            arg = cString(b, iArg, iEnd);
    }
    return { name: cString(b, iName, iSep ?? iEnd), arg };
}
/**
 * What the kernel does with a file whose first bytes are `head`, as far as reading it can tell: an
 * ELF image runs itself; a `#!` line names its interpreter; anything else that an exec ran (a file
 * the reader may not read, a binfmt_misc handler's format, a line binfmt_script refuses) went to a
 * handler the bytes do not name. "gone": no file is there any more to read (removed, a memfd).
 */
function execHandler(head) {
    if (head === undefined)
        return "gone";
    if (head === null)
        return "unknown";
    if (head.length >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46)
        return "elf";
    return parseShebang(head) ?? "unknown";
}
/**
 * The argv the kernel starts an interpreter with, one script level: the caller's argv[0] removed,
 * then the interpreter's name, its argument, and the script as the exec named it (`filename`: the
 * name given, or the previous level's interpreter as written) in front of the rest.
 */
function interpreterArgv(line, filename, rest) {
    return [line.name, ...(line.arg === null ? [] : [line.arg]), filename, ...rest];
}

;// CONCATENATED MODULE: ./src/observer/path-resolver.ts
/**
 * A path a traced process named, made absolute and resolved as that process sees its filesystem
 * (the jail's view, the jail's /proc), through ProcessFacts.
 *
 * Resolution goes component by component as the kernel's path walk does: a symlink is followed
 * where it stands, before any `..` after it (`lnk/../x` is the parent of lnk's target, not the
 * directory holding lnk). Names /proc makes up per process are not read from the live /proc
 * after the call: a process's cwd is the one the lines reported, its root the jail's, and an fd
 * (`/proc/<pid>/fd/N`, `/dev/fd/N`) cannot be known, so a write through one says so.
 */


const MAX_SYMLINK_HOPS = 40;
/** `/proc/<who>` or `/proc/<who>/task/<tid>`: a process's directory in /proc. */
const PROC_DIR = /^\/proc\/(self|thread-self|\d+)(?:\/task\/\d+)?$/;
/** `/proc/<who>/fd` (or a task's). */
const PROC_FD_DIR = /^\/proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/fd$/;
/** `/proc/<who>/map_files` (or a task's): links to mapped files, by address range. */
const PROC_MAP_FILES_DIR = /^\/proc\/(?:self|thread-self|\d+)(?:\/task\/\d+)?\/map_files$/;
/** The symlinks of /dev into /proc (bubblewrap's /dev has them too; the wrapper cannot read the jail's). */
const DEV_FD_LINKS = new Map([
    ["/dev/fd", "/proc/self/fd"],
    ["/dev/stdin", "/proc/self/fd/0"],
    ["/dev/stdout", "/proc/self/fd/1"],
    ["/dev/stderr", "/proc/self/fd/2"],
]);
class PathResolver {
    facts;
    view;
    tree;
    jailed;
    ebpf;
    constructor(facts, view, tree, options) {
        this.facts = facts;
        this.view = view;
        this.tree = tree;
        this.jailed = options.jailed;
        this.ebpf = options.ebpf;
    }
    /** The name joined to its directory, as text: `..` and symlinks are left to the walk. */
    absolute(tgid, dirfd, p) {
        if (p.startsWith("/"))
            return p;
        const base = dirfd ?? this.tree.cwd(tgid);
        if (p === "")
            return base;
        return base.endsWith("/") ? base + p : `${base}/${p}`;
    }
    /** The final component is the one acted on (not followed); every one before it is resolved. */
    noFollow(tgid, abs) {
        return this.walk(tgid, abs, false).path;
    }
    follow(tgid, abs) {
        return this.walk(tgid, abs, true).path;
    }
    /**
     * The file an exec ran, the name followed: a link /proc makes up for an fd or an executable is
     * read as it is now (the exec's line also gets the kernel's word on the program it runs).
     */
    program(tgid, abs) {
        return this.walk(tgid, abs, true, true).path;
    }
    /**
     * How the kernel ran the file at a resolved jail path (shebang.ts, execHandler): its `#!` line as
     * the kernel reads it, "elf", "unknown" (not readable here, or a handler its bytes do not name),
     * or "gone". Read from the file as it is now: see docs/observer.md.
     */
    execHandler(tgid, resolved) {
        return execHandler(this.facts.head(this.hostPath(tgid, resolved)));
    }
    /** A mutation's path (the final component followed or not), and whether its file can be known. */
    mutation(tgid, abs, follow) {
        return this.walk(tgid, abs, follow);
    }
    /**
     * Symlink resolution as the traced process sees its filesystem: each component read through
     * the jail's view (private directories, the jail's /proc), a link's text taken as a path in the
     * jail, followed before what comes after it. A missing component ends the walk: the rest is
     * kept as named (folded: the kernel fails the call there).
     */
    walk(tgid, jailPath, followLast, live = false) {
        const parts = jailPath.split("/").filter((s) => s !== "");
        let resolved = "";
        let hops = 0;
        while (parts.length > 0) {
            const part = parts.shift();
            if (part === ".")
                continue;
            if (part === "..") {
                resolved = resolved.slice(0, resolved.lastIndexOf("/"));
                continue;
            }
            const next = `${resolved}/${part}`;
            const last = parts.length === 0;
            if (last && !followLast) {
                resolved = next;
                break;
            }
            const magic = this.magicLink(tgid, resolved, part);
            if (magic !== undefined && !(live && "unknown" in magic)) {
                if ("unknown" in magic) {
                    // Which file it is was fixed at the call; read now it may be another: nothing after it is looked up.
                    const rest = [next, ...parts].join("/");
                    return { path: (0,core_paths/* foldPath */.tu)(rest) ?? rest, unknown: magic.unknown };
                }
                if (hops++ > MAX_SYMLINK_HOPS) {
                    resolved = next;
                    continue;
                }
                resolved = "";
                parts.unshift(...magic.path.split("/").filter((s) => s !== ""));
                continue;
            }
            // The links every /dev has (bubblewrap's too): into the process's own fds.
            const devLink = DEV_FD_LINKS.get(next);
            if (devLink !== undefined && hops++ <= MAX_SYMLINK_HOPS) {
                resolved = "";
                parts.unshift(...devLink.split("/").filter((s) => s !== ""));
                continue;
            }
            // /proc and a process's directories in it are directories of the jail's /proc, whatever
            // the process they name (gone or not), and /dev is the jail's own: what matters is the name after them.
            if (next === "/proc" || next === "/dev" || PROC_DIR.test(next) || PROC_FD_DIR.test(next) || PROC_MAP_FILES_DIR.test(next)) {
                resolved = next;
                continue;
            }
            const link = this.facts.link(this.hostPath(tgid, next));
            if (link === undefined) {
                const rest = [next, ...parts].join("/");
                return { path: (0,core_paths/* foldPath */.tu)(rest) ?? rest, unknown: null };
            }
            if (link === null || hops++ > MAX_SYMLINK_HOPS) {
                resolved = next;
                continue;
            }
            const text = link.replace(/ \(deleted\)$/, "");
            if (text.startsWith("/"))
                resolved = "";
            parts.unshift(...text.split("/").filter((s) => s !== ""));
        }
        return { path: resolved === "" ? "/" : resolved, unknown: null };
    }
    /**
     * The /proc links that are no symlinks on disk but a process's state: `cwd` (the directory the
     * lines last reported for it), `root` (the jail's root), `fd/N`, `exe`, `map_files/…` (which
     * file they were at the call is not in the line: unknown). Undefined for any other name.
     */
    magicLink(tgid, dir, part) {
        if (PROC_FD_DIR.test(dir))
            return /^\d+$/.test(part) ? { unknown: "fd-path" } : undefined;
        if (PROC_MAP_FILES_DIR.test(dir))
            return { unknown: "proc-link" };
        const proc = PROC_DIR.exec(dir);
        if (proc === null)
            return undefined;
        if (part === "root")
            return { path: "/" };
        if (part === "exe")
            return { unknown: "proc-link" };
        if (part !== "cwd")
            return undefined;
        // The eBPF recorder walks the caller's own cwd in the kernel at the call (`/proc/self/cwd/…`
        // arrives as a path); one that reaches the reader is another process's, whose cwd the
        // recorder's lines do not follow exactly (its @fork lines say nothing of CLONE_FS).
        if (this.ebpf)
            return { unknown: "proc-link" };
        const who = proc[1];
        // The caller's own pid is known without reading /proc again: the process may be gone by the
        // time a busy reader gets to the line.
        const ownName = this.jailed && this.tree.jailPid(tgid) === Number(who);
        const owner = who === "self" || who === "thread-self" || ownName ? tgid : this.jailed ? this.tree.outerPid(Number(who)) : Number(who);
        if (owner === null)
            return { unknown: "proc-link" };
        // The process's working directory as the kernel reported it on its calls: exact, and still
        // known after the process is gone (CLONE_FS modelled by the tree).
        return { path: this.tree.cwd(owner) };
    }
    /** Where a jail path lives for the wrapper: private directories, and /proc names of the jail's processes. */
    hostPath(tgid, jailPath) {
        const proc = /^\/proc\/(self|thread-self|\d+)(\/.*)?$/.exec(jailPath);
        if (proc && this.jailed) {
            const who = proc[1];
            const rest = proc[2] ?? "";
            if (who === "self" || who === "thread-self")
                return `/proc/${tgid}${rest}`;
            const outer = this.tree.outerPid(Number(who));
            return outer === null ? `/proc/envelope-gate-unknown-${who}${rest}` : `/proc/${outer}${rest}`;
        }
        if (proc && (proc[1] === "self" || proc[1] === "thread-self"))
            return `/proc/${tgid}${proc[2] ?? ""}`;
        return this.view.toHost(jailPath);
    }
    /** Whether a socket of the host's is at this jail path. */
    isHostSocket(tgid, jailPath) {
        return this.facts.isSocket(this.hostPath(tgid, jailPath));
    }
}

;// CONCATENATED MODULE: ./src/observer/process-facts.ts
/**
 * What the parser asks the kernel while the traced processes run: the one port between the pure
 * parser (strace.ts, process-tree.ts, path-resolver.ts) and the live system.
 */


const liveProcessFacts = {
    status(pid) {
        try {
            return (0,external_node_fs_.readFileSync)(`/proc/${pid}/status`, "utf8");
        }
        catch {
            return null;
        }
    },
    cwd(pid) {
        try {
            return (0,external_node_fs_.readlinkSync)(`/proc/${pid}/cwd`);
        }
        catch {
            return null;
        }
    },
    exe(pid) {
        try {
            return (0,external_node_fs_.readlinkSync)(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, "");
        }
        catch {
            return null;
        }
    },
    head(path) {
        let fd = null;
        try {
            fd = (0,external_node_fs_.openSync)(path, "r");
            const buf = Buffer.alloc(BINPRM_BUF_SIZE);
            const n = (0,external_node_fs_.readSync)(fd, buf, 0, BINPRM_BUF_SIZE, 0);
            return buf.subarray(0, n);
        }
        catch (err) {
            const code = err.code;
            return code === "ENOENT" || code === "ENOTDIR" ? undefined : null;
        }
        finally {
            if (fd !== null)
                (0,external_node_fs_.closeSync)(fd);
        }
    },
    link(path) {
        try {
            const stat = (0,external_node_fs_.lstatSync)(path, { throwIfNoEntry: false });
            if (stat === undefined)
                return undefined;
            return stat.isSymbolicLink() ? (0,external_node_fs_.readlinkSync)(path) : null;
        }
        catch {
            return undefined;
        }
    },
    isSocket(path) {
        try {
            return (0,external_node_fs_.lstatSync)(path, { throwIfNoEntry: false })?.isSocket() ?? false;
        }
        catch {
            return false;
        }
    },
};

;// CONCATENATED MODULE: ./src/observer/process-tree.ts
class ProcessTree {
    facts;
    startCwd;
    jailed;
    ebpf;
    tgidOf = new Map();
    parentOf = new Map();
    /** Each process's filesystem context; processes made with CLONE_FS hold the same object. */
    fsOf = new Map();
    rootTgid = null;
    /** Processes of the command's own tree (jailed runs only). */
    commandTree = new Set();
    outerOf = new Map();
    /** Jailed runs: the pid a process has inside the jail's PID namespace, read while it ran. */
    innerOf = new Map();
    recentForks = [];
    adopted = new Set();
    /** Parents whose child was adopted while their fork line was still unfinished. */
    adoptedDuringFork = new Set();
    /** That child, by its parent's tgid. */
    adoptedDuringForkChild = new Map();
    /** Jailed runs: the command has started (bubblewrap executed it). */
    started = false;
    /** Jailed runs: bubblewrap's own processes (every one seen before the command started). */
    jailProcesses = new Set();
    /** Threads in the middle of a clone/fork/vfork: a process first seen now is most likely their child. */
    forking = [];
    constructor(facts, options) {
        this.facts = facts;
        this.startCwd = options.cwd;
        this.jailed = options.jailed;
        this.ebpf = options.ebpf;
    }
    /** The traced tree's first process, once known. */
    get root() {
        return this.rootTgid;
    }
    /** The first process (the jail's gate), known before any line of it. */
    rootIs(pid) {
        this.rootTgid ??= pid;
    }
    /** Jailed runs: bubblewrap has executed the command. */
    get armed() {
        return this.started;
    }
    /** Bubblewrap executed the command in `tgid`: it leaves bubblewrap's processes for the command's tree. */
    arm(tgid) {
        this.started = true;
        this.jailProcesses.delete(tgid);
        this.commandTree.add(tgid);
    }
    isJailProcess(tgid) {
        return this.jailProcesses.has(tgid);
    }
    addJailProcess(tgid) {
        this.jailProcesses.add(tgid);
    }
    /** A process of the command's tree (jailed runs) makes a call: known from now on, and matched to its fork. */
    joinCommand(tgid) {
        this.commandTree.add(tgid);
        this.adopt(tgid);
    }
    tgid(tid) {
        if (this.ebpf) {
            this.rootTgid ??= tid;
            return tid;
        }
        const known = this.tgidOf.get(tid);
        if (known !== undefined)
            return known;
        // A thread whose clone line is still unfinished: ask the kernel while it runs.
        let tgid = tid;
        const status = this.facts.status(tid);
        if (status !== null) {
            const m = /^Tgid:\s+(\d+)$/m.exec(status);
            if (m)
                tgid = Number(m[1]);
            // A thread's own status names the thread (its NSpid is the thread's id): only a leader's counts.
            const inner = tgid === tid ? lastNsPid(status) : null;
            if (inner !== null)
                this.innerOf.set(tgid, inner);
        }
        this.tgidOf.set(tid, tgid);
        if (this.rootTgid === null)
            this.rootTgid = tgid;
        return tgid;
    }
    parent(tgid) {
        return this.parentOf.get(tgid) ?? null;
    }
    /** The pid inside the jail as last read or announced, without asking the kernel. */
    knownInner(tgid) {
        return this.innerOf.get(tgid) ?? null;
    }
    /** A thread entered clone/fork/vfork (its line unfinished). */
    forkStarted(tid) {
        this.forking.push(tid);
    }
    /** The thread's call ended (resumed, or the thread is gone). */
    forkEnded(tid) {
        const at = this.forking.lastIndexOf(tid);
        if (at !== -1)
            this.forking.splice(at, 1);
    }
    /**
     * A successful clone/fork/vfork by `tid` of process `tgid`, whose result (the child's pid) was
     * `child`; `sharesFs`: CLONE_FS, the child shares the parent's working directory (and root, umask).
     */
    cloned(tgid, tid, child, thread, sharesFs = false) {
        if (this.jailed && this.started) {
            // Inside the jail's PID namespace `child` is the pid there: remembered, matched when the
            // child shows up under the tracer's pid (adopt).
            if (thread)
                return;
            const matched = this.adoptedDuringFork.delete(tid);
            const cwd = this.cwd(tgid);
            const shared = sharesFs ? this.context(tgid) : null;
            // A child already adopted while the fork line was open: it shares from now on.
            if (matched && shared !== null)
                this.shareWithLatestAdopted(tgid, shared);
            this.recentForks.push({ parent: tgid, cwd, shared, inner: child, used: matched });
            if (this.recentForks.length > 256)
                this.recentForks.shift();
            return;
        }
        if (thread) {
            this.tgidOf.set(child, tgid);
        }
        else {
            this.tgidOf.set(child, child);
            this.parentOf.set(child, tgid);
            if (sharesFs)
                this.fsOf.set(child, this.context(tgid));
            else
                this.fsOf.set(child, { cwd: this.cwd(tgid) });
            if (!this.started && this.jailed)
                this.jailProcesses.add(child);
        }
    }
    /** The child adopted while its parent's CLONE_FS fork line was open: it holds the parent's context. */
    shareWithLatestAdopted(parent, shared) {
        const child = this.adoptedDuringForkChild.get(parent);
        if (child === undefined)
            return;
        this.adoptedDuringForkChild.delete(parent);
        this.fsOf.set(child, shared);
    }
    /** The process left the context it shared (`unshare(CLONE_FS)`): a copy of its own from now on. */
    unshareFs(tgid) {
        this.fsOf.set(tgid, { cwd: this.cwd(tgid) });
    }
    /** The process's filesystem context, made from its directory as known now when it has none yet. */
    context(tgid) {
        const known = this.fsOf.get(tgid);
        if (known !== undefined)
            return known;
        const made = { cwd: this.cwd(tgid) };
        const now = this.fsOf.get(tgid);
        if (now !== undefined)
            return now;
        this.fsOf.set(tgid, made);
        return made;
    }
    /** The eBPF recorder's `@fork PARENT INNER`: `tgid` was forked by `parent`, and is `inner` in the jail. */
    forkAnnounced(tgid, parent, inner) {
        this.rootTgid ??= parent;
        this.parentOf.set(tgid, parent);
        this.fsOf.set(tgid, { cwd: this.fsOf.get(parent)?.cwd ?? this.startCwd });
        this.innerIs(tgid, inner);
        if (this.jailed && !this.started)
            this.jailProcesses.add(tgid);
        // Known from its own fork line: adopt() has nothing to guess.
        this.adopted.add(tgid);
    }
    /** The recorder said which pid the process has inside the jail. */
    innerIs(tgid, inner) {
        if (inner > 0) {
            this.innerOf.set(tgid, inner);
            this.outerOf.set(inner, tgid);
        }
    }
    /** A thread other than the leader executed a program: from now on it is the leader. */
    threadExecuted(thread, leader) {
        this.forkEnded(thread);
        this.tgidOf.set(thread, leader);
        this.tgidOf.set(leader, leader);
    }
    /**
     * A process first seen without a clone line of its own (in a PID namespace the clone's return
     * value is the child's pid inside it, not the tracer's): match it to a fork by that inner pid,
     * or to its parent still in the middle of forking, or to the latest fork not yet matched.
     */
    adopt(tgid) {
        if (this.adopted.has(tgid))
            return;
        this.adopted.add(tgid);
        // Known from before the command started (bubblewrap's clone of it), or from its own clone line.
        if (this.fsOf.has(tgid) || this.parentOf.has(tgid))
            return;
        const inner = this.innerOf.get(tgid);
        let record = inner !== undefined ? this.recentForks.find((r) => !r.used && r.inner === inner) : undefined;
        if (record === undefined && this.forking.length > 0) {
            const forker = this.forking[this.forking.length - 1];
            const parent = this.tgidOf.get(forker);
            if (parent !== undefined && parent !== tgid) {
                this.adoptedDuringFork.add(forker);
                this.adoptedDuringForkChild.set(parent, tgid);
                record = { parent, cwd: this.cwd(parent), shared: null, inner: -1, used: false };
            }
        }
        record ??= [...this.recentForks].reverse().find((r) => !r.used);
        if (record === undefined)
            return;
        record.used = true;
        this.fsOf.set(tgid, record.shared ?? { cwd: record.cwd });
        this.parentOf.set(tgid, record.parent);
    }
    /** The process's working directory moved (a chdir, or the kernel's word on a call): every process sharing it moves. */
    setCwd(tgid, cwd) {
        const known = this.fsOf.get(tgid);
        if (known !== undefined)
            known.cwd = cwd;
        else
            this.fsOf.set(tgid, { cwd });
    }
    cwd(tgid) {
        const known = this.fsOf.get(tgid)?.cwd;
        if (known !== undefined)
            return known;
        if (this.jailed)
            this.adopt(tgid);
        const adopted = this.fsOf.get(tgid)?.cwd;
        if (adopted !== undefined)
            return adopted;
        // First seen before its parent's clone line: it started in the forking parent's directory;
        // failing that, ask the kernel while it runs.
        const parent = this.forking.length > 0 ? this.tgidOf.get(this.forking[this.forking.length - 1]) : undefined;
        const cwd = (parent !== undefined && parent !== tgid ? this.fsOf.get(parent)?.cwd : undefined) ?? this.facts.cwd(tgid) ?? this.startCwd;
        this.fsOf.set(tgid, { cwd });
        return cwd;
    }
    /**
     * A process's pid inside the jail's PID namespace: read from the kernel (`NSpid`) now, at its
     * exec, or, when it is gone already, as read when it was first seen; null otherwise (never guessed).
     */
    jailPid(tgid) {
        const status = this.facts.status(tgid);
        const inner = status === null ? null : lastNsPid(status);
        if (inner !== null) {
            this.innerOf.set(tgid, inner);
            return inner;
        }
        return this.innerOf.get(tgid) ?? null;
    }
    /** The wrapper's pid for a pid the jail's /proc names (the last NSpid of a process of the tree). */
    outerPid(inner) {
        const cached = this.outerOf.get(inner);
        if (cached !== undefined)
            return cached;
        if (this.ebpf)
            return null;
        for (const tgid of this.commandTree) {
            const status = this.facts.status(tgid);
            if (status === null)
                continue;
            const m = /^NSpid:\s+(.*)$/m.exec(status);
            const ids = (m?.[1] ?? "").trim().split(/\s+/).map(Number);
            if (ids[ids.length - 1] === inner) {
                this.outerOf.set(inner, tgid);
                return tgid;
            }
        }
        return null;
    }
}
/** The pid in the innermost PID namespace, from a /proc status text (`NSpid:\t1234\t7`). */
function lastNsPid(status) {
    const ids = /^NSpid:\s+(.*)$/m.exec(status)?.[1]?.trim().split(/\s+/);
    const last = ids === undefined ? NaN : Number(ids[ids.length - 1]);
    return Number.isInteger(last) && last > 0 ? last : null;
}

;// CONCATENATED MODULE: ./src/observer/strace-tokens.ts
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++)
    HEX_VALUE["0123456789abcdef".charCodeAt(i)] = i;
const hexDigit = (code) => (code < 128 ? HEX_VALUE[code] : -1);
/** Text that is only `\xHH` escapes (all of it, under `-xx`), decoded in one pass; null for anything else. */
function decodeAllEscapes(text) {
    const n = text.length;
    if (n % 4 !== 0)
        return null;
    const out = Buffer.allocUnsafe(n / 4);
    for (let i = 0, j = 0; i < n; i += 4, j++) {
        const hi = hexDigit(text.charCodeAt(i + 2));
        const lo = hexDigit(text.charCodeAt(i + 3));
        if (text.charCodeAt(i) !== 0x5c || text.charCodeAt(i + 1) !== 0x78 || hi < 0 || lo < 0)
            return null;
        out[j] = hi * 16 + lo;
    }
    return out.toString("utf8");
}
function decodeHex(text) {
    if (!text.includes("\\x"))
        return text;
    const escaped = decodeAllEscapes(text);
    if (escaped !== null)
        return escaped;
    const bytes = [];
    for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) === 0x5c && text[i + 1] === "x") {
            bytes.push(parseInt(text.slice(i + 2, i + 4), 16));
            i += 3;
        }
        else {
            bytes.push(text.charCodeAt(i) & 0xff);
        }
    }
    return Buffer.from(bytes).toString("utf8");
}
/** Splits `a, b, {c, d}, [e]` at top-level commas. Strings are hex-escaped, so quotes never nest. */
function splitArgs(text) {
    const out = [];
    let depth = 0;
    let inString = false;
    let start = 0;
    for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (inString) {
            if (c === '"')
                inString = false;
            continue;
        }
        if (c === '"')
            inString = true;
        else if (c === "(" || c === "[" || c === "{" || c === "<")
            depth++;
        else if (c === ")" || c === "]" || c === "}" || c === ">")
            depth--;
        else if (c === "," && depth === 0) {
            out.push(text.slice(start, i).trim());
            start = i + 1;
        }
    }
    const last = text.slice(start).trim();
    if (last !== "")
        out.push(last);
    return out;
}
/** `"..."` -> decoded string; anything else -> null. */
function stringArg(token) {
    if (token === undefined)
        return null;
    const m = /^"((?:\\x[0-9a-f]{2})*)"/.exec(token);
    return m ? decodeHex(m[1]) : null;
}
/** `3</path>` or `AT_FDCWD</path>` -> `/path`. */
function fdDecoration(token) {
    if (token === undefined)
        return null;
    // A deleted file (a memfd among them) is printed `7</memfd:x>(deleted)`.
    const m = /^[^<]*<((?:\\x[0-9a-f]{2})*)>(?:\(deleted\))?$/.exec(token);
    return m ? decodeHex(m[1]).replace(/ \(deleted\)$/, "") : null;
}
function openFlags(token) {
    if (token === undefined)
        return null;
    const flags = token.startsWith("{") ? (/flags=([A-Z_|0-9x]+)/.exec(token)?.[1] ?? "") : token;
    const set = new Set(flags.split("|"));
    if (set.has("O_CREAT"))
        return "create";
    if (set.has("O_TRUNC"))
        return "truncate";
    if (set.has("O_WRONLY") || set.has("O_RDWR") || set.has("O_APPEND"))
        return "write";
    return null;
}
function strace_tokens_mappedV4(address) {
    const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return m ? m[1] : address;
}
/** Internet socket addresses in a syscall's arguments (connect, sendto, sendmsg). */
function socketAddresses(text) {
    const out = [];
    const v4 = /sa_family=AF_INET, sin_port=htons\((\d+)\), sin_addr=inet_addr\("((?:\\x[0-9a-f]{2})*)"\)/g;
    for (const m of text.matchAll(v4))
        out.push({ host: decodeHex(m[2]), port: Number(m[1]) });
    const v6 = /sa_family=AF_INET6, sin6_port=htons\((\d+)\),[^}]*?inet_pton\(AF_INET6, "((?:\\x[0-9a-f]{2})*)"/g;
    for (const m of text.matchAll(v6))
        out.push({ host: strace_tokens_mappedV4(decodeHex(m[2])), port: Number(m[1]) });
    return out;
}
/** Unix socket addresses: `@name` for an abstract one, the path (as given) for the rest. */
function unixAddresses(text) {
    const out = [];
    for (const m of text.matchAll(/sa_family=AF_UNIX, sun_path=(@?)"((?:\\x[0-9a-f]{2})*)"/g)) {
        const name = decodeHex(m[2]);
        if (m[1] === "@")
            out.push({ address: `@${name}`, abstract: true });
        else if (name !== "")
            out.push({ address: name, abstract: false });
    }
    return out;
}

;// CONCATENATED MODULE: ./src/observer/syscall-table.ts
const cwdPath = (path, follow) => ({ dirfd: null, path, follow });
const atPath = (dirfd, path, follow) => ({ dirfd, path, follow });
const paths = (op, ...list) => ({ kind: "paths", op, paths: list });
const SYSCALL_TABLE = new Map([
    ["clone", { kind: "fork" }],
    ["clone3", { kind: "fork" }],
    ["fork", { kind: "fork" }],
    ["vfork", { kind: "fork" }],
    ["chdir", { kind: "chdir", arg: 0, byFd: false }],
    ["fchdir", { kind: "chdir", arg: 0, byFd: true }],
    ["execve", { kind: "exec", dirfd: null, path: 0 }],
    ["execveat", { kind: "exec", dirfd: 0, path: 1 }],
    ["open", { kind: "open", dirfd: null, path: 0, flags: 1 }],
    ["creat", { kind: "open", dirfd: null, path: 0, flags: null }],
    ["openat", { kind: "open", dirfd: 0, path: 1, flags: 2 }],
    ["openat2", { kind: "open", dirfd: 0, path: 1, flags: 2 }],
    ["unlink", paths("delete", cwdPath(0, false))],
    ["rmdir", paths("delete", cwdPath(0, false))],
    ["unlinkat", paths("delete", atPath(0, 1, false))],
    // A directory that is already there changes nothing (`mkdir -p` over existing parents).
    ["mkdir", { kind: "paths", op: "mkdir", paths: [cwdPath(0, false)], unlessExists: true }],
    ["mkdirat", { kind: "paths", op: "mkdir", paths: [atPath(0, 1, false)], unlessExists: true }],
    ["mknod", paths("create", cwdPath(0, false))],
    ["mknodat", paths("create", atPath(0, 1, false))],
    ["rename", paths("rename", cwdPath(0, false), cwdPath(1, false))],
    ["renameat", paths("rename", atPath(0, 1, false), atPath(2, 3, false))],
    ["renameat2", paths("rename", atPath(0, 1, false), atPath(2, 3, false))],
    // The source too: a hard link makes the file it names writable under a new name.
    ["link", paths("link", cwdPath(0, false), cwdPath(1, false))],
    ["linkat", paths("link", atPath(0, 1, { arg: 4, flag: "AT_SYMLINK_FOLLOW" }), atPath(2, 3, false))],
    ["symlink", paths("symlink", cwdPath(1, false))],
    ["symlinkat", paths("symlink", atPath(1, 2, false))],
    ["chmod", paths("chmod", cwdPath(0, true))],
    ["fchmod", { kind: "fd", op: "chmod", fd: 0 }],
    ["fchmodat", paths("chmod", atPath(0, 1, { arg: 3, flag: "AT_SYMLINK_NOFOLLOW" }))],
    ["truncate", paths("truncate", cwdPath(0, true))],
    ["ftruncate", { kind: "fd", op: "truncate", fd: 0 }],
    ["chown", paths("chown", cwdPath(0, true))],
    ["fchown", { kind: "fd", op: "chown", fd: 0 }],
    ["lchown", paths("chown", cwdPath(0, false))],
    ["fchownat", { kind: "atOrFd", op: "chown", dirfd: 0, path: 1, flags: 4 }],
    ["utime", paths("utimes", cwdPath(0, true))],
    ["utimes", paths("utimes", cwdPath(0, true))],
    ["futimesat", paths("utimes", atPath(0, 1, true))],
    ["utimensat", { kind: "atOrFd", op: "utimes", dirfd: 0, path: 1, flags: 3 }],
    ["setxattr", paths("xattr", cwdPath(0, true))],
    ["removexattr", paths("xattr", cwdPath(0, true))],
    ["lsetxattr", paths("xattr", cwdPath(0, false))],
    ["lremovexattr", paths("xattr", cwdPath(0, false))],
    ["fsetxattr", { kind: "fd", op: "xattr", fd: 0 }],
    ["fremovexattr", { kind: "fd", op: "xattr", fd: 0 }],
    ["bind", { kind: "bind" }],
    ["connect", { kind: "send", proto: "connect" }],
    ["sendto", { kind: "send", proto: "send" }],
    ["sendmsg", { kind: "send", proto: "send" }],
    ["sendmmsg", { kind: "send", proto: "send" }],
]);
/** Whether the call follows the path's final symlink, given its arguments. */
function follows(follow, args) {
    if (typeof follow === "boolean")
        return follow;
    const present = (args[follow.arg] ?? "").includes(follow.flag);
    return follow.flag === "AT_SYMLINK_FOLLOW" ? present : !present;
}

;// CONCATENATED MODULE: ./src/observer/strace-args.ts
/**
 * strace's command line: which calls are traced (and refused), and the output options the
 * parser (strace.ts) relies on.
 */

const TRACED_SYSCALLS = [
    "execve",
    "execveat",
    "open",
    "openat",
    "openat2",
    "creat",
    "unlink",
    "unlinkat",
    "rmdir",
    "rename",
    "renameat",
    "renameat2",
    "mkdir",
    "mkdirat",
    "mknod",
    "mknodat",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "chmod",
    "fchmod",
    "fchmodat",
    "truncate",
    "ftruncate",
    "connect",
    "sendto",
    "sendmsg",
    "sendmmsg",
    "clone",
    "clone3",
    "fork",
    "vfork",
    "chdir",
    "fchdir",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "utime",
    "utimes",
    "utimensat",
    "futimesat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "bind",
];
/**
 * Forbidden calls bubblewrap itself makes while it builds the jail (before the command runs):
 * injecting a refusal into them would break the jail. The kernel refuses them to the command
 * instead (no capabilities, no further user namespaces), and they are recorded from the line.
 */
const JAIL_SETUP_CALLS = new Set(["mount", "umount2", "pivot_root", "unshare"]);
/** The calls strace refuses (EPERM, injected) as well as records. */
function injectedSyscalls(arch) {
    const known = new Set(forbiddenNumbers(arch).values());
    return FORBIDDEN_SYSCALLS.filter((name) => known.has(name) && !JAIL_SETUP_CALLS.has(name));
}
/**
 * strace arguments: follow forks, hex strings (unambiguous to parse), fd paths, no signals, and
 * process exit lines (`-q`, not `-qq`: the wrapper needs the jail's own exit to know the tracer
 * saw the end). With `arch`, the forbidden calls are traced and refused.
 */
function straceArgs(outputPath, arch = null) {
    const forbidden = arch === null ? [] : [...forbiddenNumbers(arch).values()];
    const inject = arch === null ? [] : injectedSyscalls(arch);
    return [
        "-f",
        "-q",
        "--seccomp-bpf",
        "-y",
        "-xx",
        "-s",
        "8192",
        "-e",
        "signal=none",
        "-e",
        // `?` ignores a name this architecture lacks (aarch64 has no open/mkdir/...).
        `trace=${[...TRACED_SYSCALLS, ...forbidden].map((s) => `?${s}`).join(",")}`,
        ...(inject.length > 0 ? ["-e", `inject=${inject.join(",")}:error=EPERM`] : []),
        "-o",
        outputPath,
    ];
}

;// CONCATENATED MODULE: ./src/observer/strace.ts
/**
 * The process-level observer: strace's output (run with -f -y -xx) turned into log events.
 * Sees every process of the tree, Node or not, at the system-call boundary, which in-process
 * code cannot unhook.
 *
 * This module joins a call's lines (unfinished, resumed, a thread's exec) and reads each call
 * through its row of the syscall table; the tokens, the process tree, path resolution and the
 * live reads of the kernel are each in their own module.
 */













const NAMESPACE_FLAGS = /CLONE_NEW(?:NS|USER|PID|NET|IPC|UTS|CGROUP|TIME)\b/;
/** Streaming parser for `strace -f -y -xx` output. */
class StraceParser {
    pending = "";
    unfinished = new Map();
    /** Leaders whose pending exec (a thread's, now under their pid) went through whatever its result line says. */
    execPassed = new Set();
    options;
    view;
    facts;
    tree;
    paths;
    jailed;
    relayPending = null;
    relayTgid = null;
    ebpf;
    /** eBPF recorder: each process's `@exec` line just read, for the exec line that follows it. */
    pendingExec = new Map();
    /** The call being read was refused as a write to a read-only file system. */
    refused = false;
    /** The call being read failed because what it named was not there (ENOENT, ENOTDIR): it changed nothing. */
    missingErrno = null;
    /** The call being read succeeded. */
    callOk = false;
    /** eBPF recorder: `@path-unknown <reason>` just read, by process, for its next call. */
    announcedUnknown = new Map();
    /** Why the file of the call being read cannot be known (every write it makes), or null. */
    callUnknown = null;
    pendingWrites = [];
    /** eBPF recorder: the `@exec` announcing the exec line being read. */
    announcedExec = null;
    constructor(options) {
        this.options = options;
        this.view = options.jailed?.view ?? new PathView([]);
        this.ebpf = options.recorder === "ebpf";
        this.jailed = options.jailed !== undefined;
        this.facts = options.facts ?? liveProcessFacts;
        const shape = { cwd: options.cwd, jailed: this.jailed, ebpf: this.ebpf };
        this.tree = new ProcessTree(this.facts, shape);
        this.paths = new PathResolver(this.facts, this.view, this.tree, shape);
    }
    /** The first process (the jail's gate), known before any line of it: its exit line is the root exit. */
    rootIs(pid) {
        this.tree.rootIs(pid);
    }
    /** The wrapper's pid for a pid the jail's /proc names (the last NSpid of a process of the tree). */
    outerPid(inner) {
        return this.tree.outerPid(inner);
    }
    push(text) {
        const data = this.pending === "" ? text : this.pending + text;
        this.pending = "";
        let start = 0;
        for (;;) {
            const nl = data.indexOf("\n", start);
            if (nl === -1)
                break;
            this.line(data.slice(start, nl));
            start = nl + 1;
        }
        if (start < data.length)
            this.pending = data.slice(start);
    }
    /** Jailed runs: bubblewrap executed the command (or its launcher). An unjailed run's command is the traced process itself. */
    get commandStarted() {
        return !this.jailed || this.tree.armed;
    }
    finish() {
        if (this.pending !== "")
            this.line(this.pending);
        this.pending = "";
    }
    /** Whether this process's calls are recorded: in the jail, every process but bubblewrap's and the relay. */
    recorded(tgid) {
        if (!this.jailed)
            return true;
        return this.tree.armed && !this.tree.isJailProcess(tgid) && tgid !== this.relayTgid;
    }
    line(raw) {
        const m = /^(\d+) +(.*)$/.exec(raw);
        if (!m)
            return;
        const tid = Number(m[1]);
        let rest = m[2];
        if (rest.startsWith("@")) {
            if (this.ebpf)
                this.extension(tid, rest);
            return;
        }
        if (this.ebpf) {
            if (rest.startsWith("+++"))
                this.exitLine(tid, rest);
            else
                this.call(tid, rest);
            return;
        }
        // A thread's exec, still open on its line when the kernel gave it the leader's pid.
        const changed = / <pid changed to (\d+) \.\.\.>$/.exec(rest);
        if (changed) {
            this.unfinished.set(tid, rest.slice(0, changed.index));
            this.execInThread(tid, Number(changed[1]));
            return;
        }
        if (rest.endsWith("<unfinished ...>")) {
            this.unfinished.set(tid, rest.slice(0, -"<unfinished ...>".length).trimEnd());
            if (/^(?:clone3?|v?fork)\(/.test(rest))
                this.tree.forkStarted(tid);
            return;
        }
        const resumed = /^<\.\.\. ([a-z0-9_]+) resumed>(.*)$/.exec(rest);
        if (resumed) {
            this.tree.forkEnded(tid);
            const head = this.unfinished.get(tid);
            this.unfinished.delete(tid);
            const execPassed = this.execPassed.delete(tid);
            if (head === undefined)
                return;
            if (!head.startsWith(`${resumed[1]}(`)) {
                // Not this call's beginning: a call of a thread that vanished. Judged as a call cut short.
                this.call(tid, `${head}) = ?`);
                return;
            }
            // Past the kernel's point of no return: under --seccomp-bpf strace can print the result
            // of a thread's exec as `?` or a garbage errno, but the exec went through.
            rest = execPassed ? `${head}) = 0` : head + resumed[2];
        }
        if (rest.startsWith("+++")) {
            const superseded = /^\+\+\+ superseded by execve in pid (\d+) \+\+\+$/.exec(rest);
            if (superseded) {
                this.execInThread(Number(superseded[1]), tid);
                return;
            }
            // The thread is gone: a call it left unfinished never returns.
            this.abandon(tid);
            this.exitLine(tid, rest);
            return;
        }
        if (rest.startsWith("---"))
            return;
        this.call(tid, rest);
    }
    /**
     * The eBPF recorder's `@fork PARENT INNER` and `@exec INNER "exe"` lines, and `@path-unknown
     * REASON`: the process's next call acted on a file the recorder could not name exactly.
     */
    extension(tgid, rest) {
        const fork = /^@fork (\d+) (\d+)$/.exec(rest);
        if (fork) {
            this.tree.forkAnnounced(tgid, Number(fork[1]), Number(fork[2]));
            return;
        }
        const unknown = /^@path-unknown ([a-z][a-z0-9-]{0,63})$/.exec(rest);
        if (unknown) {
            this.announcedUnknown.set(tgid, unknown[1]);
            return;
        }
        const exec = /^@exec (\d+) ("(?:\\x[0-9a-f]{2})*")( interpreted)?$/.exec(rest);
        if (exec) {
            const exe = stringArg(exec[2]);
            const inner = Number(exec[1]);
            if (exe !== null)
                this.pendingExec.set(tgid, { tgid, inner, exe, interpreted: exec[3] !== undefined });
            this.tree.innerIs(tgid, inner);
        }
    }
    /**
     * A call left unfinished by a thread that is gone, judged as strace prints a call cut short
     * (`= ?`); a thread's exec that passed the point of no return (the pid changed) ran all the same.
     */
    abandon(tid) {
        this.tree.forkEnded(tid);
        const execPassed = this.execPassed.delete(tid);
        const head = this.unfinished.get(tid);
        if (head === undefined)
            return;
        this.unfinished.delete(tid);
        this.call(tid, `${head}) = ${execPassed ? "0" : "?"}`);
    }
    /**
     * A thread other than the leader executed a program: the kernel ended every other thread of the
     * process and gave this one the leader's pid. strace tells it by ` <pid changed to LEADER ...>`
     * on the thread's exec line, or by the leader's `+++ superseded by execve in pid THREAD +++`
     * (both when the exec line was still open, the second alone when another line cut it short);
     * the exec's result comes as the leader's `<... execve resumed>`. The exec is the process's
     * under the leader's pid, and so is everything after it.
     */
    execInThread(thread, leader) {
        this.tree.threadExecuted(thread, leader);
        if (thread === leader)
            return;
        const exec = this.unfinished.get(thread);
        // Already moved to the leader (the pid-changed line came first), or the exec was never seen.
        if (exec === undefined)
            return;
        this.unfinished.delete(thread);
        // The leader's own call in progress never returns: strace drops the leader without its result.
        this.abandon(leader);
        this.unfinished.set(leader, exec);
        this.execPassed.add(leader);
    }
    /** One call line, whole: `name(args) = result`. */
    call(tid, rest) {
        const call = /^([a-z0-9_]+)\((.*)$/.exec(rest);
        if (!call)
            return;
        const name = call[1];
        const body = call[2];
        // strace pads short calls with spaces before `=` to align the results.
        const split = /^(.*)\) +=\s+(.*)$/s.exec(body);
        if (!split)
            return;
        this.syscall(tid, name, split[1], split[2]);
    }
    exitLine(tid, rest) {
        const root = this.tree.root;
        if (root === null || tid !== root || this.options.onRootExit === undefined)
            return;
        const exited = /^\+\+\+ exited with (\d+) \+\+\+$/.exec(rest);
        if (exited)
            return this.options.onRootExit({ code: Number(exited[1]), signal: null });
        const killed = /^\+\+\+ killed by (SIG[A-Z0-9]+)/.exec(rest);
        if (killed)
            this.options.onRootExit({ code: null, signal: killed[1] });
    }
    syscall(tid, name, argText, ret) {
        const tgid = this.tree.tgid(tid);
        const retValue = /^(-?\d+)/.exec(ret);
        const ok = retValue !== null && Number(retValue[1]) >= 0;
        this.refused = !ok && ret.includes(" EROFS ");
        const errno = ok ? null : (/^-1 (E[A-Z0-9]+) \(/.exec(ret)?.[1] ?? null);
        this.missingErrno = errno !== null && (0,log_format/* isMissingTargetErrno */.yT)(errno) ? errno : null;
        this.pendingWrites = [];
        this.callOk = ok;
        this.callUnknown = this.ebpf ? (this.announcedUnknown.get(tgid) ?? null) : null;
        if (this.callUnknown !== null)
            this.announcedUnknown.delete(tgid);
        const announced = this.ebpf ? this.pendingExec.get(tgid) : undefined;
        if (announced !== undefined)
            this.pendingExec.delete(tgid);
        this.announcedExec = announced !== undefined && (name === "execve" || name === "execveat") ? announced : null;
        try {
            this.dispatch(tgid, tid, name, argText, ret, ok, retValue);
        }
        finally {
            this.announcedExec = null;
            this.flushWrites();
        }
    }
    /**
     * A call's writes go out together. When the kernel refused the call as read-only (EROFS) but
     * every path it named resolves inside the jail's writable places, the resolution came too late
     * (a symlink swapped or removed since): the writes are marked refused, and judged as outside.
     */
    flushWrites() {
        const writes = this.pendingWrites;
        this.pendingWrites = [];
        const writable = this.options.jailed?.writable;
        const stale = this.refused && writable !== undefined && writes.every((w) => writable(w.path));
        const errno = this.missingErrno;
        const unknown = this.callUnknown;
        this.callUnknown = null;
        for (const w of writes) {
            if (unknown !== null || w.pathUnknown !== undefined)
                this.options.emit({ ...w, pathUnknown: w.pathUnknown ?? unknown });
            else
                this.options.emit(stale ? { ...w, refused: true } : errno !== null ? { ...w, errno } : w);
        }
    }
    dispatch(tgid, tid, name, argText, ret, ok, retValue) {
        const row = SYSCALL_TABLE.get(name);
        if (row?.kind === "fork") {
            if (this.recorded(tgid) && NAMESPACE_FLAGS.test(argText))
                this.options.emit({ kind: "forbidden", tgid, name });
            // The recorder says who forked whom in its `@fork` lines.
            if (!ok || this.ebpf)
                return;
            const child = Number(retValue[1]);
            if (child <= 0)
                return;
            this.tree.cloned(tgid, tid, child, argText.includes("CLONE_THREAD"), /\bCLONE_FS\b/.test(argText));
            return;
        }
        if (tgid === this.relayTgid)
            return;
        const jailed = this.options.jailed;
        if (jailed !== undefined && (!this.tree.armed || this.tree.isJailProcess(tgid))) {
            // Bubblewrap building the jail: nothing is recorded until it executes the command. Every
            // process seen before then is bubblewrap's; every other one is the command's, recorded
            // from its first line on (a vfork child's calls come before its parent's clone line).
            if (!this.tree.armed && row?.kind === "exec" && ok && tgid !== this.tree.root) {
                this.tree.arm(tgid);
                this.options.onCommandStarted?.();
                // The jail's launcher (env -u PWD) is plumbing: the command is what it executes next.
                const launcher = jailed.launcher;
                if (launcher !== undefined && stringArg(splitArgs(argText)[0]) === launcher) {
                    if (jailed.relay !== undefined)
                        this.relayPending = tgid;
                    return;
                }
            }
            else {
                if (!this.tree.armed)
                    this.tree.addJailProcess(tgid);
                return;
            }
        }
        if (jailed !== undefined)
            this.tree.joinCommand(tgid);
        const args = splitArgs(argText);
        // Every *at call shows the caller's current directory: the freshest cwd there is.
        for (const a of args) {
            if (a.startsWith("AT_FDCWD<")) {
                const cwd = fdDecoration(a);
                if (cwd !== null)
                    this.tree.setCwd(tgid, cwd);
                break;
            }
        }
        if (FORBIDDEN_NAMES.has(name)) {
            // The process stops sharing its working directory with the processes it was cloned with.
            if (name === "unshare" && ok && /\bCLONE_FS\b/.test(argText))
                this.tree.unshareFs(tgid);
            // Refused by strace (injected EPERM) or by the kernel; `unshare` without a namespace flag is ordinary.
            if (name !== "unshare" || NAMESPACE_FLAGS.test(argText))
                this.options.emit({ kind: "forbidden", tgid, name });
            return;
        }
        if (row === undefined)
            return;
        const retPath = fdDecoration(ret.split(" ")[0]);
        switch (row.kind) {
            case "chdir": {
                const p = row.byFd ? fdDecoration(args[row.arg]) : stringArg(args[row.arg]);
                if (ok && p !== null)
                    this.tree.setCwd(tgid, row.byFd ? p : this.paths.follow(tgid, this.paths.absolute(tgid, null, p)));
                return;
            }
            case "exec":
                if (ok)
                    this.exec(tgid, row, argText, args);
                return;
            case "open":
                return this.open(tgid, row, args, ok, retPath);
            case "paths":
                if (row.unlessExists === true && ret.includes(" EEXIST "))
                    return;
                for (const [i, p] of row.paths.entries()) {
                    const dirfd = p.dirfd === null ? null : args[p.dirfd];
                    // A hard link's source, named through an fd and followed: see linkSourceFree.
                    const linkSource = row.op === "link" && i === 0 && row.paths.length === 2;
                    this.writeArg(tgid, dirfd, args[p.path], row.op, follows(p.follow, args), linkSource);
                }
                this.freeLinkSource();
                return;
            case "atOrFd": {
                const p = stringArg(args[row.path]);
                if (p === null || p === "") {
                    const fdPath = fdDecoration(args[row.dirfd]);
                    if (fdPath !== null && isFilePath(fdPath))
                        this.write(tgid, fdPath, row.op);
                    return;
                }
                return this.writeArg(tgid, args[row.dirfd], args[row.path], row.op, !(args[row.flags] ?? "").includes("AT_SYMLINK_NOFOLLOW"));
            }
            case "fd": {
                const p = fdDecoration(args[row.fd]);
                if (p !== null && isFilePath(p))
                    this.write(tgid, p, row.op);
                return;
            }
            case "bind":
                for (const { address, abstract } of unixAddresses(argText)) {
                    if (!abstract)
                        this.write(tgid, this.paths.noFollow(tgid, this.paths.absolute(tgid, null, address)), "bind");
                }
                return;
            case "send": {
                const proto = row.proto;
                for (const { host, port } of socketAddresses(argText))
                    this.options.emit({ kind: "host", tgid, host, port, proto });
                for (const { address, abstract } of unixAddresses(argText)) {
                    if (abstract) {
                        this.options.emit({ kind: "unix", tgid, address, proto });
                        continue;
                    }
                    const given = this.paths.absolute(tgid, null, address);
                    const named = this.view.recorded(this.paths.follow(tgid, given));
                    // A name nothing listens on reaches nothing (glibc asks for nscd's socket on every
                    // lookup): recorded when it connected, or when a socket of the host's is there. A
                    // container engine's name (docker.sock, ...) always is: a probe for Docker (Testcontainers'
                    // on a machine with none) is judged whether or not a daemon is there (docker_refused).
                    const engine = (0,container_engine/* isContainerEngineSocket */.Zj)(given) || (0,container_engine/* isContainerEngineSocket */.Zj)(named);
                    if (ok || engine || this.paths.isHostSocket(tgid, named))
                        this.options.emit({ kind: "unix", tgid, address: named, proto });
                }
                return;
            }
        }
    }
    exec(tgid, row, argText, args) {
        if (this.relayPending === tgid) {
            // Only the launcher's own next program can be the relay: a later exec of the same file is the command's.
            this.relayPending = null;
            const argv = splitArgs(argText);
            const argvToken = argv[1] ?? "[]";
            const second = argvToken.startsWith("[") ? stringArg(splitArgs(argvToken.slice(1, argvToken.lastIndexOf("]")))[1]) : null;
            if (second === this.options.jailed?.relay) {
                this.relayTgid = tgid;
                return;
            }
        }
        const p = stringArg(args[row.path]);
        if (p === null)
            return;
        const dirfdToken = row.dirfd === null ? null : (args[row.dirfd] ?? null);
        const dirfd = dirfdToken === null ? null : fdDecoration(dirfdToken);
        const argvToken = args[row.path + 1] ?? "[]";
        const given = argvToken.startsWith("[") ? splitArgs(argvToken.slice(1, argvToken.lastIndexOf("]"))).map((t) => stringArg(t) ?? t) : [];
        // The file the exec named: the name given, every symlink resolved in the process's view.
        const named = p === "" && dirfd !== null ? dirfd : this.paths.absolute(tgid, dirfd, p);
        if (this.jailed)
            this.tree.adopt(tgid);
        const ppid = this.tree.parent(tgid);
        const program = this.paths.program(tgid, named);
        const resolved = this.view.recorded(program);
        const announced = this.announcedExec;
        const jailPid = !this.jailed ? null : this.ebpf ? (announced?.inner ?? this.tree.knownInner(tgid)) : this.tree.jailPid(tgid);
        const at = jailPid !== null && jailPid > 0 ? { jailPid } : {};
        if (this.ebpf) {
            // The kernel's account: the argv is the new image's, the interpreter bprm->file.
            const exe = announced?.exe ?? null;
            const known = exe !== null && exe.startsWith("/");
            if (announced?.interpreted === true && known) {
                this.options.emit({ kind: "exec", tgid, ppid, ...at, path: resolved, argv: given, interpreter: this.view.recorded(exe) });
                return;
            }
            this.options.emit({ kind: "exec", tgid, ppid, ...at, path: resolved, argv: given });
            // What the kernel ran is not the file the name resolves to now (a symlink swapped since, a
            // name resolved in the wrong directory): both are judged.
            if (known && this.view.recorded(exe) !== resolved)
                this.options.emit({ kind: "exec", tgid, ppid, ...at, path: this.view.recorded(exe), argv: given });
            return;
        }
        // strace: the same record derived from the line. A `#!` script's interpreter line is read
        // from the file as binfmt_script reads it, level by level, and the argv built as the kernel
        // builds it; /proc is not asked what an ELF image or a readable script runs (by then the
        // process may run its next program).
        const event = { kind: "exec", tgid, ppid, ...at, path: resolved, argv: given };
        let file = program;
        let filename = this.execFilename(p, dirfdToken);
        let rest = given.slice(1);
        let interpreted = false;
        let handler = "elf";
        for (let depth = 0; depth < MAX_INTERPRETER_DEPTH; depth++) {
            const line = this.paths.execHandler(tgid, file);
            if (typeof line === "string") {
                handler = line;
                break;
            }
            rest = interpreterArgv(line, filename, rest);
            filename = rest.shift();
            file = this.paths.program(tgid, this.paths.absolute(tgid, null, line.name));
            interpreted = true;
        }
        if (interpreted)
            event.argv = [filename, ...rest];
        let ran = interpreted ? this.view.recorded(file) : null;
        if (handler === "unknown") {
            // The file is there and does not say what the kernel ran: one the wrapper may not read
            // (mode 0111, the kernel reads it anyway), a binfmt_misc handler's format. /proc says, late
            // at worst (then it names the process's next program, judged as well); a process already
            // gone leaves its /proc path, which no envelope allows: never "nothing else ran". A file no
            // longer there (removed; a memfd, whose name no envelope allows) is the documented race.
            const exe = this.facts.exe(tgid);
            const kernels = exe !== null && exe.startsWith("/") ? this.view.recorded(exe) : `/proc/${tgid}/exe`;
            if (kernels !== this.view.recorded(file))
                ran = kernels;
        }
        if (ran !== null)
            event.interpreter = ran;
        this.options.emit(event);
    }
    /**
     * The name the kernel gives an exec (bprm->filename), which a script's interpreter gets as its
     * argument: execve's name as given; execveat's, relative to a directory fd, `/dev/fd/N[/name]`.
     */
    execFilename(p, dirfdToken) {
        if (p.startsWith("/") || dirfdToken === null)
            return p;
        const fd = /^(\d+)/.exec(dirfdToken);
        if (fd === null)
            return p;
        return p === "" ? `/dev/fd/${fd[1]}` : `/dev/fd/${fd[1]}/${p}`;
    }
    open(tgid, row, args, ok, retPath) {
        const flags = row.flags === null ? undefined : args[row.flags];
        const op = row.flags === null ? "create" : openFlags(flags);
        const p = stringArg(args[row.path]);
        if (p === null)
            return;
        const dirfd = row.dirfd === null ? null : args[row.dirfd];
        if (this.options.plumbing.size > 0) {
            const target = ok && retPath !== null ? retPath : this.paths.absolute(tgid, dirfd === null ? null : fdDecoration(dirfd), p);
            if (this.options.plumbing.has((0,core_paths/* foldPath */.tu)(target) ?? target)) {
                this.options.emit({
                    kind: "channel",
                    tgid,
                    path: target,
                    writeOnly: row.flags === null || (flags ?? "").split("|").includes("O_WRONLY"),
                });
                return;
            }
        }
        if (op === null)
            return;
        let target;
        const masked = this.options.jailed?.masked;
        const named = masked?.size ? (0,core_paths/* foldPath */.tu)(this.paths.absolute(tgid, dirfd === null ? null : fdDecoration(dirfd), p)) : null;
        if (named !== null && masked?.has(named) === true) {
            // The jail covers it with /dev/null: the attempt is on the path the program named.
            target = named;
        }
        else if (ok && retPath !== null) {
            // The kernel's name for the file opened, at the call; a memfd, pipe or socket is no path.
            if (!isFilePath(retPath))
                return;
            target = retPath.replace(/ \(deleted\)$/, "");
        }
        else {
            const resolved = this.paths.mutation(tgid, this.paths.absolute(tgid, dirfd === null ? null : fdDecoration(dirfd), p), true);
            return this.write(tgid, resolved.path, op, resolved.unknown);
        }
        this.write(tgid, target, op);
    }
    writeArg(tgid, dirfdToken, pathToken, op, follow, linkSource = false) {
        const p = stringArg(pathToken);
        if (p === null)
            return;
        const dirfd = dirfdToken === null || dirfdToken === undefined ? null : fdDecoration(dirfdToken);
        const resolved = this.paths.mutation(tgid, this.paths.absolute(tgid, dirfd, p), follow);
        this.write(tgid, resolved.path, op, resolved.unknown);
        if (linkSource && resolved.unknown !== null)
            this.unknownLinkSource = this.pendingWrites.length - 1;
    }
    /** The pending write that is a hard link's source named through an fd (freeLinkSource), or -1. */
    unknownLinkSource = -1;
    /**
     * A successful hard link of a file named through an fd: the kernel made it within the new
     * name's mount, so where that mount holds nothing judged (linkSourceFree) the file cannot be a
     * judged one, and its unknown name is not written. Anywhere else it stays unknown.
     */
    freeLinkSource() {
        const at = this.unknownLinkSource;
        this.unknownLinkSource = -1;
        if (at < 0 || !this.callOk || this.callUnknown !== null)
            return;
        const target = this.pendingWrites[at + 1];
        const free = this.options.jailed?.linkSourceFree;
        if (target === undefined || target.pathUnknown !== undefined || free === undefined || !free(target.path))
            return;
        this.pendingWrites.splice(at, 1);
    }
    write(tgid, path, op, unknown = null) {
        const folded = (0,core_paths/* foldPath */.tu)(path);
        if (folded === null || this.options.plumbing.has(folded))
            return;
        // Writing to /dev/null mutates nothing; changing its mode or owner changes the host's node.
        if (unknown === null && isIgnoredDevice(folded) && DATA_OPS.has(op))
            return;
        const write = { kind: "write", tgid, path: this.view.recorded(folded), op };
        if (unknown !== null)
            write.pathUnknown = unknown;
        this.pendingWrites.push(write);
    }
}
const FORBIDDEN_NAMES = new Set(FORBIDDEN_SYSCALLS);
/**
 * Whether a name the kernel gave for an fd is a file's path: a memfd (`/memfd:name`, its
 * `(deleted)` aside), a pipe, a socket or an anonymous inode (`pipe:[…]`, `socket:[…]`,
 * `anon_inode:…`) is not, and a write to it changes no file.
 */
function isFilePath(name) {
    return name.startsWith("/") && !/^\/memfd:[^/]*$/.test(name.replace(/ \(deleted\)$/, ""));
}
/** Ops that only move data: a device such as /dev/null is exempt from these, and only these. */
const DATA_OPS = new Set(["write", "create", "truncate"]);

;// CONCATENATED MODULE: ./src/observer/tamper-check.ts
/** The hooks' channel is the wrapper's: a process that opens it for reading, or that is not Node, is tampering. */


/** Node binaries may write to the hooks' channel: the wrapper's own, or one named like Node. */
function isNodeBinary(path, known) {
    return known.has(path) || /^node(?:js)?[0-9.]*$/.test((0,external_node_path_.basename)(path));
}
/** The refusal an open of the channel calls for (`exe`: what the process runs, as last recorded), or null. */
function channelTampering(open, exe, nodeBinaries) {
    if (!open.writeOnly) {
        return new errors/* Refusal */.P_("OBSERVER_CHANNEL_TAMPERED", `process ${open.tgid} (${exe}) opened the hooks' channel for reading: it could take other processes' records`);
    }
    if (!isNodeBinary(exe, nodeBinaries)) {
        return new errors/* Refusal */.P_("OBSERVER_CHANNEL_TAMPERED", `process ${open.tgid} (${exe}), which is not Node, opened the hooks' channel: records from it would be forged`);
    }
    return null;
}

;// CONCATENATED MODULE: ./src/observer/stage.ts
/**
 * One stage of a run (the canary, then the command): its FIFOs, the recorder and its parser, the
 * egress proxy, the spawn of recorder + jail + command, and the checks that every record was read.
 */











/** The relay's copy in each stage directory: the product's own files are never run from where it is installed. */
const STAGED_RELAY_DIR = "relay";
/** Where the relay listens inside the jail's own network namespace (the proxy variables point here). */
const EGRESS_PORT = 3128;
/** Descriptors above 3 this process holds without close-on-exec (inherited from its caller). */
function inheritedDescriptors() {
    const out = [];
    let names;
    try {
        names = (0,external_node_fs_.readdirSync)("/proc/self/fdinfo");
    }
    catch {
        return out;
    }
    for (const name of names) {
        const fd = Number(name);
        if (!Number.isInteger(fd) || fd <= 3)
            continue;
        try {
            const flags = /^flags:\s+([0-7]+)$/m.exec((0,external_node_fs_.readFileSync)(`/proc/self/fdinfo/${fd}`, "utf8"))?.[1];
            if (flags !== undefined && (parseInt(flags, 8) & 0o2000000) === 0)
                out.push(fd);
        }
        catch {
            continue;
        }
    }
    return out.sort((a, b) => a - b);
}
async function runStage(stage, control) {
    (0,external_node_fs_.mkdirSync)(stage.dir, { recursive: true, mode: 0o700 });
    const eventsFifo = (0,external_node_path_.join)(stage.dir, EVENTS_FIFO_NAME);
    // Outside the stage directory: the jail never sees strace's output.
    const straceFifo = (0,external_node_path_.join)((0,external_node_path_.dirname)(stage.dir), `${(0,external_node_path_.basename)(stage.dir)}.${STRACE_FIFO_NAME}`);
    makeFifo(eventsFifo);
    if (stage.recorder?.name === "strace")
        makeFifo(straceFifo);
    let failure = null;
    let child = null;
    const fail = (err) => {
        if (failure === null)
            failure = err;
        if (child !== null && child.exitCode === null)
            child.kill("SIGKILL");
    };
    const frames = new FrameDecoder();
    const events = new FifoReader(eventsFifo, (text) => {
        if (failure !== null)
            return;
        try {
            for (const json of frames.push(text))
                stage.merger.fromHook(JSON.parse(json));
        }
        catch (err) {
            if (err instanceof ChannelMessageError || err instanceof FrameError || err instanceof SyntaxError) {
                fail(new errors/* Refusal */.P_("OBSERVER_CHANNEL_INVALID", `the hooks' channel carried an invalid record (${err.message})`, {
                    hint: "Something other than the envelope-gate preload wrote to the observer channel. The run is refused.",
                    cause: err,
                }));
                return;
            }
            throw err;
        }
    }, fail);
    // bwrap reads the seccomp program from this descriptor (index 3 of the spawned process).
    const seccompFd = (0,external_node_fs_.openSync)(stage.seccompFile, "r");
    const jail = stage.jail(stage.dir, 3);
    const traced = { rootExit: null };
    const exeOf = new Map();
    const onProcess = (e) => {
        // The program the process runs: a script's interpreter, else the file named.
        if (e.kind === "exec")
            exeOf.set(e.tgid, e.interpreter ?? e.path);
        if (e.kind === "channel") {
            const tampered = channelTampering(e, exeOf.get(e.tgid) ?? "an unknown program", stage.nodeBinaries);
            if (tampered !== null)
                fail(tampered);
            return;
        }
        if (e.kind === "unix" && stage.unixIsLocal(e.address))
            return;
        stage.merger.fromProcess(e);
    };
    const stagedRelay = stage.egress !== null ? (0,external_node_path_.join)(stage.dir, STAGED_RELAY_DIR, "index.js") : undefined;
    let strace = null;
    let parser = null;
    let ebpf = null;
    let push = null;
    if (stage.recorder !== null) {
        parser = new StraceParser({
            recorder: stage.recorder.name,
            cwd: stage.cwd,
            plumbing: new Set([eventsFifo, straceFifo]),
            emit: onProcess,
            jailed: {
                view: jail.view,
                masked: jail.masked,
                launcher: stage.launcher,
                writable: stage.writable,
                linkSourceFree: stage.linkSourceFree,
                relay: stagedRelay,
            },
            onRootExit: (exit) => {
                traced.rootExit = exit;
            },
            onCommandStarted: stage.onCommandStarted,
        });
        const p = parser;
        stage.merger.pidOfHook = (hookPid) => p.outerPid(hookPid);
        // A hook's record is written before its system call runs: read those first.
        push = (text) => {
            if (failure !== null)
                return;
            events.drainNow();
            p.push(text);
        };
        if (stage.recorder.name === "strace")
            strace = new FifoReader(straceFifo, push, fail);
        else {
            ebpf = stage.recorder.ebpf;
            if (!ebpf.alive) {
                (0,external_node_fs_.closeSync)(seccompFd);
                await events.finish().catch(() => { });
                throw new errors/* Refusal */.P_("OBSERVER_TRACER_LOST", "the eBPF recorder ended before this stage of the run started", {
                    hint: "Nothing would be observed, so the run is refused. Run it again.",
                });
            }
            ebpf.onLost = () => fail(new errors/* Refusal */.P_("OBSERVER_TRACER_LOST", "the eBPF recorder ended while the jail still ran: nothing after that point was observed", {
                hint: "The run is refused. Run it again.",
            }));
        }
    }
    // strace dies with the wrapper (setpriv --pdeathsig), and the jail with strace (bwrap --die-with-parent).
    // Under the eBPF recorder the gate holds the jail until the recorder follows it (docs/recorder-protocol.md);
    // the recorder ends when its input closes, as it does when the wrapper dies.
    const tracer = stage.recorder === null
        ? []
        : stage.recorder.name === "strace"
            ? [stage.setpriv, "--pdeathsig", "KILL", "--", stage.recorder.binary, ...straceArgs(straceFifo, stage.arch), "--"]
            : [stage.setpriv, "--pdeathsig", "KILL", "--", "/bin/sh", "-c", GATE_SCRIPT, "sh"];
    if (stage.network !== null) {
        stage.network.record = (r) => stage.merger.fromNetwork(r);
        const lostNetwork = (why) => fail(new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `${why} while the jail ran: lookups and service connections after that point were neither answered nor recorded`, {
            hint: "The run is refused. Run it again.",
        }));
        if (stage.network.lost !== null) {
            (0,external_node_fs_.closeSync)(seccompFd);
            await events.finish().catch(() => { });
            throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `${stage.network.lost} before this stage of the run started`, {
                hint: "The run is refused. Run it again.",
            });
        }
        stage.network.onLost = lostNetwork;
    }
    let env = stage.env;
    let relay = [];
    let proxy = null;
    if (stage.egress !== null) {
        // The only way out of the jail's network namespace: the relay inside, the proxy here.
        const socketPath = (0,external_node_path_.join)(stage.dir, "egress.sock");
        try {
            proxy = await startEgressProxy({ socketPath, allowed: stage.egress.allowed, record: (e) => stage.merger.fromEgress(e) });
        }
        catch (err) {
            (0,external_node_fs_.closeSync)(seccompFd);
            throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `the egress proxy for allowlist cannot start on ${socketPath} (${err.message})`, {
                cause: err,
            });
        }
        const { NODE_OPTIONS: childNodeOptions, ...rest } = stage.env;
        // Under allowlist the proxy keys are always the run's (their reads are not judged: PROXY_ENV_KEYS).
        env = { ...rest, ...proxyEnv(EGRESS_PORT) };
        relay = [
            stage.nodeBinary,
            stagedRelay,
            "--listen",
            `127.0.0.1:${EGRESS_PORT}`,
            "--unix",
            socketPath,
            "--child-node-options",
            childNodeOptions ?? "",
            "--",
        ];
    }
    const argv = [...jail.prefix, ...tracer, ...jail.argv, ...relay, ...stage.argv];
    const stdio = stage.quiet
        ? ["ignore", "ignore", "inherit"]
        : ["inherit", "inherit", "inherit"];
    stdio.push(seccompFd);
    // The gate's release (fd 4), closed by the gate before it executes bubblewrap.
    if (ebpf !== null)
        stdio.push("pipe");
    const own = stdio.length;
    // A descriptor the wrapper inherited without close-on-exec would pass through strace and bwrap
    // into the jail (an open directory outside the roots is a way around the read-only mounts):
    // each one is replaced by /dev/null in the child.
    const devNull = (0,external_node_fs_.openSync)("/dev/null", "r");
    for (const fd of inheritedDescriptors()) {
        if (fd < own)
            continue;
        while (stdio.length < fd)
            stdio.push("ignore");
        stdio[fd] = devNull;
    }
    let started;
    try {
        started = (0,external_node_child_process_.spawn)(argv[0], argv.slice(1), { cwd: stage.cwd, env, stdio });
    }
    finally {
        (0,external_node_fs_.closeSync)(seccompFd);
        (0,external_node_fs_.closeSync)(devNull);
    }
    child = started;
    control.running(started);
    if (parser === null && started.pid !== undefined)
        stage.onCommandStarted?.();
    const exited = new Promise((resolveExit, reject) => {
        started.once("error", (err) => reject(err));
        started.once("exit", (code, signal) => resolveExit({ code, signal }));
    }).catch((err) => {
        fail(new errors/* Refusal */.P_("OBSERVER_UNAVAILABLE", `cannot start ${argv[0]}: ${err.message}`, { cause: err }));
        return { code: null, signal: null };
    });
    if (ebpf !== null && started.pid !== undefined) {
        parser?.rootIs(started.pid);
        const pushLine = push;
        const why = await ebpf.follow(started.pid, pushLine);
        if (why !== null)
            fail(recorderUnavailable(`it did not start on the jail: ${why}`));
        else {
            const release = started.stdio[4];
            release?.on("error", () => { });
            release?.end("\n");
        }
    }
    const result = await exited;
    control.running(null);
    // The jail is gone: a forward still open is ended and recorded in this stage, before its end.
    stage.network?.settle();
    if (stage.network !== null) {
        stage.network.record = () => undefined;
        stage.network.onLost = null;
    }
    await proxy?.close();
    if (strace !== null)
        await strace.finish();
    if (ebpf !== null) {
        const synced = await ebpf.sync();
        ebpf.onLost = null;
        if (!synced) {
            fail(new errors/* Refusal */.P_("OBSERVER_TRACER_LOST", "the eBPF recorder did not answer once the jail ended: the end of the record was never seen", {
                hint: "The run is refused. Run it again.",
            }));
        }
        else if (ebpf.lost > 0) {
            fail(new errors/* Refusal */.P_("OBSERVER_EVENTS_LOST", `the eBPF recorder lost ${ebpf.lost} record${ebpf.lost === 1 ? "" : "s"} the kernel could not deliver (@lost ${ebpf.lost}): what they held was never seen`, { hint: "The run is refused. Run it again; on a busy machine, --recorder strace records without loss (and slower)." }));
        }
    }
    await events.finish();
    parser?.finish();
    control.throwIfInterrupted();
    if (!frames.idle && failure === null) {
        fail(new errors/* Refusal */.P_("OBSERVER_CHANNEL_INVALID", "the hooks' channel ended in the middle of a record"));
    }
    if (stage.recorder !== null && failure === null && traced.rootExit === null) {
        fail(new errors/* Refusal */.P_("OBSERVER_TRACER_LOST", `the process observer (${stage.recorder.name}) ended (${result.signal ?? `exit ${String(result.code)}`}) without reporting the end of the jail: the tracer died or was detached`, {
            hint: "Nothing after that point was observed, so the run is refused. Run it again.",
        }));
    }
    if (parser !== null && failure === null && !parser.commandStarted) {
        const vanished = jail.socketDirsHidden.filter((dir) => !isDirectory(dir));
        fail(new JailNotStarted(traced.rootExit ?? { code: result.code, signal: result.signal }, vanished));
    }
    if (failure !== null)
        throw failure;
    const exit = traced.rootExit;
    return exit !== null ? { code: exit.code, signal: exit.signal } : result;
}
/**
 * Bubblewrap ended before it executed the command: the jail could not be set up (its own message
 * went to the run's stderr). Nothing of the command ran. `vanished`: hidden places (socket-places.ts)
 * removed since the jail was planned, which bubblewrap could not make again to mount over.
 */
class JailNotStarted extends errors/* Refusal */.P_ {
    vanished;
    constructor(exit, vanished) {
        const how = exit.signal !== null ? `killed by ${exit.signal}` : `exit ${String(exit.code)}`;
        const why = vanished.length > 0 ? `: ${vanished[0]} was removed while the jail was set up` : "";
        super("JAIL_UNAVAILABLE", `bubblewrap ended (${how}) before it started the command, so nothing ran${why} (bubblewrap's message is above)`, {
            hint: "The run is refused: nothing was observed. Run it again; when it repeats, bubblewrap's message names the mount that failed.",
        });
        this.vanished = vanished;
    }
}
/**
 * The jail's gate under the eBPF recorder: blocks until the wrapper writes a line to fd 4 (the
 * recorder follows the gate's pid by then), closes it, and becomes bubblewrap (the same pid).
 */
const GATE_SCRIPT = 'read -r _ <&4; exec 4<&-; exec "$@"';
function recorderUnavailable(why, cause) {
    return new errors/* Refusal */.P_("RECORDER_UNAVAILABLE", `the eBPF recorder cannot record this run: ${why}`, {
        hint: "It needs root (or passwordless sudo) and a kernel with BTF; --recorder strace (or auto) records with strace instead.",
        ...(cause !== undefined ? { cause } : {}),
    });
}

// EXTERNAL MODULE: ./src/core/services.ts
var core_services = __webpack_require__(3499);
// EXTERNAL MODULE: ./src/core/dns-wire.ts
var dns_wire = __webpack_require__(6504);
;// CONCATENATED MODULE: ./src/observer/jail-network.ts
/**
 * The jail's network namespace, held for the whole run (docs/egress.md, "The jail's resolver and
 * services"):
 *
 *   holder (netns-holder.ts, in a bubblewrap of its own: user + network namespace, only lo)
 *     127.0.0.1:53 udp+tcp ──unix──> resolver here: records every name, answers or refuses it
 *     <service address>    ──unix──> forward here: connects to the job's real service, records it
 *   every stage's jail joins that namespace (nsenter before the tracer) instead of making its own.
 *
 * A unix socket service is bound by the jail itself at its path (jail.ts), over the forward's own
 * socket here. Nothing here judges: the records are judged by `check` like any other line.
 */









/** Where the jail's resolver listens: where resolv.conf points, and where resolvers look when it says nothing. */
const RESOLVER_ADDRESS = { host: "127.0.0.1", port: 53 };
/**
 * The address each service's name gets inside the jail: its own, per name, away from 127.0.0.1,
 * Debian's 127.0.1.1 and every address a service declares by IP literal.
 */
function nameAddresses(services) {
    const taken = new Set(services.flatMap((s) => (s.kind === "tcp" && external_node_net_default().isIP(s.host) !== 0 ? [s.host] : [])));
    const names = new Map();
    let next = 1;
    for (const s of services) {
        if (s.kind !== "tcp" || s.host === "localhost" || external_node_net_default().isIP(s.host) !== 0 || names.has(s.host))
            continue;
        while (taken.has(`127.0.2.${next}`))
            next++;
        names.set(s.host, `127.0.2.${next++}`);
    }
    return names;
}
function planForwards(dir, services) {
    const names = nameAddresses(services);
    const forwards = services.map((service, i) => {
        const socketPath = (0,external_node_path_.join)(dir, `service-${i}.sock`);
        if (service.kind === "unix")
            return { service, jail: service.path, socketPath };
        const address = service.host === "localhost" ? "127.0.0.1" : (names.get(service.host) ?? service.host);
        return { service, jail: (0,hosts/* formatEndpoint */.T0)(address, service.port), socketPath };
    });
    return { forwards, names };
}
function resolvConfText() {
    return `# envelope-gate: the jail's resolver (docs/egress.md)\nnameserver ${RESOLVER_ADDRESS.host}\noptions edns0\n`;
}
function jail_network_unavailable(service, why) {
    return new errors/* Refusal */.P_("SERVICE_UNAVAILABLE", `the service ${service.source} is not answering (${why})`, {
        hint: "Start it as a job service with a health check so that the job waits for it (docs/authoring.md#suites-with-services), or remove it from the envelope's services.",
    });
}
/** The real address a TCP service is reached at: a name's addresses, never link-local (metadata). */
async function serviceTargets(service) {
    if (external_node_net_default().isIP(service.host) !== 0)
        return [service.host];
    const found = await (0,external_node_dns_promises_.lookup)(service.host, { all: true, verbatim: true });
    return found.map((a) => a.address).filter((a) => !localOnly(a) || /^127\.|^::1$/.test(a));
}
/** One connect, given up after `timeoutMs`. */
function connectOnce(options, timeoutMs) {
    return new Promise((resolve, reject) => {
        const s = external_node_net_default().connect(options);
        s.setTimeout(timeoutMs, () => s.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
        s.once("connect", () => {
            s.setTimeout(0);
            s.removeAllListeners("error");
            resolve(s);
        });
        s.once("error", reject);
    });
}
/** The real service, connected: each of its addresses in turn; the last failure when none answers. */
async function connectService(service, timeoutMs) {
    if (service.kind === "unix")
        return connectOnce({ path: service.path }, timeoutMs);
    const targets = await serviceTargets(service);
    if (targets.length === 0)
        throw new Error("its name leads only to link-local addresses");
    let last = null;
    for (const host of targets) {
        try {
            return await connectOnce({ host, port: service.port }, timeoutMs);
        }
        catch (err) {
            last = err;
        }
    }
    throw last;
}
/** A refused or failed service connection's reason, as a record carries it. */
function reasonOf(err) {
    return (0,errors/* errnoOf */.UQ)(err) ?? (err instanceof Error ? err.message : String(err));
}
/**
 * Starts the holder and the resolver and forwards behind it. Every declared service is probed
 * first: one that does not accept a connection is SERVICE_UNAVAILABLE, and the run never starts.
 */
async function startJailNetwork(options) {
    (0,external_node_fs_.mkdirSync)(options.dir, { recursive: true, mode: 0o700 });
    const timeoutMs = options.probeTimeoutMs ?? 10_000;
    for (const service of options.services) {
        let socket;
        try {
            socket = await connectService(service, timeoutMs);
        }
        catch (err) {
            throw jail_network_unavailable(service, reasonOf(err));
        }
        socket.destroy();
    }
    const { forwards, names } = planForwards(options.dir, options.services);
    const resolvConf = (0,external_node_path_.join)(options.dir, "resolv.conf");
    (0,external_node_fs_.writeFileSync)(resolvConf, resolvConfText(), { mode: 0o644 });
    const open = new Set();
    let closing = false;
    const servers = [];
    const network = {
        prefix: [],
        resolvConf,
        hostsLines: [...names].map(([name, address]) => `${address}\t${name}`),
        unixServices: forwards.filter((f) => f.service.kind === "unix").map((f) => ({ jail: f.jail, host: f.socketPath })),
        plumbing: [
            RESOLVER_ADDRESS,
            ...forwards.flatMap((f) => {
                if (f.service.kind === "unix")
                    return [];
                const host = f.jail.startsWith("[") ? f.jail.slice(1, f.jail.indexOf("]")) : f.jail.slice(0, f.jail.lastIndexOf(":"));
                return [{ host, port: f.service.port }];
            }),
        ],
        meta: {
            resolver: `${RESOLVER_ADDRESS.host}:${RESOLVER_ADDRESS.port}`,
            services: forwards.map((f) => ({ service: f.service.source, jail: f.jail })),
        },
        record: () => undefined,
        lost: null,
        onLost: null,
        settle: () => {
            for (const end of [...open])
                end();
        },
        close: async () => {
            closing = true;
            network.settle();
            holder?.stdin?.end();
            holder?.kill("SIGKILL");
            await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r(undefined)))));
        },
    };
    const resolver = external_node_net_default().createServer((conn) => {
        const frames = new dns_wire/* DnsFrameReader */.o0();
        conn.on("error", () => undefined);
        conn.on("data", (chunk) => {
            let queries;
            try {
                queries = frames.push(chunk);
            }
            catch {
                conn.destroy();
                return;
            }
            for (const message of queries) {
                void answer(message, names, options.nameAllowed, (r) => network.record(r)).then((reply) => {
                    if (!conn.destroyed)
                        conn.write((0,dns_wire/* frameMessage */.$3)(reply));
                });
            }
        });
    });
    resolver.maxConnections = 128;
    servers.push(resolver);
    await listenUnix(resolver, (0,external_node_path_.join)(options.dir, "dns.sock"));
    for (const forward of forwards) {
        const server = external_node_net_default().createServer((conn) => carry(forward.service, conn, timeoutMs, open, (r) => network.record(r)));
        servers.push(server);
        await listenUnix(server, forward.socketPath);
    }
    let holder = null;
    const tcpArgs = forwards.filter((f) => f.service.kind === "tcp").flatMap((f) => ["--tcp", `${f.jail}=${f.socketPath}`]);
    const root = process.geteuid?.() === 0;
    const uid = String(process.getuid?.() ?? 0);
    const gid = String(process.getgid?.() ?? 0);
    holder = (0,external_node_child_process_.spawn)(options.bwrap, [
        "--unshare-user",
        "--unshare-net",
        "--uid",
        uid,
        "--gid",
        gid,
        "--cap-drop",
        "ALL",
        "--cap-add",
        "CAP_NET_BIND_SERVICE",
        "--ro-bind",
        "/",
        "/",
        "--proc",
        "/proc",
        "--die-with-parent",
        "--",
        options.nodeBinary,
        options.holderBundle,
        "--dns",
        `${RESOLVER_ADDRESS.host}:${RESOLVER_ADDRESS.port}=${(0,external_node_path_.join)(options.dir, "dns.sock")}`,
        ...tcpArgs,
    ], { stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
    const watched = watchHolder(holder);
    const pid = await watched.ready;
    if (pid === null) {
        await network.close();
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `the jail's network namespace cannot be set up (${watched.error() ?? "it ended"})`, {
            hint: "bubblewrap must be able to make a user and network namespace (docs/action.md, Prerequisites).",
        });
    }
    holder.once("exit", (code, signal) => {
        if (closing)
            return;
        const said = watched.error();
        const why = `the jail's network holder ended (${signal ?? `exit ${String(code)}`}${said !== null ? `: ${said}` : ""})`;
        network.lost = why;
        network.onLost?.(why);
    });
    network.prefix = root
        ? [options.nsenter, `--net=/proc/${pid}/ns/net`, "--"]
        : [options.nsenter, `--user=/proc/${pid}/ns/user`, `--net=/proc/${pid}/ns/net`, "--preserve-credentials", "--"];
    return network;
}
/** The holder's pid once it says it is ready (null if it ends first), and the first line it wrote on stderr. */
function watchHolder(holder) {
    let stderr = "";
    holder.stderr?.on("data", (d) => (stderr += d.toString("utf8")));
    const ready = new Promise((settle) => {
        let out = "";
        holder.stdout?.on("data", (d) => {
            out += d.toString("utf8");
            const m = /^ready (\d+)\n/.exec(out);
            if (m)
                settle(Number(m[1]));
        });
        holder.once("error", () => settle(null));
        holder.once("exit", () => settle(null));
    });
    return { ready, error: () => stderr.trim().split("\n")[0] || null };
}
function listenUnix(server, path) {
    return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(path, () => {
            server.removeAllListeners("error");
            server.on("error", () => undefined);
            resolve();
        });
    });
}
/** One connection from the jail to a declared service: connected, piped both ways, counted, recorded once when it ends. */
function carry(service, conn, timeoutMs, open, record) {
    const host = service.kind === "unix" ? `unix:${service.path}` : service.host;
    const port = service.kind === "unix" ? null : service.port;
    let bytesIn = 0;
    let bytesOut = 0;
    let recorded = false;
    let upstream = null;
    const end = (ok, reason) => {
        if (recorded)
            return;
        recorded = true;
        open.delete(settle);
        conn.destroy();
        upstream?.destroy();
        record({ kind: "service", host, port, ok, bytesIn, bytesOut, ...(reason !== undefined ? { reason } : {}) });
    };
    const settle = () => end(upstream !== null);
    open.add(settle);
    conn.on("error", () => undefined);
    conn.pause();
    connectService(service, timeoutMs).then((socket) => {
        upstream = socket;
        if (recorded || conn.destroyed) {
            end(true);
            return;
        }
        socket.on("error", () => undefined);
        conn.on("data", (d) => (bytesOut += d.length));
        socket.on("data", (d) => (bytesIn += d.length));
        conn.once("close", () => end(true));
        socket.once("close", () => end(true));
        conn.pipe(socket);
        socket.pipe(conn);
        conn.resume();
    }, (err) => end(false, `upstream: ${reasonOf(err)}`));
}
/** In-addr and ip6 reverse names of loopback addresses: the jail's own, answered "no such name" and not recorded. */
function isLoopbackReverse(name) {
    return /(?:^|\.)127\.in-addr\.arpa$/.test(name) || name === `1.${"0.".repeat(31)}ip6.arpa`;
}
async function answer(message, names, nameAllowed, record) {
    const parsed = (0,dns_wire/* parseQuery */.mA)(message);
    if (!parsed.ok)
        return (0,dns_wire/* buildError */.dT)(parsed.id, dns_wire/* RCODE */.KK.FORMERR);
    const query = parsed.query;
    const name = query.name;
    if (query.opcode !== 0) {
        record({ kind: "lookup", name, allowed: false });
        return (0,dns_wire/* buildAnswer */.Bo)(query, { rcode: dns_wire/* RCODE */.KK.NOTIMP });
    }
    if (name === "localhost" || name.endsWith(".localhost")) {
        return (0,dns_wire/* buildAnswer */.Bo)(query, { rcode: dns_wire/* RCODE */.KK.NOERROR, addresses: ["127.0.0.1", "::1"] });
    }
    if (isLoopbackReverse(name))
        return (0,dns_wire/* buildAnswer */.Bo)(query, { rcode: dns_wire/* RCODE */.KK.NXDOMAIN });
    const service = names.get(name);
    if (service !== undefined) {
        record({ kind: "lookup", name, allowed: true });
        return (0,dns_wire/* buildAnswer */.Bo)(query, { rcode: dns_wire/* RCODE */.KK.NOERROR, addresses: [service] });
    }
    let allowed;
    try {
        allowed = nameAllowed(name);
    }
    catch {
        allowed = false;
    }
    record({ kind: "lookup", name, allowed });
    if (!allowed)
        return (0,dns_wire/* buildAnswer */.Bo)(query, { rcode: dns_wire/* RCODE */.KK.REFUSED });
    return resolved(query);
}
/** An allowed name, resolved as the egress proxy resolves it: never to this host's loopback or link-local addresses. */
async function resolved(query) {
    if (query.type !== dns_wire/* DNS_TYPE */.$9.A && query.type !== dns_wire/* DNS_TYPE */.$9.AAAA)
        return (0,dns_wire/* buildAnswer */.Bo)(query, { rcode: dns_wire/* RCODE */.KK.NOERROR });
    try {
        const found = await (0,external_node_dns_promises_.lookup)(query.name, { all: true, verbatim: true });
        return (0,dns_wire/* buildAnswer */.Bo)(query, { rcode: dns_wire/* RCODE */.KK.NOERROR, addresses: found.map((a) => a.address).filter((a) => !localOnly(a)) });
    }
    catch (err) {
        const code = (0,errors/* errnoOf */.UQ)(err);
        return (0,dns_wire/* buildAnswer */.Bo)(query, { rcode: code === "ENOTFOUND" || code === "ENODATA" ? dns_wire/* RCODE */.KK.NXDOMAIN : dns_wire/* RCODE */.KK.SERVFAIL });
    }
}

;// CONCATENATED MODULE: ./src/observer/run.ts
/**
 * `envelope-gate run`: runs a command with the envelope in force and writes the observer log.
 * Only this process writes the log. Order of a run:
 *
 *   truncate the log -> verify the envelope -> resolve roots, scratch, command, observers
 *   -> meta -> canary stage (self-check, marked canary) -> effects snapshot -> the command
 *   -> effects look (effects.ts: protected entries new or changed, from the filesystem) -> end
 *
 * The command runs inside the jail (jail.ts) with strace outside it. `end` is written only after
 * the jail is gone (its PID namespace dies with its first process, so no process of the tree is
 * alive), strace reported the jail's own exit, and every record was read; any failure before
 * that leaves a log without `end`, which `check` refuses.
 */





































/** Runs the command under the observers and writes the log. Returns the command's exit code. */
async function runObserved(options) {
    const logPath = (0,external_node_path_.resolve)(options.logPath);
    // First, before anything can fail: a stale log from an earlier run must never survive a refusal.
    const logFd = openLog(logPath);
    const control = new RunControl();
    // A log that cannot be written stops the command, as a signal does: its acts would go unrecorded.
    const log = new LogWriter(logFd, logPath, () => control.stop());
    const privateDir = (0,external_node_fs_.mkdtempSync)((0,external_node_path_.join)((0,external_node_os_.tmpdir)(), "envelope-gate-observer-"));
    if (options.facts)
        options.facts.eventsSoFar = () => Math.max(0, log.lines - 1);
    control.listen();
    let outcome;
    const held = { ebpf: null };
    try {
        const plan = await preflight(options, logPath, privateDir, held);
        log.write(plan.meta);
        log.flush();
        await runCanary(plan, log, control);
        // After the self-check, before the command can run: the protected entries as they are.
        const effects = watchEffects(plan.effects);
        outcome = { exitCode: await runMain(plan, log, control, options, effects) };
    }
    catch (err) {
        outcome = { error: err };
    }
    finally {
        const started = held.ebpf ?? (held.pending ? await held.pending.then((r) => (r.ok ? r.ebpf : null)) : null);
        await started?.close();
        // A holder still starting when the run failed is waited for, then ended like the others.
        await held.devicesPending;
        held.devices?.close();
        await held.networkPending;
        await held.network?.close();
        control.unlisten();
        log.close();
        (0,external_node_fs_.rmSync)(privateDir, { recursive: true, force: true });
    }
    // Whatever else went wrong after the log failed (the command stopped, the tracer lost) follows from it.
    if (log.failure !== null)
        throw log.failure;
    if ("error" in outcome)
        throw outcome.error;
    return outcome.exitCode;
}
/**
 * Everything before the first stage: the envelope verified, the roots, scratch and command
 * resolved, the tools found, the jail probed and previewed, the recorder chosen, the meta line.
 */
async function preflight(options, logPath, privateDir, held) {
    // The eBPF recorder loads its programs while the rest of the run is set up.
    const startArch = jailArch();
    const recorderStart = !options.nodeOnly && startArch !== null && recorderChoice(options.recorder) !== "strace"
        ? startRecorder(startArch, resolveExecutable("sudo", process.env.PATH))
        : null;
    // Whatever fails before the choice is made, the started recorder is closed.
    held.pending = recorderStart;
    // The jail probe's bubblewrap runs while the envelope is verified; its answer is awaited (and
    // acted on) where the run needs it, below, in the same order of refusals as before.
    const configuredBwrap = process.env[BWRAP_ENV];
    const bwrap = resolveExecutable(configuredBwrap ?? "bwrap", process.env.PATH);
    // The same probe jail asks which of the host's sockets the jail's user reaches: each stage's
    // jail covers those without a probe of its own (jail.ts, reachableInJail).
    const reachableSockets = new Set();
    const jailProbe = startJailProbe(bwrap, reachableSockets);
    const envelope = await (0,files/* readVerifiedEnvelope */.pO)(options.envelopePath, options.digestPath);
    const runId = (0,external_node_crypto_.randomUUID)();
    const workspaceInput = (0,external_node_path_.resolve)(options.workspace ?? process.cwd());
    let workspace;
    try {
        workspace = (0,external_node_fs_.realpathSync)(workspaceInput);
    }
    catch (err) {
        throw new errors/* Refusal */.P_("CONFIG_INVALID", `the workspace ${workspaceInput} does not exist`, { cause: err });
    }
    // The default one is under the user's own checked parent (scratch.ts): SCRATCH_UNSAFE otherwise.
    const scratchInput = options.scratch !== undefined ? (0,external_node_path_.resolve)(options.scratch) : defaultScratch(runId);
    if (options.scratch !== undefined)
        (0,external_node_fs_.mkdirSync)(scratchInput, { recursive: true, mode: 0o700 });
    if (options.facts)
        Object.assign(options.facts, { scratch: scratchInput, scratchChosen: options.scratch === undefined });
    const scratch = (0,external_node_fs_.realpathSync)(scratchInput);
    const writableRoots = (0,core_envelope/* expandRoots */.oY)(envelope, { workspace, scratch });
    const [commandName, ...commandArgs] = options.command;
    const commandPath = resolveExecutable(commandName, process.env.PATH);
    if (commandPath === null) {
        throw new errors/* Refusal */.P_("COMMAND_NOT_FOUND", `the command "${commandName}" was not found on PATH`, {
            hint: "Give the command by absolute path, or fix PATH for envelope-gate run.",
        });
    }
    const arch = jailArch();
    if (arch === null) {
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `the run jail has no seccomp filter for this architecture (${process.arch})`, {
            hint: "envelope-gate run supports x86-64 and arm64 Linux.",
        });
    }
    // strace asked for: its absence is the first thing said, before the jail is probed.
    if (!options.nodeOnly && recorderChoice(options.recorder) === "strace")
        straceOrRefuse();
    const preloadSource = preloadBundlePath();
    if (!(0,external_node_fs_.existsSync)(preloadSource)) {
        throw new errors/* Refusal */.P_("OBSERVER_UNAVAILABLE", `the Node hooks bundle ${preloadSource} is missing`, {
            hint: "Build it: node scripts/build.mjs",
        });
    }
    const runner = runnerIdentity();
    const audit = options.audit === true;
    // Under audit the proxy runs whatever `network` says, and lets every host out (recorded).
    const egressEnforced = envelope.envelope.network === "allowlist" || audit;
    const relayBundle = relayBundlePath();
    if (egressEnforced && !(0,external_node_fs_.existsSync)(relayBundle)) {
        throw new errors/* Refusal */.P_("OBSERVER_UNAVAILABLE", `the egress relay bundle ${relayBundle} is missing`, {
            hint: "Build it: node scripts/build.mjs",
        });
    }
    const jailRefused = await jailProbe;
    if (jailRefused !== null)
        throw jailRefused;
    const bwrapBinary = bwrap;
    const launcher = findLauncher();
    if (launcher === null)
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", "env (coreutils) was not found at /usr/bin/env", { hint: "Install coreutils." });
    const setpriv = findSetpriv();
    if (setpriv === null && !options.nodeOnly) {
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", "setpriv (util-linux) was not found: the tracer could outlive a killed wrapper", {
            hint: "Install util-linux (setpriv ships with it on Debian and Ubuntu).",
        });
    }
    const cwd = (0,external_node_fs_.realpathSync)(process.cwd());
    const patterns = (0,core_envelope/* hostPatterns */.on)(envelope.envelope);
    const services = (0,core_services/* servicesOf */.Yj)(envelope.envelope.services);
    // The jail's network namespace, with its resolver and the declared services' forwards (jail-network.ts).
    // Its refusals before the holder starts are thrown here (synchronously), the holder's own by the promise.
    function startNetwork() {
        const nsenter = findUtilLinux("nsenter");
        if (nsenter === null) {
            throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", "nsenter (util-linux) was not found: the jail cannot join its network namespace", {
                hint: "Install util-linux (nsenter ships with it on Debian and Ubuntu).",
            });
        }
        const holderBundle = netnsBundlePath();
        if (!(0,external_node_fs_.existsSync)(holderBundle)) {
            throw new errors/* Refusal */.P_("OBSERVER_UNAVAILABLE", `the jail's network holder bundle ${holderBundle} is missing`, {
                hint: "Build it: node scripts/build.mjs",
            });
        }
        refuseWritableSockets(services, [...writableRoots, scratch], envelope.file);
        // The egress relay listens at 127.0.0.1:EGRESS_PORT inside the jail under allowlist and audit.
        const onRelay = egressEnforced
            ? services.find((s) => s.kind === "tcp" && s.port === EGRESS_PORT && (s.host === "127.0.0.1" || s.host === "localhost"))
            : undefined;
        if (onRelay !== undefined) {
            throw new errors/* Refusal */.P_("SERVICE_NOT_ALLOWED", `${envelope.file}: the services entry "${onRelay.source}" is where the egress relay listens in the jail`, {
                hint: `Under allowlist (and audit) 127.0.0.1:${EGRESS_PORT} is the proxy's address in the jail: publish the service on another port.`,
            });
        }
        return startJailNetwork({
            dir: (0,external_node_path_.join)(privateDir, "net"),
            bwrap: bwrapBinary,
            nsenter,
            nodeBinary: (0,external_node_fs_.realpathSync)(process.execPath),
            holderBundle,
            services,
            nameAllowed: audit
                ? () => true
                : envelope.envelope.network === "allowlist"
                    ? (name) => (0,hosts/* hostAllowed */.VI)(patterns, (0,hosts/* normalizeHost */.cS)(name), null)
                    : () => false,
        });
    }
    // The host's device nodes in the jail, read-only (devices.ts): for root, through a holder's mount
    // namespace. Its holder and the network's (below) start at once and are awaited in this order:
    // a refusal of the devices is said first, as when they were started one after the other.
    const devicesReady = process.geteuid?.() === 0
        ? readOnlyDevices((0,external_node_path_.join)(privateDir, "dev"), { unshare: findUtilLinux("unshare"), nsenter: findUtilLinux("nsenter") }, cwd)
        : Promise.resolve(UNPRIVILEGED_DEVICES);
    // Whatever fails from here on, a holder that started is ended with the run (runObserved).
    held.devicesPending = devicesReady.then((d) => void (held.devices = d), () => undefined);
    let networkReady;
    try {
        networkReady = startNetwork();
    }
    catch (err) {
        await devicesReady;
        throw err;
    }
    held.networkPending = networkReady.then((n) => void (held.network = n), () => undefined);
    const devices = await devicesReady;
    const network = await networkReady;
    held.devices = devices;
    held.network = network;
    const logReal = (0,external_node_path_.join)((0,external_node_fs_.realpathSync)((0,external_node_path_.dirname)(logPath)), (0,external_node_path_.basename)(logPath));
    const observers = options.nodeOnly ? ["node"] : ["node", "process"];
    const seccompFile = (0,external_node_path_.join)(privateDir, "seccomp.bpf");
    const nodeBinary = (0,external_node_fs_.realpathSync)(process.execPath);
    const runDir = freshRunDir(scratch, runId);
    const executables = [...new Set([process.execPath, nodeBinary, commandPath, (0,external_node_fs_.realpathSync)(commandPath)])];
    // Protected paths and persisted credentials (protected.ts), found before the jail is planned.
    const actionPath = process.env.GITHUB_ACTION_PATH;
    const guard = prepareProtected({
        envelope,
        roots: writableRoots,
        workspace,
        scratch,
        writableProtected: (0,core_envelope/* expandWritableProtected */.x8)(envelope, { workspace, scratch }),
        git: findGit(process.env.PATH, resolveExecutable),
        actionDirs: [
            ...(actionPath !== undefined && actionPath.startsWith("/") ? [actionPath] : []),
            ...[productInstallDir((0,external_node_path_.dirname)((0,external_node_url_.fileURLToPath)(import.meta.url)))].filter((d) => d !== null),
        ],
        privateDir,
    });
    // Read once: every stage's jail hides the same places.
    const places = socketPlaces(wrapperIds(), writableRoots, ["/tmp", ...homes()]);
    const jailFor = (stageDir, seccompFd) => planJail(bwrapBinary, {
        writableRoots,
        wrapperDir: privateDir,
        runDir,
        scratch,
        runnerEnv: process.env,
        execPath: process.execPath,
        stageDir,
        logPath: logReal,
        cwd,
        seccompFd,
        launcher,
        executables,
        protectedMounts: guard.mountArgs,
        commandHome: (0,core_envelope/* envMatcher */.IC)(envelope.envelope)("HOME") ? process.env.HOME : undefined,
        socketPlaces: places,
        reachableSockets,
        devices: devices.args,
        prefix: joinedPrefix(devices.prefix, network.prefix),
        network,
    });
    // Planned while the eBPF recorder still loads; a refusal of the plan (JAIL_CWD_HIDDEN) is
    // thrown after the recorder's, in the order the run has always said them.
    let preview;
    let previewRefused;
    try {
        preview = jailFor((0,external_node_path_.join)(privateDir, "preview"), 3);
    }
    catch (err) {
        previewRefused = err;
    }
    // Decided late: the eBPF recorder has loaded its programs while the run was set up.
    // Once per run: the canary stage and the command stage run under the same recorder.
    const asked = recorderChoice(options.recorder);
    let recorder = null;
    if (!options.nodeOnly) {
        recorder = await resolveRecorder(asked, recorderStart);
        held.ebpf = recorder.ebpf;
        if (options.facts)
            options.facts.recorder = { ...recorder.meta, asked };
    }
    const straceBinary = recorder !== null && recorder.meta.name === "strace" ? straceOrRefuse() : null;
    if (preview === undefined)
        throw previewRefused;
    // Under the eBPF recorder no tracer injects the refusal of a forbidden call: the filter refuses it.
    (0,external_node_fs_.writeFileSync)(seccompFile, seccompProgram(arch, recorder?.meta.name === "ebpf" ? "eperm" : "trace"), { mode: 0o600 });
    const stageRecorder = recorder === null
        ? null
        : recorder.ebpf !== null
            ? { name: "ebpf", ebpf: recorder.ebpf }
            : { name: "strace", binary: straceBinary };
    const recording = stageRecorder !== null;
    const jailMeta = {
        tool: `bubblewrap (${bwrapBinary})`,
        namespaces: ["user", "pid", "mount", "ipc", "uts", "net"],
        resolver: network.meta.resolver,
        services: network.meta.services,
        read_only: "everything outside the allowed roots",
        private: preview.privateMounts.map((m) => ({ path: m.jail, host: m.host })),
        hidden: preview.hidden,
        masked_files: preview.maskedFiles,
        visible_read_only: preview.visiblePrefixes,
        hidden_unix_sockets: preview.hiddenSockets.length,
        socket_dirs_hidden: preview.socketDirsHidden,
        protected: guard.jailMeta,
        machine_identity: preview.machineIdentity,
        seccomp: recording ? "forbidden calls refused and recorded" : "forbidden calls refused (not recorded: no process observer)",
    };
    // The caller's keys the command does not get (names, never values): the log keeps them for
    // `suggest`, which proposes the ones a failed non-Node program may have needed.
    const envAllowed = (0,core_envelope/* envMatcher */.IC)(envelope.envelope);
    const withheld = Object.keys(process.env)
        .filter((key) => !envAllowed(key))
        .sort();
    if (options.facts)
        options.facts.withheld = withheld;
    const meta = {
        kind: "meta",
        run_id: runId,
        envelope_hash: envelope.hash,
        runner,
        started_at: new Date().toISOString(),
        envelope_gate: version/* VERSION */.x,
        observers,
        ...(recorder !== null ? { recorder: recorder.meta } : {}),
        network_enforced: true,
        ...(audit ? { audit: true } : {}),
        network: `${audit
            ? `audit: the jail's own network namespace; egress only through envelope-gate's recording proxy (HTTP_PROXY=http://127.0.0.1:${EGRESS_PORT}), every host let out and recorded`
            : egressEnforced
                ? `enforced: the jail's own network namespace; egress only through envelope-gate's proxy (HTTP_PROXY=http://127.0.0.1:${EGRESS_PORT}) to allowed_hosts`
                : "enforced: the jail's own network namespace (loopback only"}; every name looked up through envelope-gate's resolver (${network.meta.resolver}), recorded${network.meta.services.length > 0 ? `; services forwarded: ${network.meta.services.map((s) => s.service).join(", ")}` : ""}; host unix sockets covered${audit || egressEnforced ? "" : ")"}`,
        jail: jailMeta,
        protected: guard.plan.meta,
        log_path: logReal,
        workspace,
        scratch,
        command: options.command,
        withheld,
    };
    // The run's environment is exactly what the envelope allows: the wrapper's keys it accepts, and
    // the run's own keys only when it accepts them too. NODE_OPTIONS is the hooks' plumbing.
    const baseEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
        // The host's name never enters: an allowed HOSTNAME or HOST says what `hostname` says inside (machine-identity.ts).
        if (value !== undefined && envAllowed(key))
            baseEnv[key] = HOSTNAME_KEYS.includes(key) ? JAIL_HOSTNAME : value;
    }
    for (const [key, value] of Object.entries({ RUN_ID: runId, ENVELOPE_HASH: envelope.hash, SCRATCH: scratch })) {
        if (envAllowed(key))
            baseEnv[key] = value;
    }
    // Set in every run (their reads are not judged: runEnv).
    Object.assign(baseEnv, (0,rules/* runEnv */.ZU)(baseEnv));
    // The caller's HOME is missing: the command's is the run's own (planJail, homeReplacement).
    if (preview.homeReplacement !== null && baseEnv.HOME !== undefined)
        baseEnv.HOME = preview.homeReplacement;
    const writablePlaces = [...writableRoots, ...preview.privateMounts.map((m) => m.jail)];
    const gitExempt = (0,core_protected/* gitExemptFor */.Pw)(workspace, scratch);
    const scratchUnjudged = gitExempt.length > 0 &&
        !guard.plan.meta.paths.some((p) => (0,core_paths/* isInsideRoot */.Xj)(p, scratch)) &&
        !(0,core_paths/* isInsideRoot */.Xj)((0,external_node_path_.resolve)(options.logPath), scratch);
    const stageCommon = {
        cwd,
        recorder: stageRecorder,
        arch,
        jail: jailFor,
        seccompFile,
        nodeBinaries: new Set([nodeBinary]),
        // The jail's own: an abstract name in its own network namespace, a socket file in a root or
        // in a private directory (made by the run itself).
        unixIsLocal: (address) => address.startsWith("@") || (0,core_paths/* isInsideAnyRoot */.Jk)(address, writablePlaces),
        // What the jail shows read-only inside a private directory (an install directory, the scratch) is not writable.
        writable: (path) => ((0,core_paths/* isInsideAnyRoot */.Jk)(path, writableRoots) ||
            ((0,core_paths/* isInsideAnyRoot */.Jk)(path, writablePlaces) && !(0,core_paths/* isInsideAnyRoot */.Jk)(path, preview.visiblePrefixes))) &&
            !guard.readOnly(path),
        // The scratch apart from the workspace, with nothing protected in it: no file there is judged.
        linkSourceFree: (path) => scratchUnjudged && (0,core_paths/* isInsideRoot */.Xj)(path, scratch),
        egress: egressEnforced
            ? {
                allowed: audit ? () => true : (host, port) => (0,hosts/* hostAllowed */.VI)(patterns, (0,hosts/* normalizeHost */.cS)(host), port),
                audit,
            }
            : null,
        nodeBinary,
        network,
        setpriv: setpriv ?? "",
        launcher,
    };
    return {
        meta,
        stage: stageCommon,
        baseEnv,
        privateDir,
        preloadSource,
        relayBundle: egressEnforced ? relayBundle : null,
        recording,
        view: preview.view,
        commandPath,
        commandName: commandName,
        commandArgs,
        effects: { roots: writableRoots, exempt: gitExempt, protectedPaths: guard.plan.meta.paths },
    };
}
/** A stage's own directory: the hooks' bundle and config, and under allowlist the relay. */
function prepareStage(plan, name) {
    const dir = (0,external_node_path_.join)(plan.privateDir, name);
    (0,external_node_fs_.mkdirSync)(dir, { recursive: true, mode: 0o700 });
    (0,external_node_fs_.copyFileSync)(plan.preloadSource, (0,external_node_path_.join)(dir, PRELOAD_FILE_NAME));
    // The relay runs inside the jail: from the stage, which the jail shows wherever the product
    // is installed (under HOME or /tmp it would be hidden) and which the command cannot write.
    if (plan.relayBundle !== null)
        (0,external_node_fs_.cpSync)((0,external_node_path_.dirname)(plan.relayBundle), (0,external_node_path_.join)(dir, STAGED_RELAY_DIR), { recursive: true });
    // With strace live it records every write with the kernel's own path; the hooks need not.
    (0,external_node_fs_.writeFileSync)((0,external_node_path_.join)(dir, PRELOAD_CONFIG_NAME), JSON.stringify({ recordWrites: !plan.recording }) + "\n");
    return dir;
}
function stageEnv(plan, dir) {
    return { ...plan.baseEnv, NODE_OPTIONS: mergeNodeOptions(dir, plan.baseEnv.NODE_OPTIONS) };
}
function stageMerger(plan, canary, emit) {
    return new Merger({
        processObserverLive: plan.recording,
        egressEndpoint: plan.stage.egress !== null ? { host: "127.0.0.1", port: EGRESS_PORT } : null,
        plumbing: plan.stage.network?.plumbing ?? [],
        recordPath: (p) => plan.view.recorded(p),
        canary,
        emit,
    });
}
/** How many times a stage's jail is built when a hidden place vanished while bubblewrap set it up. */
const JAIL_ATTEMPTS = 3;
/**
 * A stage in a fresh directory of its own. When bubblewrap could not start the command because a
 * hidden place (another user's world-writable directory) was removed while it mounted over it,
 * nothing ran and nothing was recorded: the jail is planned again from what is there now. Any
 * other failure to start, or a third, is the run's refusal.
 */
async function runJailedStage(plan, name, control, stage) {
    for (let attempt = 1;; attempt++) {
        const dir = prepareStage(plan, attempt === 1 ? name : `${name}-${attempt}`);
        try {
            return await runStage(stage(dir), control);
        }
        catch (err) {
            if (!(err instanceof JailNotStarted) || err.vanished.length === 0 || attempt >= JAIL_ATTEMPTS)
                throw err;
            process.stderr.write(`envelope-gate run: ${err.vanished.join(", ")} vanished while the jail was set up; nothing ran; setting it up again\n`);
        }
    }
}
/** Self-check: every live observer must report the canary before the command runs. */
async function runCanary(plan, log, control) {
    const canaryPath = plan.view.recorded(CANARY_JAIL_PATH);
    const seen = [];
    const result = await runJailedStage(plan, "canary", control, (dir) => ({
        dir,
        argv: canaryArgv(process.execPath),
        env: stageEnv(plan, dir),
        ...plan.stage,
        quiet: true,
        merger: stageMerger(plan, true, (e) => {
            seen.push(e);
            log.write(e);
        }),
    }));
    (0,external_node_fs_.rmSync)(canaryPath, { force: true });
    control.throwIfInterrupted();
    const missing = canaryMissing(seen, plan.recording, canaryPath);
    if (missing.length > 0 || result.code !== 0)
        throw canaryFailure(result, missing, plan.stage.recorder?.name ?? null);
}
/** The command's own stage, then the end line. Returns the command's exit code. */
async function runMain(plan, log, control, { facts, onCommandStarted }, effects) {
    await effectsReady(effects);
    if (!plan.recording) {
        // Without a process recorder nothing sees the command's own exec: the wrapper records what it starts
        // (no source: it is the wrapper's own statement, not an observer's).
        log.write({ kind: "exec", ts: Date.now(), path: plan.commandPath, argv: [plan.commandName, ...plan.commandArgs] });
    }
    const result = await runJailedStage(plan, "main", control, (dir) => ({
        dir,
        argv: [plan.commandPath, ...plan.commandArgs],
        env: stageEnv(plan, dir),
        ...plan.stage,
        quiet: false,
        merger: stageMerger(plan, false, (e) => log.write(e)),
        onCommandStarted,
    }));
    control.throwIfInterrupted();
    // The jail is gone (its PID namespace with it): what it left in the protected entries, whatever the recorder said.
    for (const e of effectsFound(effects))
        log.write(e);
    log.flush();
    const end = { kind: "end", events: log.lines, exit_code: result.code };
    if (result.signal !== null)
        end.signal = result.signal;
    log.write(end);
    log.flush();
    if (facts)
        Object.assign(facts, { events: log.lines - 2, exitCode: result.code });
    return exitCodeOf(result);
}
/**
 * The devices' and the network's prefixes (each `nsenter <namespaces and options> --`) as one
 * nsenter when both are one of the same binary: it opens every namespace file first, then enters
 * them (the network one before the mount one, whatever the order given) and goes to --wd last, as
 * the two in a row did; one exec fewer in every stage.
 */
function joinedPrefix(first, second) {
    const single = (p) => p.length >= 2 && p[p.length - 1] === "--" && p.indexOf("--") === p.length - 1;
    if (!single(first) || !single(second) || first[0] !== second[0])
        return [...first, ...second];
    return [...first.slice(0, -1), ...second.slice(1)];
}
/** Where `path` leads, its links followed as far as they go (a dangling link's target, where something could be made). */
function whereLinksLead(path) {
    let at = path;
    for (let hops = 0; hops < 40; hops++) {
        try {
            return (0,external_node_fs_.realpathSync)(at);
        }
        catch {
            let target;
            try {
                target = (0,external_node_fs_.readlinkSync)(at);
            }
            catch {
                // Not a link, and not there: where it would be, below the directory that is.
                const dir = (0,external_node_path_.dirname)(at);
                return dir === at ? at : (0,external_node_path_.join)(whereLinksLead(dir), (0,external_node_path_.basename)(at));
            }
            at = (0,external_node_path_.resolve)((0,external_node_path_.dirname)(at), target);
        }
    }
    return at;
}
/**
 * A unix socket service the run could replace: at (or, through a link, behind) a path inside a
 * root or the scratch, the command can move the forward's socket aside and put a link to any
 * socket of the host where the forward connects. Refused before anything runs.
 */
function refuseWritableSockets(services, writable, file) {
    for (const s of services) {
        if (s.kind !== "unix")
            continue;
        const real = whereLinksLead(s.path);
        const inside = [s.path, real].find((p) => (0,core_paths/* isInsideAnyRoot */.Jk)(p, writable));
        if (inside !== undefined) {
            throw new errors/* Refusal */.P_("SERVICE_NOT_ALLOWED", `${file}: the services entry "${s.source}" is inside a place the run can write (${inside})`, {
                hint: "The run could replace the socket there with a link to any socket of the host. Put the service's socket outside every allowed root and the scratch.",
            });
        }
    }
}
/**
 * The run's own directory in the scratch, the host side of its private HOME and /tmp: made here,
 * never reused (an earlier run with the same scratch cannot have prepared it, nor a link in its place).
 */
function freshRunDir(scratch, runId) {
    const dir = (0,external_node_path_.join)(scratch, `.envelope-gate-${runId}`);
    try {
        (0,external_node_fs_.mkdirSync)(dir, { mode: 0o700 });
    }
    catch (err) {
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `the run's private directory ${dir} cannot be made (${(0,errors/* errnoOf */.UQ)(err) ?? String(err)})`, {
            hint: "Give the run a scratch directory it can write.",
            cause: err,
        });
    }
    if ((0,external_node_fs_.realpathSync)(dir) !== dir) {
        throw new errors/* Refusal */.P_("JAIL_UNAVAILABLE", `the run's private directory ${dir} is not a plain directory of the scratch`);
    }
    return dir;
}
function exitCodeOf(result) {
    if (result.code !== null)
        return result.code;
    const signo = result.signal !== null ? (external_node_os_.constants.signals[result.signal] ?? 0) : 0;
    return 128 + signo;
}

;// CONCATENATED MODULE: ./src/observer/cli.ts







/** How many withheld key names the stderr line shows before it says "and N more". */
const WITHHELD_SHOWN = 20;
/** How much of the command the jail-up line shows before it cuts with "…". */
const JAIL_UP_COMMAND_CHARS = 200;
/** How often, at most, the progress line is redrawn when stderr is a terminal. */
const PROGRESS_MS = 1000;
/** A word as a POSIX shell reads it back unchanged. */
function shellWord(word) {
    return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}
/** The one line naming the caller's keys the command did not get (names only; values never). */
function withheldLine(keys) {
    if (keys.length === 0)
        return "envelope-gate run: withheld none of the caller's environment keys\n";
    const shown = keys.slice(0, WITHHELD_SHOWN).join(", ");
    const more = keys.length > WITHHELD_SHOWN ? ` and ${keys.length - WITHHELD_SHOWN} more` : "";
    return `envelope-gate run: withheld ${keys.length} of the caller's environment keys (not in allowed_env): ${shown}${more}\n`;
}
/** The one line saying which process recorder ran and, when auto fell back to strace, why. */
function recorderLine(r) {
    if (r.fallback !== undefined)
        return `envelope-gate run: recorder strace (auto: the eBPF recorder cannot start: ${r.fallback})\n`;
    return `envelope-gate run: recorder ${r.name}${r.asked === "auto" ? " (auto)" : ""}\n`;
}
/**
 * The line said while the command runs, once it is under way in the jail: before anything the
 * command prints at its end, so a person (or a script reading stderr) knows the jail is up.
 */
function jailUpLine(command, recorder) {
    const words = (0,markdown/* plainText */.wh)(command.map(shellWord).join(" "), JAIL_UP_COMMAND_CHARS);
    return `envelope-gate run: the jail is up, running ${words} (recorder: ${recorder?.name ?? "none, Node hooks only"})\n`;
}
/**
 * `envelope-gate run`'s arguments, parsed and checked (nothing runs): the one parser of them, for
 * runCommand and for the CLI's parseCommandLine. `parsed` is told the --observer path as soon as
 * the flags parse, so a refusal after that still names the log.
 */
function parseRunArgs(args, usage, parsed = () => { }) {
    const dashes = args.indexOf("--");
    if (dashes === -1)
        usage("run needs `-- CMD [ARGS...]`");
    const command = args.slice(dashes + 1);
    if (command.length === 0 || command[0] === "")
        usage("run needs a command after --");
    const { values } = (0,external_node_util_.parseArgs)({
        args: args.slice(0, dashes),
        options: { ...options/* ENVELOPE_LOG_OPTIONS */.B, ...options/* RUN_ONLY_OPTIONS */.a },
        strict: true,
        allowPositionals: false,
    });
    parsed(values.observer);
    if (!values.envelope)
        usage("run needs --envelope");
    if (!values.observer)
        usage("run needs --observer");
    return {
        envelope: values.envelope,
        sha256: values.sha256,
        observer: values.observer,
        workspace: values.workspace,
        scratch: values.scratch,
        nodeOnly: values["node-only"] === true,
        audit: values.audit === true,
        recorder: values.recorder,
        keepScratch: values["keep-scratch"] === true,
        command,
        next: true,
    };
}
/**
 * `envelope-gate run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--keep-scratch] [--node-only] [--audit] [--recorder auto|ebpf|strace] -- CMD [ARGS...]`
 * Returns the command's exit code; typed errors propagate to the CLI (exit 3).
 * On stderr, of its own: the withheld keys, then one closing line (log, events, the check to run next).
 * A scratch the run chose is removed afterwards unless --keep-scratch; a removal that fails is said
 * on stderr and leaves the exit code as it was (the log is complete; check judges it).
 */
async function runCommand(args, usage, parsed = () => { }) {
    return runAndReport(parseRunArgs(args, usage, parsed));
}
/**
 * One observed run with run's own stderr lines (the withheld keys; log, events, exit) and its
 * scratch handling: `run`, and `suggest --run` before it suggests.
 */
async function runAndReport(values) {
    const facts = {};
    const tty = process.stderr.isTTY === true;
    let drawn = false;
    const progress = tty
        ? setInterval(() => {
            const n = facts.eventsSoFar?.() ?? 0;
            process.stderr.write(`\r\x1b[Kenvelope-gate run: ${n} events so far`);
            drawn = true;
        }, PROGRESS_MS)
        : null;
    progress?.unref();
    let exitCode;
    try {
        exitCode = await runObserved({
            envelopePath: values.envelope,
            digestPath: values.sha256,
            logPath: values.observer,
            workspace: values.workspace,
            scratch: values.scratch,
            nodeOnly: values.nodeOnly,
            audit: values.audit,
            recorder: values.recorder,
            command: values.command,
            facts,
            onCommandStarted: () => {
                if (drawn)
                    process.stderr.write("\r\x1b[K");
                process.stderr.write(jailUpLine(values.command, facts.recorder));
            },
        });
    }
    finally {
        if (progress !== null)
            clearInterval(progress);
        if (drawn)
            process.stderr.write("\r\x1b[K");
        if (facts.withheld !== undefined)
            process.stderr.write(withheldLine(facts.withheld));
        if (facts.recorder !== undefined)
            process.stderr.write(recorderLine(facts.recorder));
        let scratchNote = "";
        if (facts.scratch !== undefined && facts.scratchChosen === true) {
            if (values.keepScratch)
                scratchNote = `; scratch kept at ${facts.scratch}`;
            else {
                try {
                    (0,external_node_fs_.rmSync)(facts.scratch, { recursive: true, force: true });
                }
                catch (err) {
                    process.stderr.write(`envelope-gate run: SCRATCH_REMOVE_FAILED: the scratch ${facts.scratch} could not be removed (${(0,errors/* errnoOf */.UQ)(err) ?? String(err)}); remove it by hand. The exit code is the command's, as without this.\n`);
                }
            }
        }
        if (exitCode !== undefined && facts.events !== undefined) {
            const next = ["envelope-gate", "check", "--envelope", values.envelope];
            if (values.sha256 !== undefined)
                next.push("--sha256", values.sha256);
            next.push("--observer", values.observer);
            const exited = facts.exitCode === null || facts.exitCode === undefined ? `ended by a signal (exit ${exitCode})` : `exited ${facts.exitCode}`;
            process.stderr.write(`envelope-gate run: log ${(0,external_node_path_.resolve)(values.observer)}, ${facts.events} events, the command ${exited}${scratchNote}${values.next ? `; next: ${next.map(shellWord).join(" ")}` : ""}\n`);
        }
    }
    return exitCode;
}


/***/ })

};
