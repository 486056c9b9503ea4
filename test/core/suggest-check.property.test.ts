/**
 * One walker (issue 31): for generated logs and envelopes, the envelope `suggest` writes passes
 * `check` on the same logs (but for what it says in a note no entry can allow), and `check` on the
 * envelope suggest started from finds nothing suggest did not list. Pure core, no processes: a
 * seeded generator, the same 400 cases every run.
 */
import { describe, expect, it } from "vitest";
import { expandRoots, loadEnvelope, type Envelope } from "../../src/core/envelope.js";
import { LogEvaluator, type LogVerdict } from "../../src/core/log-reader.js";
import { PROXY_ENV_KEYS } from "../../src/core/rules.js";
import { envelopeJson, suggestEnvelope } from "../../src/core/suggest.js";
import { logLines, recordedLog, type Event } from "../support/logs.js";

const WORKSPACE = "/work/repo";
const SCRATCH = "/tmp/s";

/** mulberry32: a small deterministic PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const some = <T>(r: Rand, xs: readonly T[], p = 0.4): T[] => xs.filter(() => r() < p);

const ENV_KEYS = [
  "HOME",
  "LANG",
  "FOO_A",
  "FOO_B",
  "FOO_C",
  "BAR",
  "HTTP_PROXY",
  "NO_PROXY",
  "CI",
  "NODE_OPTIONS",
  "VITEST",
  "VITEST_MODE",
];
const WRITE_PATHS = [
  `${WORKSPACE}/src/a.ts`,
  `${WORKSPACE}/build/out.o`,
  `${SCRATCH}/tmp/x`,
  "/data/cache/tool/x",
  "/data/cache/tool/deep/y",
  "/srv/out/z",
  "/home/u/.cache/q",
];
const HOSTS: Event[] = [
  { host: "example.com", port: 443, source: "proxy" },
  { host: "93.184.216.34", port: 443, via: "example.com", source: "process" },
  { host: "127.0.0.1", port: 8080, source: "process" },
  { host: "localhost", port: 3000, source: "node" },
  { host: "example.com", source: "node" },
  { host: "registry.npmjs.org", port: 443, source: "proxy" },
  { host: "10.0.0.2", port: 53, source: "process" },
  { host: "Api.Example.ORG", port: 8443, source: "proxy" },
  // Container engines (docker_refused): never proposed, always noted.
  { host: "unix:/run/docker.sock", source: "process" },
  { host: "127.0.0.1", port: 2375, source: "process" },
  { host: "docker.example", port: 2376, source: "proxy" },
];
const EXECS: Event[] = [
  { path: "/usr/bin/dash", argv: ["sh", "-c", "x"] },
  { path: "/usr/bin/git", argv: ["git", "status"] },
  { path: "/usr/lib/gcc/cc1", argv: ["/usr/lib/gcc/cc1"] },
  { path: "/usr/bin/node", argv: ["node", "t.js"] },
];

function generateEvents(r: Rand): Event[] {
  const events: Event[] = [];
  const n = 1 + Math.floor(r() * 14);
  let pid = 100;
  for (let i = 0; i < n; i++) {
    const kind = pick(r, ["env", "write", "host", "tool", "exec", "exec", "syscall"] as const);
    if (kind === "syscall" && r() < 0.7) continue;
    if (kind === "env")
      events.push({ kind, key: pick(r, ENV_KEYS), op: pick(r, ["get", "enumerate"]), source: pick(r, ["node", "runtime", "process"]) });
    if (kind === "write") {
      const path = pick(r, WRITE_PATHS);
      const how = r();
      if (how < 0.15) events.push({ kind, path, op: "create", source: "process", errno: "ENOENT" });
      else if (how < 0.3) events.push({ kind, path, op: "write", ok: false, source: "process" });
      else events.push({ kind, path, op: pick(r, ["write", "create", "mkdir"]), source: pick(r, ["node", "process"]) });
    }
    if (kind === "host") events.push({ kind, ...pick(r, HOSTS) });
    if (kind === "tool") events.push({ kind, name: pick(r, ["read_file", "apply_patch", "run_tests"]), source: "sdk" });
    if (kind === "exec") events.push({ kind, pid: pid++, ppid: 1, ...pick(r, EXECS), source: "process" });
    if (kind === "syscall") events.push({ kind, name: "ptrace", source: "process" });
  }
  return events;
}

function generateEnvelope(r: Rand): Envelope {
  const network = pick(r, ["deny", "allowlist"] as const);
  const e: Envelope = {
    envelope_id: "base",
    allowed_roots: r() < 0.5 ? ["${WORKSPACE}", "${SCRATCH}"] : ["${WORKSPACE}/src"],
    allowed_tools: some(r, ["read_file", "apply_patch"]),
    allowed_env: some(r, ["HOME", "FOO_A", "CI"]),
    allowed_hosts: network === "allowlist" ? some(r, ["example.com:443", "registry.npmjs.org:443"]) : [],
    network,
  };
  if (r() < 0.4) e.loopback = "network";
  if (r() < 0.5) e.allowed_commands = some(r, ["git", "/usr/bin/node"]);
  return e;
}

/** `check` of `events` against `envelope`: the log's meta names that envelope's hash, as a run under it would. */
function check(envelope: Envelope, events: Event[], meta: Event): LogVerdict {
  const loaded = loadEnvelope(new TextEncoder().encode(envelopeJson(envelope)), "envelope.json");
  const text = lines(loaded.hash, events, meta);
  const evaluator = new LogEvaluator(loaded, { roots: expandRoots(loaded, { workspace: WORKSPACE, scratch: SCRATCH }), file: "o.jsonl" });
  evaluator.push(new TextEncoder().encode(text));
  return evaluator.finish();
}

