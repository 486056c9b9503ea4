export const id = 85;
export const ids = [85];
export const modules = {

/***/ 2085:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   X8: () => (/* binding */ envelopeJson),
/* harmony export */   bD: () => (/* binding */ suggestEnvelope),
/* harmony export */   gf: () => (/* binding */ lineDiff)
/* harmony export */ });
/* unused harmony exports programName, WITHHELD_ECOSYSTEMS, WITHHELD_ANY_PROGRAM */
/* harmony import */ var _envelope_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1652);
/* harmony import */ var _env_sets_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(20);
/* harmony import */ var _never_proposed_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(996);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4296);
/* harmony import */ var _markdown_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(6706);
/* harmony import */ var _paths_js__WEBPACK_IMPORTED_MODULE_8__ = __webpack_require__(6107);
/* harmony import */ var _hosts_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(3848);
/* harmony import */ var _log_reader_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(3477);
/* harmony import */ var _rules_js__WEBPACK_IMPORTED_MODULE_7__ = __webpack_require__(1688);









/** A family (a prefix or a named set) needs this many distinct keys before it becomes one entry. */
const FAMILY_SIZE = 3;
const DEFAULT_ENVELOPE = {
    envelope_id: "suggested-envelope",
    allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
    allowed_tools: [],
    allowed_env: [],
    allowed_hosts: [],
    network: "deny",
};
function note(map, key, where, order, program, source) {
    const seen = map.get(key);
    if (seen)
        seen.count++;
    else
        map.set(key, { count: 1, first: where, order, program: program(), source });
}
/** The program fields of an evidence entry, from the Seen behind its first event. */
function programOf(seen) {
    return seen.program === undefined ? {} : { program: seen.program };
}
/** A word of a program's command line, short: long ones cut with `…`, ones with blanks quoted. */
function word(text, max) {
    // A program's arguments are the run's (a PR's) text: invisible and control characters shown escaped.
    // A long path keeps its end (the script's name), other words their start.
    const plain = (0,_markdown_js__WEBPACK_IMPORTED_MODULE_4__/* .plainText */ .wh)(text);
    const short = plain.length <= max ? plain : plain.includes("/") && !/\s/.test(plain) ? `…${plain.slice(-(max - 1))}` : (0,_markdown_js__WEBPACK_IMPORTED_MODULE_4__/* .plainText */ .wh)(text, max);
    return /\s/.test(short) ? `'${short}'` : short;
}
function baseName(path) {
    return path.slice(path.lastIndexOf("/") + 1);
}
/** Node binaries: their env reads are observed by the hooks (the same names run.ts knows as Node). */
const NODE_PROGRAM = /^node(?:js)?[0-9.]*$/;
/**
 * A program as an exec line names it: the file's name, what it was started as when that differs
 * (a script, `sh` for dash), its first two arguments, and its pid.
 */
function programName(exec) {
    const base = baseName(exec.path);
    const argv = exec.argv;
    const words = [word(base, 48)];
    const argv0 = argv[0];
    if (argv0 !== undefined && argv0 !== "" && !base.startsWith(baseName(argv0)))
        words.push(`(${word(argv0, 48)})`);
    words.push(...argv.slice(1, 3).map((a) => word(a, 28)));
    if (argv.length > 3)
        words.push("…");
    const pid = exec.jailPid ?? exec.pid;
    return `${words.join(" ")}${pid === undefined ? "" : ` (pid ${String(pid)})`}`;
}
/**
 * The join between a log's lines and its programs. The process observer's lines carry host pids;
 * the Node hooks' lines (`node`, `sdk`, `runtime`) carry the pid inside the jail, which the
 * process observer writes on each exec line as `jail_pid`. A line's program is that pid's exec
 * last before it (a pid that executed several programs ran them in turn), or, where the hooks'
 * record was merged ahead of its exec line, the first one after it.
 */
