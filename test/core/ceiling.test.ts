/**
 * Issue 36: the organisation's envelope. `widenings` is the one judge of "within"; the property
 * test holds it to the rules the gate judges events by: an envelope it finds within a ceiling
 * never allows an event the ceiling forbids.
 */
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import ceilingSchema from "../../schema/org-envelope.schema.json" with { type: "json" };
import {
  coversRepository,
  exceptionsFor,
  loadCeiling,
  widenings,
  withExceptions,
  describeWidening,
  rootValuesRefusal,
  type Ceiling,
} from "../../src/core/ceiling.js";
import { envMatcher, hostPatterns, loadEnvelope, type Envelope } from "../../src/core/envelope.js";
import { Refusal } from "../../src/core/errors.js";
import { expandHostEntry, hostAllowed } from "../../src/core/hosts.js";
import { foldPath, isInsideAnyRoot } from "../../src/core/paths.js";
import { commandRules, judgeExec } from "../../src/core/rules.js";
import { isDeclaredService, servicesOf } from "../../src/core/services.js";

const enc = (s: string) => Buffer.from(s, "utf8");

const CEILING: Ceiling = {
  ceiling_id: "acme-agents",
  repositories: ["*", "!sandbox-*"],
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}", "/tmp"],
  allowed_tools: ["Read", "Edit", "mcp__github__*"],
  allowed_env: ["@ci", "HOME", "PATH", "LC_*", "NPM_TOKEN"],
  allowed_hosts: ["@npm", "*.acme.dev:443", "github.com:443"],
  network: "allowlist",
  never_env: ["AWS_SECRET_*", "GCP_*"],
  never_hosts: ["169.254.169.254", "secrets.acme.dev"],
};

const ENVELOPE: Envelope = {
  envelope_id: "widgets",
  allowed_roots: ["${WORKSPACE}", "${SCRATCH}/cache"],
  allowed_tools: ["Read", "mcp__github__create_pull_request"],
  allowed_env: ["HOME", "CI", "LC_ALL", "LC_*"],
  allowed_hosts: ["registry.npmjs.org:443", "api.acme.dev:443"],
  network: "allowlist",
};

const keys = (ws: ReturnType<typeof widenings>) => ws.map((w) => `${w.key} ${w.entry}`);