function lines(hash: string, events: Event[], meta: Event): string {
  return (
    logLines(hash, events, { meta })
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n"
  );
}

describe("suggest and check judge one walk (issue 31 item 2)", () => {
  it("for 400 generated logs and envelopes, suggest's envelope passes check but for what it notes, and lists all check finds", () => {
    const r = prng(31);
    for (let n = 0; n < 400; n++) {
      const base = generateEnvelope(r);
      const meta = { workspace: WORKSPACE, scratch: SCRATCH, network_enforced: r() < 0.7 };
      const runs = [generateEvents(r), ...(r() < 0.3 ? [generateEvents(r)] : [])];
      const suggestion = suggestEnvelope(
        runs.map((events, i) => recordedLog(`run${i}.jsonl`, logLines("sha256:recorded", events, { meta }))),
        base,
      );
      const notes = suggestion.notes.join("\n");
      // suggest names a path under the run's workspace or scratch by its variable.
      // What suggest lists apart as never proposed (never-proposed.ts) is said too, with why.
      const apart = suggestion.notProposed.flatMap((n) => [n.entry, ...n.covers]);
      const said = (text: string) => notes.includes(text) || apart.includes(text);
      const noted = (subject: string) =>
        said(subject) || said(subject.replace(`${WORKSPACE}/`, "${WORKSPACE}/").replace(`${SCRATCH}/`, "${SCRATCH}/"));
      const keys = new Set(suggestion.added.map((a) => a.key));
      const where = `case ${n}: base ${JSON.stringify(base)}, runs ${JSON.stringify(runs)}`;
      for (const events of runs) {
        const after = check(suggestion.envelope, events, meta).violations;
        // A write the jail refused is outside every root in its own log, whatever the envelope
        // (rules.ts judgeWrite): suggest proposes the root a new run needs, and the log stays failed.
        const refused = new Set(events.filter((e) => e.ok === false).map((e) => e.path));
        // The suggested envelope passes, but for what suggest said no entry can allow.
        for (const v of after) {
          if (refused.has(v.subject)) {
            // Refused in a run that exited 0: the command did not need it, listed apart, not proposed.
            if (noted(v.subject)) continue;
            expect(
              suggestion.envelope.allowed_roots.some((root) =>
                v.subject.startsWith(root.replace("${WORKSPACE}", WORKSPACE).replace("${SCRATCH}", SCRATCH) + "/"),
              ),
              `${where}: refused ${v.subject} without a root`,
            ).toBe(true);
            continue;
          }
          expect(noted(v.subject), `${where}: ${v.id} left after suggest`).toBe(true);
        }
        // A container engine is never proposed (docker_refused): no entry allows one.
        expect(JSON.stringify(suggestion.envelope.allowed_hosts), where).not.toMatch(/docker|:237[56]"/);
        const fixed = new Set(after.map((v) => v.id));
        for (const v of check(base, events, meta).violations) {
          if (noted(v.subject)) continue;
          // Fixed by an entry suggest listed under the key that allows it.
          // A proxy key's read is the wrapper's under allowlist (rules.ts PROXY_ENV_KEYS): the hosts that made it so list it.
          const proxied = v.rule === "undeclared_env" && PROXY_ENV_KEYS.has(v.subject) && suggestion.envelope.network === "allowlist";
          const key = v.rule === "network_denied" || proxied ? "allowed_hosts" : (RULE_KEY[v.rule] ?? "none");
          expect((!fixed.has(v.id) || refused.has(v.subject)) && keys.has(key as never), `${where}: ${v.id} not listed by suggest`).toBe(
            true,
          );
        }
      }
    }
  });
});

const RULE_KEY: Record<string, string> = {
  write_outside_root: "allowed_roots",
  undeclared_tool: "allowed_tools",
  undeclared_env: "allowed_env",
  undeclared_host: "allowed_hosts",
  undeclared_command: "allowed_commands",
};