class Programs {
    events;
    byHost = new Map();
    byJail = new Map();
    constructor(events) {
        this.events = events;
        events.forEach((e, i) => {
            if (e.kind !== "exec" || e.source !== "process")
                return;
            for (const [map, pid] of [
                [this.byHost, e.pid],
                [this.byJail, e.jailPid],
            ]) {
                if (pid === undefined)
                    continue;
                const list = map.get(pid) ?? [];
                list.push(i);
                map.set(pid, list);
            }
        });
    }
    /** The exec event index of the program behind event `index` (pid in the namespace its source writes). */
    execOf(index, pid, source) {
        if (!Number.isInteger(pid))
            return undefined;
        const map = source === "process" ? this.byHost : source === "node" || source === "sdk" || source === "runtime" ? this.byJail : null;
        const list = map?.get(pid);
        if (list === undefined)
            return undefined;
        let before;
        for (const i of list) {
            if (i < index)
                before = i;
            else
                return before ?? i;
        }
        return before;
    }
    /** The program behind event `index`. */
    of(index) {
        const e = this.events[index];
        return this.named(this.execOf(index, e.pid, e.source));
    }
    /** The program that started the exec at event `index` (its parent, by host pid). */
    parentOf(index) {
        const e = this.events[index];
        return this.named(this.execOf(index, e.ppid, "process"));
    }
    named(at) {
        const e = at === undefined ? undefined : this.events[at];
        return e?.kind === "exec" ? programName(e) : undefined;
    }
}
function str(v) {
    return typeof v === "string" && v !== "" ? v : null;
}
/** `${WORKSPACE}` and `${SCRATCH}` written back where a path lies under them (the deeper one when nested). */
function asRoot(dir, workspace, scratch) {
    const under = [
        ["${WORKSPACE}", workspace],
        ["${SCRATCH}", scratch],
    ]
        .filter(([, value]) => value !== null && (0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .isInsideAnyRoot */ .Jk)(dir, [value]))
        .sort((a, b) => b[1].length - a[1].length)[0];
    if (under === undefined)
        return dir;
    const [name, value] = under;
    return value === "/" ? name + dir : name + dir.slice(value.length);
}
/**
 * The environment a non-Node program may need, for proposing withheld keys when a run failed:
 * a closed table, by ecosystem. A program is matched by its file's name or by what it was started
 * as (`argv[0]`); a key by name or by the ecosystem's own prefix. Credential-named, machine and
 * run-identity keys are never proposed, whatever the table says (GOAUTH, CARGO_REGISTRY_TOKEN).
 */