describe("widenings: one entry at a time", () => {
  it("an envelope within the ceiling has none", () => {
    expect(widenings(ENVELOPE, CEILING)).toEqual([]);
  });

  it("names each widening by its pointer: a host, a key family, a root, the network mode", () => {
    const ceiling: Ceiling = { ...CEILING, network: "deny" };
    const wide: Envelope = {
      ...ENVELOPE,
      allowed_roots: ["${WORKSPACE}", "${WORKSPACE}/../other", "/home/runner/.cache"],
      allowed_env: ["HOME", "NODE_*", "LC_*"],
      allowed_hosts: ["evil.example:443", "api.acme.dev"],
    };
    expect(widenings(wide, ceiling).map((w) => w.pointer)).toEqual([
      "/allowed_roots/1",
      "/allowed_roots/2",
      "/allowed_env/1",
      "/network",
      "/allowed_hosts/0",
      // no port: any port of api.acme.dev, and the ceiling allows 443 only
      "/allowed_hosts/1",
    ]);
  });

  it("a host set is within only if every member is", () => {
    const ceiling: Ceiling = { ...CEILING, allowed_hosts: ["registry.npmjs.org:443"] };
    const ws = widenings({ ...ENVELOPE, allowed_hosts: ["@npm"] }, ceiling);
    expect(ws).toHaveLength(1);
    expect(ws[0]!.why).toContain("registry.yarnpkg.com:443");
    expect(widenings({ ...ENVELOPE, allowed_hosts: ["@npm"] }, { ...ceiling, allowed_hosts: ["@npm"] })).toEqual([]);
  });

  it("a wildcard is within a wider wildcard only; the apex is not within *.apex", () => {
    expect(widenings({ ...ENVELOPE, allowed_hosts: ["*.eu.acme.dev:443"] }, CEILING)).toEqual([]);
    expect(keys(widenings({ ...ENVELOPE, allowed_hosts: ["acme.dev:443"] }, CEILING))).toEqual(["allowed_hosts acme.dev:443"]);
    expect(keys(widenings({ ...ENVELOPE, allowed_hosts: ["*.dev:443"] }, CEILING))).toEqual(["allowed_hosts *.dev:443"]);
  });

  it("never_hosts wins over the ceiling's own wildcard, and over any wildcard reaching it", () => {
    expect(widenings({ ...ENVELOPE, allowed_hosts: ["secrets.acme.dev:443"] }, CEILING)[0]?.why).toContain("never_hosts");
    expect(widenings({ ...ENVELOPE, allowed_hosts: ["*.acme.dev:443"] }, CEILING)[0]?.why).toContain("never_hosts");
  });

  it("a credential key is within only when the ceiling lists it exactly; a family never covers one", () => {
    expect(widenings({ ...ENVELOPE, allowed_env: ["NPM_TOKEN"] }, CEILING)).toEqual([]);
    const ws = widenings({ ...ENVELOPE, allowed_env: ["LC_SECRET_TOKEN"] }, CEILING);
    expect(keys(ws)).toEqual(["allowed_env LC_SECRET_TOKEN"]);
    expect(ws[0]!.why).toContain("exactly");
  });

  it("a set is within when the ceiling names it, or allows each of its keys; never_env reaches into families and sets", () => {
    expect(widenings({ ...ENVELOPE, allowed_env: ["@ci"] }, CEILING)).toEqual([]);
    expect(keys(widenings({ ...ENVELOPE, allowed_env: ["@terminal"] }, CEILING))).toEqual(["allowed_env @terminal"]);
    expect(widenings({ ...ENVELOPE, allowed_env: ["GCP_PROJECT"] }, { ...CEILING, allowed_env: ["GCP_PROJECT"] })[0]?.why).toContain(
      "never_env",
    );
    expect(widenings({ ...ENVELOPE, allowed_env: ["G*"] }, { ...CEILING, allowed_env: ["G*"] })[0]?.why).toContain("never_env");
    // @ci holds AWS_APP_ID: a never_env family reaching one of a set's keys makes the set a widening.
    expect(widenings({ ...ENVELOPE, allowed_env: ["@ci"] }, { ...CEILING, never_env: ["AWS_*"] })[0]?.why).toContain("never_env");
  });

  it("roots: under a ceiling root of the same variable; an absolute root is never within a variable's", () => {
    const within = ["${WORKSPACE}/a/../b", "${SCRATCH}", "/tmp/x"];
    expect(widenings({ ...ENVELOPE, allowed_roots: within }, CEILING)).toEqual([]);
    expect(keys(widenings({ ...ENVELOPE, allowed_roots: ["/home/runner/work/w/w", "${SCRATCH}/.."] }, CEILING))).toEqual([
      "allowed_roots /home/runner/work/w/w",
      "allowed_roots ${SCRATCH}/..",
    ]);
    expect(widenings({ ...ENVELOPE, allowed_roots: ["${SCRATCH}/.."] }, { ...CEILING, allowed_roots: ["/"] })).toEqual([]);
  });

  it("commands, loopback, observation, writable_protected, services: each only as wide as the ceiling", () => {
    const strict: Ceiling = { ...CEILING, allowed_commands: ["node", "/usr/bin/git"], loopback: "network" };
    expect(keys(widenings(ENVELOPE, strict))).toEqual(["allowed_commands (absent)", "loopback local"]);
    const narrow: Envelope = { ...ENVELOPE, allowed_commands: ["/usr/bin/node", "git"], loopback: "network" };
    expect(keys(widenings(narrow, strict))).toEqual(["allowed_commands git"]);
    expect(
      keys(
        widenings(
          { ...ENVELOPE, observation: "node", writable_protected: ["${WORKSPACE}/.github/x"], services: ["127.0.0.1:5432"] },
          CEILING,
        ),
      ),
    ).toEqual(["observation node", "writable_protected ${WORKSPACE}/.github/x", "services 127.0.0.1:5432"]);
  });

  it("says each widening with the envelope's file and line", () => {
    const text = `{\n  "envelope_id": "w",\n  "allowed_roots": ["\${WORKSPACE}"],\n  "allowed_tools": [],\n  "allowed_env": [],\n  "allowed_hosts": [\n    "evil.example:443"\n  ],\n  "network": "allowlist"\n}\n`;
    const loaded = loadEnvelope(enc(text), "envelope.json");
    const [w] = widenings(loaded.envelope, CEILING);
    expect(describeWidening(w!, loaded)).toBe('envelope.json:7: allowed_hosts "evil.example:443": the ceiling does not allow it');
  });
});

