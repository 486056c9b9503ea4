export const id = 826;
export const ids = [826];
export const modules = {

/***/ 4826:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  suggestCommand: () => (/* binding */ suggestCommand)
});

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/core/envelope.ts + 2 modules
var core_envelope = __webpack_require__(8447);
// EXTERNAL MODULE: ./src/core/errors.ts
var errors = __webpack_require__(4296);
// EXTERNAL MODULE: ./src/core/env-sets.ts
var env_sets = __webpack_require__(20);
// EXTERNAL MODULE: ./src/core/log.ts + 1 modules
var core_log = __webpack_require__(3984);
// EXTERNAL MODULE: ./src/core/paths.ts
var paths = __webpack_require__(6107);
// EXTERNAL MODULE: ./src/core/hosts.ts
var core_hosts = __webpack_require__(3848);
;// CONCATENATED MODULE: ./src/core/suggest.ts






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
function note(map, key, where) {
    const seen = map.get(key);
    if (seen)
        seen.count++;
    else
        map.set(key, { count: 1, first: where });
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
        .filter(([, value]) => value !== null && (0,paths/* isInsideAnyRoot */.Jk)(dir, [value]))
        .sort((a, b) => b[1].length - a[1].length)[0];
    if (under === undefined)
        return dir;
    const [name, value] = under;
    return value === "/" ? name + dir : name + dir.slice(value.length);
}
function logRoot(log, meta, name, given) {
    const own = str(meta[name]);
    const ownFolded = own === null ? null : (0,paths/* foldPath */.tu)(own);
    if (given === undefined)
        return ownFolded;
    const folded = (0,paths/* foldPath */.tu)(given);
    if (folded === null) {
        throw new errors/* GateError */.ue("CONFIG_INVALID", `--${name} ${given} is not an absolute path`, { file: log.file });
    }
    if (ownFolded !== null && ownFolded !== folded) {
        throw new errors/* GateError */.ue("SUGGEST_ROOT_MISMATCH", `${log.file}: --${name} ${given} is not the ${name} this run had (${own} in its meta)`, {
            file: log.file,
            line: 1,
            hint: `suggest reads each log's ${name} from its own meta; leave --${name} out (logs from several ${name === "scratch" ? "scratches" : "workspaces"} need it left out)`,
        });
    }
    return folded;
}
function suggestEnvelope(logs, base, given = {}) {
    const from = base ?? DEFAULT_ENVELOPE;
    const notes = [];
    /** Writes outside their own run's roots, keyed with that run's `${WORKSPACE}`/`${SCRATCH}` written back. */
    const writes = new Map();
    const env = new Map();
    const tools = new Map();
    const hosts = new Map();
    const execs = new Map();
    const workspaces = [];
    let ownNetwork = true;
    for (const log of logs) {
        const meta = log.lines[0];
        const end = log.lines[log.lines.length - 1];
        if (meta?.kind !== "meta" || end?.kind !== "end") {
            throw new errors/* GateError */.ue("OBSERVER_LOG_INCOMPLETE", `${log.file}: a log from a finished run starts with meta and ends with end`, {
                file: log.file,
            });
        }
        if (Array.isArray(meta.observers) && !meta.observers.includes("process")) {
            notes.push(`${log.file} was recorded without the process observer: nothing outside Node was seen, so this envelope may be too narrow for a full run`);
        }
        // Every log is read against its own run's workspace and scratch.
        const workspace = logRoot(log, meta, "workspace", given.workspace);
        const scratch = logRoot(log, meta, "scratch", given.scratch);
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
        const roots = from.allowed_roots.flatMap((r) => {
            if ((r.includes("${WORKSPACE}") && workspace === null) || (r.includes("${SCRATCH}") && scratch === null))
                return [];
            const expanded = (0,paths/* foldPath */.tu)(r.replace("${WORKSPACE}", workspace ?? "").replace("${SCRATCH}", scratch ?? ""));
            return expanded === null ? [] : [expanded];
        });
        if (meta.network_enforced !== true)
            ownNetwork = false;
        log.lines.forEach((e, i) => {
            if (e.canary === true)
                return;
            const where = `${log.file}:${i + 1}`;
            switch (e.kind) {
                case "write": {
                    const path = (0,paths/* foldPath */.tu)(str(e.path) ?? "");
                    if (path !== null && !(0,paths/* isInsideAnyRoot */.Jk)(path, roots))
                        note(writes, asRoot(path, workspace, scratch), where);
                    return;
                }
                case "env": {
                    const key = str(e.key);
                    if (key !== null && !(e.source === "runtime" && core_log/* RUNTIME_ENV_KEYS */.yG.has(key)))
                        note(env, key, where);
                    return;
                }
                case "tool": {
                    const name = str(e.name);
                    if (name !== null)
                        note(tools, name, where);
                    return;
                }
                case "host": {
                    const host = str(e.host);
                    if (host === null)
                        return;
                    const h = host.startsWith("unix:") ? host : (0,core_hosts/* normalizeHost */.cS)(host);
                    if (ownNetwork && (0,core_log/* isLoopback */.U9)(h))
                        return;
                    const named = e.source === "process" && typeof e.via === "string" ? (0,core_hosts/* normalizeHost */.cS)(e.via) : h;
                    note(hosts, `${named}\0${typeof e.port === "number" ? String(e.port) : ""}`, where);
                    return;
                }
                case "exec": {
                    const path = (0,paths/* foldPath */.tu)(str(e.path) ?? "");
                    if (path === null)
                        return;
                    // Started by a bare name (argv[0] has no "/"): PATH found it, and the recorded (resolved)
                    // path's basename is the portable entry, the one the undeclared_command rule matches at
                    // any path (`sh` found as /usr/bin/sh -> dash is recorded, and allowed, as `dash`).
                    // Started by a path (a compiler's /usr/lib/gcc/.../cc1, ./configure): the path.
                    const argv0 = Array.isArray(e.argv) ? e.argv[0] : undefined;
                    const byName = typeof argv0 === "string" && argv0 !== "" && !argv0.includes("/");
                    note(execs, byName ? path.slice(path.lastIndexOf("/") + 1) : path, where);
                    return;
                }
                case "syscall":
                    notes.push(`${where}: the run called ${String(e.name)}, which no envelope allows: this run is not a clean one to learn from`);
                    return;
                default:
                    return;
            }
        });
    }
    const added = [];
    const envelope = structuredClone(from);
    // Roots: the directories written outside each run's roots (a directory made is itself the root).
    const outside = [...writes.entries()];
    const dirs = new Map();
    for (const [path, seen] of outside) {
        // `${SCRATCH}` alone (a write to the scratch itself): its parent has no portable name.
        const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) || "/" : path;
        const d = dirs.get(dir) ?? { covers: [], count: 0, first: seen.first };
        d.covers.push(path);
        d.count += seen.count;
        dirs.set(dir, d);
    }
    const dirList = [...dirs.keys()].sort((a, b) => a.length - b.length);
    for (const dir of dirList) {
        if (dirList.some((other) => other !== dir && (0,paths/* isInsideAnyRoot */.Jk)(dir, [other])))
            continue;
        const d = dirs.get(dir);
        for (const [other, o] of dirs)
            if (other !== dir && (0,paths/* isInsideAnyRoot */.Jk)(other, [dir]))
                d.covers.push(...o.covers);
        const entry = dir;
        if (dir === "/")
            notes.push(`a write to ${d.covers[0]} would need "/" as a root: not suggested; look at what wrote there`);
        else {
            envelope.allowed_roots.push(entry);
            added.push({ key: "allowed_roots", entry, covers: d.covers.sort(), count: d.count, first: d.first });
        }
    }
    // Environment: exact keys; named sets, then PREFIX* families, where the evidence shows one.
    // A key that names a credential is always listed on its own (no pattern or set matches it).
    const allowed = (0,core_envelope/* envMatcher */.IC)(envelope);
    const missing = [...env.keys()].filter((k) => !allowed(k)).sort();
    const grouped = new Set();
    const group = (entry, keys) => {
        const seen = keys.map((k) => env.get(k));
        envelope.allowed_env.push(entry);
        keys.forEach((k) => grouped.add(k));
        added.push({
            key: "allowed_env",
            entry,
            covers: keys,
            count: seen.reduce((n, s) => n + s.count, 0),
            first: seen.map((s) => s.first).sort()[0],
        });
    };
    for (const [name, set] of env_sets/* ENV_SETS */.gL) {
        const keys = missing.filter((k) => set.has(k) && !env_sets/* CREDENTIAL_KEY */.sZ.test(k) && !env_sets/* MACHINE_KEY */.E.test(k) && !(0,env_sets/* isRunIdentityKey */.z_)(k));
        if (keys.length >= FAMILY_SIZE)
            group(name, keys);
    }
    const families = new Map();
    for (const key of missing) {
        if (env_sets/* CREDENTIAL_KEY */.sZ.test(key) || env_sets/* MACHINE_KEY */.E.test(key) || (0,env_sets/* isRunIdentityKey */.z_)(key) || grouped.has(key))
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
        group(keys.includes(head) ? `${head}*` : `${head}_*`, keys);
    }
    for (const key of missing) {
        if (grouped.has(key))
            continue;
        const seen = env.get(key);
        envelope.allowed_env.push(key);
        added.push({ key: "allowed_env", entry: key, covers: [key], count: seen.count, first: seen.first });
    }
    for (const [name, seen] of tools) {
        if (envelope.allowed_tools.includes(name))
            continue;
        envelope.allowed_tools.push(name);
        added.push({ key: "allowed_tools", entry: name, covers: [name], count: seen.count, first: seen.first });
    }
    const patterns = envelope.allowed_hosts.map((h) => (0,core_hosts/* parseHostPattern */.ic)(h));
    for (const [key, seen] of hosts) {
        const [host, portText] = key.split("\0");
        const port = portText === "" ? null : Number(portText);
        if (envelope.network === "allowlist" && (0,core_hosts/* hostAllowed */.VI)(patterns, host, port))
            continue;
        if (host.startsWith("unix:")) {
            notes.push(`${seen.first}: the run reached for the host's ${host}: no envelope allows a host unix socket`);
            continue;
        }
        const entry = port === null ? host : host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
        envelope.network = "allowlist";
        envelope.allowed_hosts.push(entry);
        added.push({ key: "allowed_hosts", entry, covers: [entry], count: seen.count, first: seen.first });
    }
    if (envelope.allowed_commands !== undefined) {
        const commands = envelope.allowed_commands;
        const underWorkspace = [];
        for (const [path, seen] of execs) {
            if (commands.includes(path) || commands.includes(path.slice(path.lastIndexOf("/") + 1)))
                continue;
            commands.push(path);
            added.push({ key: "allowed_commands", entry: path, covers: [path], count: seen.count, first: seen.first });
            if (workspaces.some((w) => (0,paths/* isInsideAnyRoot */.Jk)(path, [w])))
                underWorkspace.push(path);
        }
        if (underWorkspace.length > 0) {
            notes.push(`allowed_commands takes exact paths or bare names, not \${WORKSPACE}: ${underWorkspace.join(", ")} ${underWorkspace.length === 1 ? "is" : "are"} listed as recorded, under this run's workspace`);
        }
    }
    return { envelope, added, notes };
}
/** The envelope as it is written to a file: two-space JSON, keys in the contract's order. */
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