const WITHHELD_ECOSYSTEMS = [
    {
        name: "python",
        programs: /^(?:python|pypy)[0-9.]*$|^(?:pip[0-9.]*|pytest|tox|nox|uv|poetry)$/,
        keys: ["PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"],
        pattern: /^PYTHON[A-Z0-9]+$/,
    },
    {
        name: "go",
        programs: /^go$/,
        keys: ["GOCACHE", "GOPATH", "GOROOT", "GOFLAGS", "GOMODCACHE", "GOPROXY", "CGO_ENABLED"],
        pattern: /^GO[A-Z0-9]+$/,
    },
    {
        name: "rust",
        programs: /^(?:cargo|rustc|rustup|rustdoc)$/,
        keys: ["CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", "RUSTFLAGS"],
        pattern: /^CARGO_[A-Z0-9_]+$/,
    },
    {
        name: "c",
        programs: /^(?:[a-z0-9_]+-linux-gnu-)?(?:make|gmake|cmake|cc|c\+\+|gcc|g\+\+|clang|clang\+\+|ld)(?:-[0-9.]+)?$/,
        keys: ["CC", "CXX", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "PKG_CONFIG_PATH"],
    },
];
/** What any non-Node program may need (its home, its locale, its temporary directory). */
const WITHHELD_ANY_PROGRAM = ["HOME", "LANG", "LC_ALL", "TMPDIR"];
function failedRun(log) {
    if (log.exitCode === 0)
        return null;
    const meta = log.meta;
    if (!Array.isArray(meta.withheld))
        return null;
    const withheld = meta.withheld.filter((k) => typeof k === "string" && k !== "");
    if (withheld.length === 0)
        return null;
    const ended = log.exitCode === null ? "was killed by a signal" : `exited ${log.exitCode}`;
    const programs = [];
    for (const e of log.events) {
        if (e.kind !== "exec" || e.source !== "process")
            continue;
        const argv0 = typeof e.argv[0] === "string" ? baseName(e.argv[0]) : "";
        const names = [baseName(e.path), argv0].filter((n) => n !== "");
        if (names.some((n) => NODE_PROGRAM.test(n)))
            continue;
        programs.push({ names, where: `${log.file}:${e.line}`, program: programName(e), label: baseName(e.path) });
    }
    return programs.length === 0 ? null : { file: log.file, withheld, ended, programs };
}
function logRoot(log, meta, name, given) {
    const own = str(meta[name]);
    const ownFolded = own === null ? null : (0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .foldPath */ .tu)(own);
    if (given === undefined)
        return ownFolded;
    const folded = (0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .foldPath */ .tu)(given);
    if (folded === null) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_3__/* .Refusal */ .P_("CONFIG_INVALID", `--${name} ${given} is not an absolute path`, { file: log.file });
    }
    if (ownFolded !== null && ownFolded !== folded) {
        throw new _errors_js__WEBPACK_IMPORTED_MODULE_3__/* .Refusal */ .P_("SUGGEST_ROOT_MISMATCH", `${log.file}: --${name} ${given} is not the ${name} this run had (${own} in its meta)`, {
            file: log.file,
            line: 1,
            hint: `suggest reads each log's ${name} from its own meta; leave --${name} out (logs from several ${name === "scratch" ? "scratches" : "workspaces"} need it left out)`,
        });
    }
    return folded;
}
/** The envelope's roots for one run: a root under a variable that run did not say is left out (its writes are listed as paths). */
function logRoots(from, workspace, scratch) {
    return from.allowed_roots.flatMap((r) => {
        if ((r.includes("${WORKSPACE}") && workspace === null) || (r.includes("${SCRATCH}") && scratch === null))
            return [];
        const expanded = (0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .foldPath */ .tu)(r.replace("${WORKSPACE}", workspace ?? "").replace("${SCRATCH}", scratch ?? ""));
        return expanded === null ? [] : [expanded];
    });
}
/**
 * Why an event the rules refuse cannot be allowed by any entry `suggest` writes, or null: a
 * system call the seccomp filter traps, a write to a protected path (docs/formats.md), a
 * container engine's socket or port (docker_refused), a host unix socket.
 */