describe("exceptions", () => {
  const row = {
    repository: "widgets",
    allow: { allowed_hosts: ["api.stripe.com:443"] },
    reason: "payments sandbox",
    approver: "octo-sec",
    approved_on: "2026-12-01",
    expires_on: "2027-01-15",
  };
  const wide: Envelope = { ...ENVELOPE, allowed_hosts: ["api.stripe.com:443"] };

  it("lets exactly its widening through, from its approval to its last day", () => {
    const ceiling: Ceiling = { ...CEILING, exceptions: [row] };
    for (const [day, honoured] of [
      ["2026-11-30", false],
      ["2026-12-01", true],
      ["2027-01-15", true],
      ["2027-01-16", false],
    ] as const) {
      const standing = exceptionsFor(ceiling, "acme/widgets", day);
      expect(
        standing.map((s) => s.honoured),
        day,
      ).toEqual([honoured]);
      expect(widenings(wide, withExceptions(ceiling, standing)).length, day).toBe(honoured ? 0 : 1);
    }
    // Exactly its widening: another host is still one.
    const open = withExceptions(ceiling, exceptionsFor(ceiling, "widgets", "2026-12-10"));
    expect(keys(widenings({ ...ENVELOPE, allowed_hosts: ["api.stripe.com:443", "evil.example:443"] }, open))).toEqual([
      "allowed_hosts evil.example:443",
    ]);
    // Another repository's row does nothing here.
    expect(exceptionsFor(ceiling, "acme/gadgets", "2026-12-10")).toEqual([]);
  });

  it("refuses a row longer than 90 days, one for a credential or a program-control family, one reaching never lists", () => {
    const refused = [
      { ...row, expires_on: "2027-03-02" },
      { ...row, allow: { allowed_env: ["STRIPE_SECRET_KEY"] } },
      { ...row, allow: { allowed_env: ["NODE*"] } },
      { ...row, allow: { allowed_env: ["GCP_PROJECT"] } },
      { ...row, allow: { allowed_hosts: ["*.acme.dev:443"] } },
      { ...row, expires_on: "2026-11-01" },
    ];
    const standing = exceptionsFor({ ...CEILING, exceptions: refused }, "widgets", "2026-12-10");
    expect(standing.map((s) => s.honoured)).toEqual([false, false, false, false, false, false]);
    const whys = standing.map((s) => (s.honoured ? "" : s.why));
    expect(whys[0]).toContain("longer than 90");
    expect(whys[1]).toContain("credential");
    expect(whys[2]).toContain("program control");
    expect(whys[3]).toContain("never_env");
    expect(whys[4]).toContain("never_hosts");
    expect(whys[5]).toContain("before it was approved");
    // A refused exception adds nothing.
    const ceiling = withExceptions({ ...CEILING, exceptions: refused }, standing);
    expect(ceiling.allowed_env).toEqual(CEILING.allowed_env);
  });
});