// EXTERNAL MODULE: ./src/gate/files.ts
var files = __webpack_require__(1552);
// EXTERNAL MODULE: ./src/gate/output.ts
var output = __webpack_require__(4598);
;// CONCATENATED MODULE: ./src/gate/suggest.ts
/**
 * `envelope-gate suggest`: reads recorded logs (and optionally the envelope to widen), asks
 * core/suggest for the tightest envelope that passes them, prints it explained, and with
 * --write writes it and its digest.
 */







async function readLog(file) {
    let text;
    try {
        text = await (0,promises_.readFile)(file, "utf8");
    }
    catch (err) {
        const code = err.code;
        throw new errors/* GateError */.ue(code === "ENOENT" ? "OBSERVER_LOG_MISSING" : "OBSERVER_LOG_UNREADABLE", `observer log ${file} cannot be read (${code ?? String(err)})`, { file });
    }
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "")
        lines.pop();
    return {
        file,
        lines: lines.map((line, i) => {
            try {
                const value = JSON.parse(line);
                if (value === null || typeof value !== "object" || Array.isArray(value))
                    throw new SyntaxError("not an object");
                return value;
            }
            catch (err) {
                throw new errors/* GateError */.ue("OBSERVER_LOG_MALFORMED", `${file}:${i + 1}: not a log line (${err.message})`, {
                    file,
                    line: i + 1,
                });
            }
        }),
    };
}
async function suggestCommand(options) {
    const base = options.from !== undefined ? await (0,files/* readVerifiedEnvelope */.pO)(options.from, options.fromDigest) : null;
    const logs = await Promise.all(options.logs.map(readLog));
    const { envelope, added, notes } = suggestEnvelope(logs, base?.envelope ?? null, {
        workspace: options.workspace === undefined ? undefined : (0,external_node_path_.resolve)(options.workspace),
        scratch: options.scratch === undefined ? undefined : (0,external_node_path_.resolve)(options.scratch),
    });
    const out = [
        `envelope-gate suggest: ${added.length} entr${added.length === 1 ? "y" : "ies"} from ${logs.length} log${logs.length === 1 ? "" : "s"}`,
    ];
    for (const a of added) {
        const covers = a.covers.length > 1 || a.covers[0] !== a.entry
            ? ` covers ${a.covers.slice(0, 4).join(", ")}${a.covers.length > 4 ? `, … (${a.covers.length})` : ""};`
            : "";
        out.push(`  + ${a.key.padEnd(16)} ${a.entry}  (${covers} ${a.count} time${a.count === 1 ? "" : "s"}, first at ${a.first})`.replace("( ", "("));
    }
    for (const n of notes)
        out.push(`  note: ${n}`);
    const text = envelopeJson(envelope);
    out.push("");
    if (base !== null) {
        out.push(`changes to ${options.from} (review them; the digest changes too):`);
        out.push(lineDiff(envelopeJson(base.envelope), text));
    }
    else {
        out.push(text.trimEnd());
    }
    if (options.write !== undefined) {
        const digestFile = `${options.write}.sha256`;
        await (0,promises_.writeFile)(options.write, text).catch((err) => {
            throw (0,output/* outputUnwritable */.n)(options.write, "the suggested envelope", err);
        });
        await (0,promises_.writeFile)(digestFile, (0,core_envelope/* formatDigestLine */.sv)(Buffer.from(text), (0,external_node_path_.basename)(options.write))).catch((err) => {
            throw (0,output/* outputUnwritable */.n)(digestFile, "the suggested envelope's digest", err);
        });
        out.push("", `wrote ${options.write} and ${options.write}.sha256`);
    }
    return out.join("\n") + "\n";
}


/***/ })

};