function unproposableNote(e, where) {
    if (e.kind === "syscall") {
        return `${where}: the run called ${e.subject}, which no envelope allows: this run is not a clean one to learn from`;
    }
    if (e.verdict === "write_protected") {
        return `${where}: the run wrote ${e.subject}, a protected path no root makes writable: not proposed; look at what wrote there`;
    }
    if (e.verdict === "docker_refused") {
        return `${where}: the run reached for ${e.subject}, a container engine: no envelope allows it, and suggest never proposes it. ${_rules_js__WEBPACK_IMPORTED_MODULE_7__/* .DOCKER_HINT */ .ph}`;
    }
    if (e.kind === "host" && e.host.startsWith("unix:")) {
        return `${where}: the run reached for the host's ${e.subject}: no envelope allows a host unix socket`;
    }
    return null;
}
function suggestEnvelope(logs, base, given = {}) {
    const from = base ?? DEFAULT_ENVELOPE;
    const notes = [];
    /** Writes outside their own run's roots, keyed with that run's `${WORKSPACE}`/`${SCRATCH}` written back. */
    const writes = new Map();
    const env = new Map();
    const tools = new Map();
    /** Endpoints the rules do not allow under the envelope learnt from, by the name an entry allows them by. */
    const hosts = new Map();
    /** Names reached with a port (a lookup of one is that connection's own). */
    const reachedWithPort = new Set();
    /** Every command the runs started, by its entry; `commands`: those the envelope learnt from does not allow. */
    const execs = new Map();
    const commands = new Map();
    /** The events that need an entry, by kind (syscalls never get one: unproposableNote). */
    const needs = {
        write: writes,
        env,
        tool: tools,
        host: hosts,
        exec: commands,
    };
    const workspaces = [];
    const failedRuns = [];
    let order = 0;
    /** Proxy keys only seen enumerated in an audit run's environment (not proposed). */
    const auditProxyKeys = new Set();
    /** Writes (keyed as `writes`) some run needed: done, or refused in a run whose command failed. */
    const neededWrites = new Set();
    /** Install directories of the programs the runs executed (never-proposed.ts, installDirOf). */
    const installs = new Set();
    for (const log of logs) {
        // Every log is read against its own run's workspace and scratch, by the reader check uses,
        // and each event judged by the rules under the envelope learnt from.
        const own = { workspace: null, scratch: null };
        const walked = (0,_log_reader_js__WEBPACK_IMPORTED_MODULE_6__/* .walkLog */ .w4)(log, from, (meta) => {
            own.workspace = logRoot(log, meta, "workspace", given.workspace);
            own.scratch = logRoot(log, meta, "scratch", given.scratch);
            return logRoots(from, own.workspace, own.scratch);
        });
        const { workspace, scratch } = own;
        const meta = walked.meta;
        if (Array.isArray(meta.observers) && !meta.observers.includes("process")) {
            notes.push(`${log.file} was recorded without the process observer: nothing outside Node was seen, so this envelope may be too narrow for a full run`);
        }
        if (workspace !== null)
            workspaces.push(workspace);
        for (const [name, value] of [
            ["WORKSPACE", workspace],
            ["SCRATCH", scratch],
        ]) {
            if (value === null && from.allowed_roots.some((r) => r.includes("${" + name + "}"))) {
                notes.push(`${log.file} does not say its run's ${name.toLowerCase()} (meta.${name.toLowerCase()}): writes there are listed as absolute paths`);
            }
        }
        const audit = meta.audit === true;
        const programs = new Programs(walked.events);
        const failed = failedRun(walked);
        if (failed !== null)
            failedRuns.push(failed);
        walked.events.forEach((e, i) => {
            const where = `${log.file}:${e.line}`;
            const at = order++;
            if (e.kind === "exec") {
                const install = (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .installDirOf */ .yr)(e.path);
                if (install !== null && !workspaces.some((w) => (0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .isInsideAnyRoot */ .Jk)(w, [install])))
                    installs.add(install);
                note(execs, e.subject, where, at, () => programs.parentOf(i));
            }
            if (e.kind === "host" && e.port !== null && !e.ownLoopback)
                reachedWithPort.add(e.name);
            // What the rules allow under the envelope learnt from needs no entry.
            if (e.verdict === null)
                return;
            const unproposable = unproposableNote(e, where);
            if (unproposable !== null) {
                notes.push(unproposable);
                return;
            }
            // An audit run has the proxy keys whatever the envelope says (docs/egress.md): a program
            // that enumerates the environment sees them there only. Such a read is not proposed (an
            // enforced run under deny has no such key to enumerate, and the entry would let the
            // caller's own proxy in); a read by name is, as it happens under enforce too.
            if (e.kind === "env" && audit && e.op === "enumerate" && _rules_js__WEBPACK_IMPORTED_MODULE_7__/* .PROXY_ENV_KEYS */ .mA.has(e.subject)) {
                auditProxyKeys.add(e.subject);
                return;
            }
            // A write outside the roots is keyed with its run's `${WORKSPACE}`/`${SCRATCH}` written back;
            // an endpoint by the name an entry allows it by and its port.
            const subject = e.kind === "write"
                ? asRoot(e.subject, workspace, scratch)
                : e.kind === "host"
                    ? `${e.name}\0${e.port === null ? "" : String(e.port)}`
                    : e.subject;
            // A command is named by the program that started it, anything else by the one that did it.
            const by = e.kind === "exec" ? () => programs.parentOf(i) : () => programs.of(i);
            note(needs[e.kind], subject, where, at, by, e.source);
            // A write the jail refused in a run that exited 0: the command did not need it.
            if (e.kind === "write" && (e.outcome !== "refused" || walked.exitCode !== 0))
                neededWrites.add(subject);
        });
    }
    if (auditProxyKeys.size > 0) {
        notes.push(`${[...auditProxyKeys].sort().join(", ")}: seen only by enumerating an audit run's environment, where the audit's proxy put them; not proposed`);
    }
    const added = [];
    const notProposed = [];
    const envelope = structuredClone(from);
    // Roots: the directories written outside each run's roots (a directory made is itself the root),
    // never under the system's directories, a tool cache or another program's install directory, nor
    // for writes no run needed (never-proposed.ts): those are listed apart, by reason.
    const proposable = [];
    const apart = new Map();
    for (const [path, seen] of writes) {
        const why = (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .rootApart */ .lO)(path, [...installs]) ?? (neededWrites.has(path) ? null : (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .refusedUnneeded */ .dC)());
        if (why === null) {
            proposable.push([path, seen]);
            continue;
        }
        const group = apart.get(why.why) ?? { apart: why, writes: [] };
        group.writes.push([path, seen]);
        apart.set(why.why, group);
    }
    const proposedRoots = [];
    for (const d of writtenDirs(proposable)) {
        // A write refused inside a root the envelope has (a read-only place under it): no entry to add.
        if ((0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .isInsideAnyRoot */ .Jk)(d.dir, from.allowed_roots)) {
            notes.push(`${d.first.first}: a write to ${d.covers[0]} was refused inside the envelope's roots: not a root to add`);
        }
        else if (d.dir === "/")
            notes.push(`a write to ${d.covers[0]} would need "/" as a root: not suggested; look at what wrote there`);
        else {
            envelope.allowed_roots.push(d.dir);
            proposedRoots.push(d.dir);
            added.push({ key: "allowed_roots", entry: d.dir, covers: d.covers, count: d.count, first: d.first.first, ...programOf(d.first) });
        }
    }
    for (const { apart: why, writes: list } of apart.values()) {
        for (const d of writtenDirs(list.filter(([path]) => !(0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .isInsideAnyRoot */ .Jk)(path, proposedRoots)))) {
            const avoidWith = (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .avoidingKey */ .pk)(d.covers);
            notProposed.push({
                key: "allowed_roots",
                entry: (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .shownAscii */ .JQ)(d.dir),
                kind: why.kind,
                why: why.why,
                covers: d.covers.map(_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .shownAscii */ .JQ),
                count: d.count,
                first: d.first.first,
                ...programOf(d.first),
                ...(avoidWith === undefined ? {} : { avoidWith }),
            });
        }
    }
    // Environment: exact keys; named sets, then PREFIX* families, where the evidence shows one.
    // A key that names a credential is always listed on its own (no pattern or set matches it).
    // Hosts are planned first: whether the envelope ends up under allowlist decides the proxy keys.
    const hostPlan = planHosts(hosts, reachedWithPort, envelope, execs, notes);
    const network = hostPlan.entries.length > 0 ? "allowlist" : envelope.network;
    const envRules = { envAllowed: (0,_envelope_js__WEBPACK_IMPORTED_MODULE_0__/* .envMatcher */ .IC)(envelope), network };
    const missing = [];
    for (const [k, seen] of [...env.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if ((0,_rules_js__WEBPACK_IMPORTED_MODULE_7__/* .judgeEnv */ .r0)(envRules, k, seen.source) === null)
            continue;
        // A key of never-proposed.ts's table: listed apart, with why, never in the envelope.
        const why = (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .keyApart */ .ij)(k);
        if (why === null)
            missing.push(k);
        else
            notProposed.push({
                key: "allowed_env",
                entry: (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .shownAscii */ .JQ)(k),
                ...why,
                covers: [(0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .shownAscii */ .JQ)(k)],
                count: seen.count,
                first: seen.first,
                ...programOf(seen),
            });
    }
    const grouped = new Set();
    const group = (entry, keys) => {
        const seen = keys.map((k) => env.get(k));
        envelope.allowed_env.push(entry);
        keys.forEach((k) => grouped.add(k));
        const first = seen.reduce((a, b) => (b.order < a.order ? b : a));
        added.push({
            key: "allowed_env",
            entry,
            covers: keys,
            count: seen.reduce((n, s) => n + s.count, 0),
            first: first.first,
            ...programOf(first),
        });
    };
    for (const [name, set] of _env_sets_js__WEBPACK_IMPORTED_MODULE_1__/* .ENV_SETS */ .gL) {
        const keys = missing.filter((k) => set.has(k));
        if (keys.length >= FAMILY_SIZE)
            group(name, keys);
    }
    const families = new Map();
    for (const key of missing) {
        if (grouped.has(key))
            continue;
        const head = key.split("_")[0];
        if (head === key && !missing.some((k) => k !== key && k.startsWith(head + "_")))
            continue;
        const list = families.get(head) ?? [];
        list.push(key);
        families.set(head, list);
    }
    for (const [head, keys] of families) {
        if (keys.length < FAMILY_SIZE || head === "")
            continue;
        const prefix = keys.includes(head) ? head : `${head}_`;
        // A family that would cover a program-control key is never proposed: its keys are, exactly.
        const blocked = (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .familyApart */ .Jw)(prefix);
        if (blocked !== null)
            notes.push(`${prefix}* not proposed: ${blocked.why}`);
        else
            group(`${prefix}*`, keys);
    }
    for (const key of missing) {
        if (grouped.has(key))
            continue;
        const seen = env.get(key);
        envelope.allowed_env.push(key);
        added.push({ key: "allowed_env", entry: key, covers: [key], count: seen.count, first: seen.first, ...programOf(seen) });
    }
    // Withheld keys a failed run's non-Node program may have needed: proposed, marked unobserved.
    const unobserved = new Map();
    const allowedNow = (0,_envelope_js__WEBPACK_IMPORTED_MODULE_0__/* .envMatcher */ .IC)(envelope);
    for (const run of failedRuns) {
        for (const key of run.withheld) {
            if (allowedNow(key))
                continue;
            const needs = WITHHELD_ECOSYSTEMS.filter((eco) => eco.keys.includes(key) || eco.pattern?.test(key) === true);
            const ran = run.programs.find((p) => needs.length > 0 ? needs.some((eco) => p.names.some((n) => eco.programs.test(n))) : WITHHELD_ANY_PROGRAM.includes(key));
            if (ran === undefined)
                continue;
            // Withheld and maybe needed, but of never-proposed.ts's table: listed apart, never proposed unobserved.
            const why = (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .keyApart */ .ij)(key);
            if (why !== null) {
                if (!notProposed.some((n) => n.key === "allowed_env" && n.entry === (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .shownAscii */ .JQ)(key)))
                    notProposed.push({
                        key: "allowed_env",
                        entry: (0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .shownAscii */ .JQ)(key),
                        ...why,
                        covers: [(0,_never_proposed_js__WEBPACK_IMPORTED_MODULE_2__/* .shownAscii */ .JQ)(key)],
                        count: 1,
                        first: ran.where,
                        ...(ran.program === undefined ? {} : { program: ran.program }),
                    });
                continue;
            }
            const known = unobserved.get(key);
            if (known !== undefined) {
                known.count++;
                continue;
            }
            unobserved.set(key, {
                key: "allowed_env",
                entry: key,
                covers: [key],
                count: 1,
                first: ran.where,
                ...(ran.program === undefined ? {} : { program: ran.program }),
                unobserved: true,
                reason: `withheld; ${ran.label} ran and the command ${run.ended}; not observed: non-Node programs' reads cannot be seen`,
            });
        }
    }
    for (const key of [...unobserved.keys()].sort()) {
        envelope.allowed_env.push(key);
        added.push(unobserved.get(key));
    }
    for (const [name, seen] of tools) {
        envelope.allowed_tools.push(name);
        added.push({ key: "allowed_tools", entry: name, covers: [name], count: seen.count, first: seen.first, ...programOf(seen) });
    }
    for (const e of hostPlan.entries) {
        envelope.network = "allowlist";
        envelope.allowed_hosts.push(e.entry);
        added.push(e);
    }
    if (envelope.allowed_commands !== undefined) {
        const allowedCommands = envelope.allowed_commands;
        const underWorkspace = [];
        // Each entry added allows what follows it too (`dash` found by name, then /opt/x/dash by path).
        let commandContext = { commands: (0,_rules_js__WEBPACK_IMPORTED_MODULE_7__/* .commandRules */ .Hf)(allowedCommands) };
        for (const [path, seen] of commands) {
            if ((0,_rules_js__WEBPACK_IMPORTED_MODULE_7__/* .judgeExec */ .TN)(commandContext, path) === null)
                continue;
            allowedCommands.push(path);
            commandContext = { commands: (0,_rules_js__WEBPACK_IMPORTED_MODULE_7__/* .commandRules */ .Hf)(allowedCommands) };
            added.push({ key: "allowed_commands", entry: path, covers: [path], count: seen.count, first: seen.first, ...programOf(seen) });
            if (workspaces.some((w) => (0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .isInsideAnyRoot */ .Jk)(path, [w])))
                underWorkspace.push(path);
        }
        if (underWorkspace.length > 0) {
            notes.push(`allowed_commands takes exact paths or bare names, not \${WORKSPACE}: ${underWorkspace.join(", ")} ${underWorkspace.length === 1 ? "is" : "are"} listed as recorded, under this run's workspace`);
        }
    }
    return { envelope, added, notProposed, notes };
}
/**
 * Written paths grouped by directory: each path's parent, a directory inside another one taken
 * into it (a directory made is itself the root), covers sorted, the first seen the earliest.
 */
function writtenDirs(paths) {
    const dirs = new Map();
    for (const [path, seen] of paths) {
        // `${SCRATCH}` alone (a write to the scratch itself): its parent has no portable name.
        const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : path;
        const d = dirs.get(dir) ?? { covers: [], count: 0, first: seen };
        d.covers.push(path);
        d.count += seen.count;
        if (seen.order < d.first.order)
            d.first = seen;
        dirs.set(dir, d);
    }
    const dirList = [...dirs.keys()].sort((a, b) => a.length - b.length);
    const out = [];
    for (const dir of dirList) {
        if (dirList.some((other) => other !== dir && (0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .isInsideAnyRoot */ .Jk)(dir, [other])))
            continue;
        const d = dirs.get(dir);
        for (const [other, o] of dirs)
            if (other !== dir && (0,_paths_js__WEBPACK_IMPORTED_MODULE_8__/* .isInsideAnyRoot */ .Jk)(other, [dir])) {
                d.covers.push(...o.covers);
                if (o.first.order < d.first.order)
                    d.first = o.first;
            }
        out.push({ dir, covers: d.covers.sort(), count: d.count, first: d.first });
    }
    return out;
}
/**
 * The `allowed_hosts` entries that cover the hosts the runs reached, by name with port, never the
 * resolver (docs/egress.md, "suggest: hosts"):
 * - a lookup of a name (a host line without a port) that the runs also reached with a port adds
 *   nothing: the `name:port` entry allows the lookup too;
 * - port 53 of an IP literal is the machine's resolver (a lookup the jail's network could not
 *   carry): never proposed, and a note says so;
 * - a host set replaces its members only when a program the set is documented for ran
 *   (HOST_SET_TOOLS) and every endpoint reached on the set's names is one of its members;
 *   otherwise the exact endpoints are listed.
 */
function planHosts(hosts, withPort, envelope, execs, notes) {
    const reached = [];
    for (const [key, seen] of hosts) {
        const [host, portText] = key.split("\0");
        reached.push({ host, port: portText === "" ? null : Number(portText), seen });
    }
    const candidates = [];
    const resolvers = [];
    for (const e of reached) {
        if (e.port === 53 && isIpLiteral(e.host)) {
            resolvers.push(e);
            continue;
        }
        if (e.port === null && withPort.has(e.host))
            continue;
        candidates.push(e);
    }
    if (resolvers.length > 0) {
        notes.push(`${resolvers.map((e) => (0,_hosts_js__WEBPACK_IMPORTED_MODULE_5__/* .formatEndpoint */ .T0)(e.host, e.port)).join(", ")} (first at ${resolvers[0].seen.first}): the machine's resolver, which the run's lookups try to reach: not proposed (under allowlist the proxy resolves allowed names; a run that needs its own DNS needs the resolver listed by hand)`);
    }
    const ran = new Set([...execs.keys()].map((path) => path.slice(path.lastIndexOf("/") + 1)));
    const entries = [];
    const taken = new Set();
    for (const [name] of _hosts_js__WEBPACK_IMPORTED_MODULE_5__/* .HOST_SETS */ .vP) {
        if (envelope.allowed_hosts.includes(name))
            continue;
        const members = (0,_hosts_js__WEBPACK_IMPORTED_MODULE_5__/* .expandHostEntry */ .nd)(name);
        const names = new Set(members.map((m) => m.host));
        const onNames = candidates.filter((e) => names.has(e.host) && !taken.has(e));
        if (onNames.length === 0)
            continue;
        const tool = (_hosts_js__WEBPACK_IMPORTED_MODULE_5__/* .HOST_SET_TOOLS */ .Q7.get(name) ?? []).find((t) => ran.has(t));
        if (tool === undefined)
            continue;
        const outside = onNames.filter((e) => e.port !== null && !(0,_hosts_js__WEBPACK_IMPORTED_MODULE_5__/* .hostAllowed */ .VI)(members, e.host, e.port));
        if (outside.length > 0) {
            notes.push(`${name} not proposed for ${tool}'s hosts: ${outside.map((e) => (0,_hosts_js__WEBPACK_IMPORTED_MODULE_5__/* .formatEndpoint */ .T0)(e.host, e.port)).join(", ")} ${outside.length === 1 ? "is" : "are"} not among its members; the endpoints are listed as reached`);
            continue;
        }
        onNames.forEach((e) => taken.add(e));
        // The earliest by the order the logs were read in, never by the text of "file:line" ("log:100" < "log:20").
        const earliest = onNames.reduce((a, b) => (b.seen.order < a.seen.order ? b : a)).seen;
        entries.push({
            key: "allowed_hosts",
            entry: name,
            covers: onNames.map((e) => (0,_hosts_js__WEBPACK_IMPORTED_MODULE_5__/* .formatEndpoint */ .T0)(e.host, e.port)),
            count: onNames.reduce((n, e) => n + e.seen.count, 0),
            first: earliest.first,
            ...programOf(earliest),
        });
    }
    for (const e of candidates) {
        if (taken.has(e))
            continue;
        const entry = (0,_hosts_js__WEBPACK_IMPORTED_MODULE_5__/* .formatEndpoint */ .T0)(e.host, e.port);
        entries.push({ key: "allowed_hosts", entry, covers: [entry], count: e.seen.count, first: e.seen.first, ...programOf(e.seen) });
    }
    return { entries };
}
/** An IPv4 or IPv6 literal (lexically: the log's hosts are normalised already). */
function isIpLiteral(host) {
    return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || (host.includes(":") && /^[0-9a-f:.]+$/.test(host));
}
/** The envelope as it is written to a file: two-space JSON, keys in the contract's order, none left out. */
function envelopeJson(envelope) {
    const order = [
        "envelope_id",
        "allowed_roots",
        "allowed_tools",
        "allowed_env",
        "allowed_hosts",
        "network",
        "allowed_commands",
        "loopback",
        "observation",
        "writable_protected",
        "services",
    ];
    const out = {};
    for (const key of order)
        if (envelope[key] !== undefined)
            out[key] = envelope[key];
    return JSON.stringify(out, null, 2) + "\n";
}
/** A reviewable line diff between two envelope texts (`-`/`+`/` `). */
function lineDiff(before, after) {
    const a = before.split("\n");
    const b = after.split("\n");
    // Longest common subsequence: envelopes are small.
    const n = a.length;
    const m = b.length;
    const lcs = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
    for (let i = n - 1; i >= 0; i--)
        for (let j = m - 1; j >= 0; j--)
            lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    const out = [];
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] === b[j]) {
            out.push(`  ${a[i]}`);
            i++;
            j++;
        }
        else if (j < m && (i === n || lcs[i][j + 1] > lcs[i + 1][j]))
            out.push(`+ ${b[j++]}`);
        else
            out.push(`- ${a[i++]}`);
    }
    return out.filter((l, k) => !(k === out.length - 1 && l.trim() === "")).join("\n");
}


/***/ })

};