describe("coverage and loading", () => {
  it("covers by name, with * and ! exclusions, case-insensitively", () => {
    expect(coversRepository(CEILING, "acme/Widgets")).toBe(true);
    expect(coversRepository(CEILING, "acme/sandbox-1")).toBe(false);
    expect(coversRepository({ repositories: ["api-*"] }, "acme/api-gw")).toBe(true);
    expect(coversRepository({ repositories: ["api-*"] }, "acme/web")).toBe(false);
    expect(coversRepository({ repositories: ["a.b"] }, "acme/aXb")).toBe(false);
  });

  it("ships a schema its meta-schema accepts", () => {
    const ajv = new Ajv({ allErrors: true, strict: true });
    expect(ajv.validateSchema(ceilingSchema), JSON.stringify(ajv.errors)).toBe(true);
  });

  it("loads a ceiling and hashes its bytes; a bad one is ORG_ENVELOPE_INVALID naming file and line", () => {
    const text = JSON.stringify(CEILING, null, 2) + "\n";
    const loaded = loadCeiling(enc(text), "envelope-gate/org-envelope.json");
    expect(loaded.ceiling.ceiling_id).toBe("acme-agents");
    expect(loaded.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const bad = text.replace('"network": "allowlist"', '"network": "open"');
    const line = bad.split("\n").findIndex((l) => l.includes('"open"')) + 1;
    let err: unknown;
    try {
      loadCeiling(enc(bad), "org.json");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Refusal);
    expect((err as Refusal).code).toBe("ORG_ENVELOPE_INVALID");
    expect((err as Refusal).message).toContain(`org.json:${line}:`);
    expect(() => loadCeiling(enc('{"ceiling_id": "x",'), "org.json")).toThrow(/org.json:1:/);
    expect(() => loadCeiling(enc(text.replace('"@npm"', '"@nope"')), "org.json")).toThrow(Refusal);
  });
});

// ---- the property ---------------------------------------------------------------------------

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROOTS = [
  "${WORKSPACE}",
  "${WORKSPACE}/build",
  "${WORKSPACE}/..",
  "${SCRATCH}",
  "${SCRATCH}/a/../b",
  "/tmp",
  "/tmp/x",
  "/",
  "/w/build",
  "/s",
];
const ENV = [
  "HOME",
  "CI",
  "NODE_ENV",
  "NODE_*",
  "NPM_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_*",
  "LANG",
  "LC_*",
  "LC_ALL",
  "GITHUB_*",
  "GITHUB_ACTIONS",
  "@ci",
  "@terminal",
  "@agents",
  "TERM",
];
const HOSTS = [
  "registry.npmjs.org:443",
  "registry.npmjs.org",
  "*.npmjs.org",
  "*.npmjs.org:443",
  "npmjs.org",
  "@npm",
  "@github",
  "github.com:443",
  "evil.example",
  "*.example",
  "169.254.169.254",
  "*.org:443",
];
const TOOLS = ["Read", "Edit", "Bash", "mcp__gh__a", "mcp__gh__b"];
const CEILING_TOOLS = [...TOOLS, "mcp__gh__*", "*"];
const COMMANDS = ["node", "git", "/usr/bin/node", "/usr/bin/git", "/tmp/evil"];
const NEVER_ENV = ["AWS_SECRET_ACCESS_KEY", "AWS_*", "NODE_OPTIONS", "CI", "LC_*"];
const NEVER_HOSTS = ["169.254.169.254", "*.example", "registry.yarnpkg.com:443", "github.com", "db"];
const SERVICES = ["127.0.0.1:5432", "localhost:6379", "db:5432", "github.com:5432"];

const EVENT_PATHS = ["/w", "/w/build/x", "/w/src/a", "/s/b/c", "/s/a", "/tmp/x/y", "/tmp/z", "/etc/passwd", "/home/runner/.bashrc"];
const EVENT_KEYS = [
  "HOME",
  "CI",
  "NODE_ENV",
  "NODE_OPTIONS",
  "NPM_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_REGION",
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "GITHUB_ACTIONS",
  "GITHUB_TOKEN",
  "GITHUB_SHA",
  "TERM",
  "COLORTERM",
  "CLAUDECODE",
];
const EVENT_HOSTS: [string, number | null][] = [
  ["registry.npmjs.org", 443],
  ["registry.npmjs.org", 80],
  ["registry.npmjs.org", null],
  ["a.npmjs.org", 443],
  ["npmjs.org", 443],
  ["registry.yarnpkg.com", 443],
  ["github.com", 443],
  ["api.github.com", 443],
  ["evil.example", 443],
  ["x.evil.example", 80],
  ["169.254.169.254", 80],
  ["pypi.org", 443],
  ["127.0.0.1", 5432],
  ["db", 5432],
  ["db", null],
  ["github.com", 5432],
  ["localhost", 6379],
];
const EVENT_EXECS = ["/usr/bin/node", "/opt/node/bin/node", "/usr/bin/git", "/tmp/evil", "/usr/bin/curl"];

function pick<T>(r: () => number, from: readonly T[], p: number): T[] {
  return from.filter(() => r() < p);
}

/** The ceiling as the gate would judge an event by it: its allowances as an envelope's, minus the never lists. */
function ceilingAllows(c: Ceiling) {
  const asEnvelope: Envelope = {
    envelope_id: "c",
    allowed_roots: c.allowed_roots,
    allowed_tools: [],
    allowed_env: c.allowed_env,
    allowed_hosts: c.allowed_hosts,
    network: c.network,
  };
  const env = envMatcher(asEnvelope);
  const hosts = hostPatterns(asEnvelope);
  const neverHosts = (c.never_hosts ?? []).flatMap((h) => expandHostEntry(h) ?? []);
  const neverKey = (k: string) => (c.never_env ?? []).some((n) => (n.endsWith("*") ? k.startsWith(n.slice(0, -1)) : k === n));
  return {
    write: (p: string) => isInsideAnyRoot(p, expand(c.allowed_roots)),
    key: (k: string) => env(k) && !neverKey(k),
    host: (h: string, port: number | null) =>
      ((c.network === "allowlist" && hostAllowed(hosts, h, port)) || isDeclaredService(servicesOf(c.services), h, port)) &&
      !hostAllowed(neverHosts, h, port),
    tool: (t: string) => c.allowed_tools.some((x) => (x.endsWith("*") ? t.startsWith(x.slice(0, -1)) : x === t)),
    exec: (p: string) => c.allowed_commands === undefined || judgeExec({ commands: commandRules(c.allowed_commands) }, p) === null,
  };
}

function envelopeAllows(e: Envelope) {
  const env = envMatcher(e);
  const hosts = hostPatterns(e);
  return {
    write: (p: string) => isInsideAnyRoot(p, expand(e.allowed_roots)),
    key: env,
    host: (h: string, port: number | null) =>
      (e.network === "allowlist" && hostAllowed(hosts, h, port)) || isDeclaredService(servicesOf(e.services), h, port),
    tool: (t: string) => e.allowed_tools.includes(t),
    exec: (p: string) => judgeExec({ commands: commandRules(e.allowed_commands) }, p) === null,
  };
}

function expand(roots: readonly string[]): string[] {
  return roots.map((r) => foldPath(r.replace("${WORKSPACE}", "/w").replace("${SCRATCH}", "/s")) as string);
}

describe("the property: an envelope within a ceiling never allows an event the ceiling forbids", () => {
  it("holds over 12,000 random pairs, and the judge is not trivially strict", () => {
    const r = rng(36);
    let within = 0;
    let widened = 0;
    for (let i = 0; i < 12_000; i++) {
      const ceiling: Ceiling = {
        ceiling_id: "c",
        repositories: ["*"],
        allowed_roots: pick(r, ROOTS, 0.35),
        allowed_tools: pick(r, CEILING_TOOLS, 0.3),
        allowed_env: pick(r, ENV, 0.45),
        allowed_hosts: pick(r, HOSTS, 0.4),
        network: r() < 0.8 ? "allowlist" : "deny",
        ...(r() < 0.5 ? { allowed_commands: pick(r, COMMANDS, 0.5) } : {}),
        never_env: pick(r, NEVER_ENV, 0.12),
        never_hosts: pick(r, NEVER_HOSTS, 0.12),
        services: pick(r, SERVICES, 0.4),
      };
      // Draw the envelope mostly from the ceiling's own entries, so that many pairs are within.
      const near = <T>(own: readonly T[], all: readonly T[], p: number) => [...new Set([...pick(r, own, 0.5), ...pick(r, all, p)])];
      const envelope: Envelope = {
        envelope_id: "e",
        allowed_roots: near(ceiling.allowed_roots, ROOTS, 0.03),
        allowed_tools: pick(r, TOOLS, 0.3),
        allowed_env: near(ceiling.allowed_env, ENV, 0.03),
        allowed_hosts: near(ceiling.allowed_hosts, HOSTS, 0.03),
        network: r() < 0.85 ? "allowlist" : "deny",
        ...(r() < 0.7 ? { allowed_commands: near(ceiling.allowed_commands ?? [], COMMANDS, 0.1) } : {}),
        services: near(ceiling.services ?? [], SERVICES, 0.03),
      };
      if (widenings(envelope, ceiling).length > 0) {
        widened++;
        continue;
      }
      within++;
      const c = ceilingAllows(ceiling);
      const e = envelopeAllows(envelope);
      const at = () => JSON.stringify({ ceiling, envelope });
      for (const p of EVENT_PATHS) if (e.write(p)) expect(c.write(p), `write ${p} ${at()}`).toBe(true);
      for (const k of EVENT_KEYS) if (e.key(k)) expect(c.key(k), `env ${k} ${at()}`).toBe(true);
      for (const [h, port] of EVENT_HOSTS) if (e.host(h, port)) expect(c.host(h, port), `host ${h}:${port} ${at()}`).toBe(true);
      for (const t of TOOLS) if (e.tool(t)) expect(c.tool(t), `tool ${t} ${at()}`).toBe(true);
      for (const x of EVENT_EXECS) if (e.exec(x)) expect(c.exec(x), `exec ${x} ${at()}`).toBe(true);
    }
    expect(within).toBeGreaterThan(1_000);
    expect(widened).toBeGreaterThan(1_000);
  });
});

describe("attack review (issue 36)", () => {
  it("A1: a service naming a never_hosts host is a widening (ceiling services)", async () => {
    const { servicesOf } = await import("../../src/core/services.js");
    const { judgeHost } = await import("../../src/core/rules.js");
    const ceiling: Ceiling = { ...CEILING, services: ["secrets.acme.dev:5432"] };
    const envelope: Envelope = { ...ENVELOPE, network: "deny", allowed_hosts: [], services: ["secrets.acme.dev:5432"] };
    // The gate lets the run reach the never host (network deny, yet allowed):
    const ctx = { network: "deny" as const, hosts: [], services: servicesOf(envelope.services), loopbackLocal: true, ownNetwork: true };
    expect(judgeHost(ctx, "secrets.acme.dev", 5432, undefined)).toBeNull();
    expect(judgeHost(ctx, "secrets.acme.dev", null, undefined)).toBeNull();
    // ... so the judge must call it a widening:
    expect(keys(widenings(envelope, ceiling))).toContain("services secrets.acme.dev:5432");
  });

  it("A2: an exception's services never reach never_hosts", () => {
    const ceiling: Ceiling = {
      ...CEILING,
      exceptions: [
        {
          repository: "widgets",
          allow: { services: ["secrets.acme.dev:5432"] },
          reason: "r",
          approver: "octo-sec",
          approved_on: "2026-12-01",
          expires_on: "2026-12-31",
        },
      ],
    };
    const standings = exceptionsFor(ceiling, "acme/widgets", "2026-12-05");
    expect(standings[0]?.honoured).toBe(false);
    const envelope: Envelope = { ...ENVELOPE, services: ["secrets.acme.dev:5432"] };
    expect(keys(widenings(envelope, withExceptions(ceiling, standings)))).toContain("services secrets.acme.dev:5432");
  });

  it("A3: never_env naming a set (@agents) is honoured, not read as a literal key", () => {
    const ceiling: Ceiling = {
      ...CEILING,
      never_env: ["@agents"],
      exceptions: [
        {
          repository: "widgets",
          allow: { allowed_env: ["@agents"] },
          reason: "r",
          approver: "octo-sec",
          approved_on: "2026-12-01",
          expires_on: "2026-12-31",
        },
      ],
    };
    const standings = exceptionsFor(ceiling, "acme/widgets", "2026-12-05");
    const envelope: Envelope = { ...ENVELOPE, allowed_env: ["@agents"] };
    const m = envMatcher(envelope);
    expect(m("CLAUDECODE")).toBe(true); // the run may read it
    expect(standings[0]?.honoured).toBe(false);
    expect(keys(widenings(envelope, withExceptions(ceiling, standings)))).toContain("allowed_env @agents");
  });

  it("A4: an exception dated on a day no calendar has is not honoured", () => {
    const row = {
      repository: "widgets",
      allow: { allowed_hosts: ["api.stripe.com:443"] },
      reason: "r",
      approver: "octo-sec",
      approved_on: "2026-02-31",
      expires_on: "2026-05-31",
    };
    const standings = exceptionsFor({ ...CEILING, exceptions: [row] }, "acme/widgets", "2026-03-05");
    expect(standings[0]?.honoured).toBe(false);
  });

  it("A5: a root variable's value is held too (the workflow chooses it): / , a home or system directory, nesting, root_values", () => {
    const uses: Envelope = { ...ENVELOPE, allowed_roots: ["${WORKSPACE}", "${SCRATCH}"] };
    const ok = { workspace: "/home/runner/work/w/w", scratch: "/home/runner/work/_temp/envelope-gate-scratch" };
    expect(rootValuesRefusal(ok, uses, CEILING)).toBeNull();
    for (const scratch of ["/", "/etc/x", "/home/runner", "/tmp", "/home/runner/work/w/w/sub", "/a/../b/c", 7, undefined])
      expect(rootValuesRefusal({ ...ok, scratch }, uses, CEILING), String(scratch)).not.toBeNull();
    // A mktemp -d clone or a self-hosted runner's /opt layout is a value like any other.
    expect(rootValuesRefusal({ workspace: "/tmp/tmp.Xy12/repo", scratch: "/opt/actions-runner/_work/_temp/s" }, uses, CEILING)).toBeNull();
    // A variable the envelope does not use is not judged.
    expect(rootValuesRefusal({ ...ok, scratch: "/" }, { ...ENVELOPE, allowed_roots: ["${WORKSPACE}"] }, CEILING)).toBeNull();
    const pinned: Ceiling = { ...CEILING, root_values: { WORKSPACE: ["/home/runner/work/*/*"] } };
    expect(rootValuesRefusal(ok, uses, pinned)).toBeNull();
    expect(rootValuesRefusal({ ...ok, workspace: "/home/runner/work/w" }, uses, pinned)).toContain("root_values.WORKSPACE");
    expect(rootValuesRefusal({ ...ok, workspace: "/srv/ci/w/w" }, uses, pinned)).toContain("root_values.WORKSPACE");
  });
});
