/**
 * Host sets in `allowed_hosts` (docs/egress.md, "Host sets"): validated by name, expanded to their
 * members when judged, shown expanded in the report; the proxy keys under allowlist; and what
 * `suggest` proposes for hosts (sets, name:port, never the resolver).
 */
import { describe, expect, it } from "vitest";
import { formatReportText } from "../../src/cli/format.js";
import { envelopeSchema, expandRoots, hostPatterns, loadEnvelope, type Envelope, type LoadedEnvelope } from "../../src/core/envelope.js";
import { Refusal } from "../../src/core/errors.js";
import { HOST_SETS, HOST_SETS_VERSION, HOST_SET_TOOLS, allowedViaSet } from "../../src/core/hosts.js";
import { LogEvaluator, type LogVerdict } from "../../src/core/log-reader.js";
import { PROXY_ENV_KEYS } from "../../src/core/rules.js";
import { renderSummary } from "../../src/core/summary.js";
import { suggestEnvelope, type RecordedLog } from "../../src/core/suggest.js";
import { reportFromVerdict } from "../../src/core/verdict.js";
import { envelopeText, logText, recordedLog, type Event } from "../support/logs.js";

function envelope(overrides: Record<string, unknown> = {}): LoadedEnvelope {
  return loadEnvelope(Buffer.from(envelopeText(overrides)), "envelope.json");
}

function judge(events: Event[], overrides: Record<string, unknown> = {}): LogVerdict {
  const loaded = envelope(overrides);
  const ev = new LogEvaluator(loaded, {
    roots: expandRoots(loaded, { workspace: "/work/repo", scratch: "/tmp/s" }),
    file: "observer.jsonl",
  });
  ev.push(Buffer.from(logText(loaded.hash, events)));
  return ev.finish();
}

function refusal(overrides: Record<string, unknown>): Refusal {
  try {
    envelope(overrides);
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
  throw new Error("the envelope was accepted");
}

const host = (h: string, port?: number, extra: Event = {}): Event => ({
  kind: "host",
  host: h,
  ...(port === undefined ? {} : { port }),
  ...extra,
});
const ids = (v: LogVerdict) => v.violations.map((x) => x.id);

describe("host sets: the envelope", () => {
  it("the schema admits exactly the sets the code defines, each with its tools", () => {
    const items = (envelopeSchema as { properties: { allowed_hosts: { items: { pattern: string } } } }).properties.allowed_hosts.items;
    const names = /^\^\(\?:@\(\?:([^)]*)\)/.exec(items.pattern)?.[1]?.split("|") ?? [];
    expect(names.map((n) => `@${n}`).sort()).toEqual([...HOST_SETS.keys()].sort());
    expect([...HOST_SET_TOOLS.keys()].sort()).toEqual([...HOST_SETS.keys()].sort());
    expect(HOST_SETS_VERSION).toBe(1);
    for (const [name, members] of HOST_SETS) {
      // Exact names with a port each: a set never widens to a wildcard or to every port.
      for (const m of members) expect(m, name).toMatch(/^[a-z0-9.-]+:\d+$/);
    }
  });

  it("an unknown set is ENVELOPE_INVALID naming the entry and the known sets", () => {
    const err = refusal({ network: "allowlist", allowed_hosts: ["@npm", "@nmp"] });
    expect(err.code).toBe("ENVELOPE_INVALID");
    expect(err.message).toContain('"@nmp" is not a host set');
    expect(err.message).toContain("@npm, @pypi, @crates, @go-proxy, @debian, @ubuntu, @github, @node-dist");
    expect(refusal({ allowed_hosts: ["@"] }).code).toBe("ENVELOPE_INVALID");
    expect(refusal({ allowed_hosts: ["@npm:443"] }).code).toBe("ENVELOPE_INVALID");
  });

  it("a set expands to its members, tagged with its name", () => {
    const loaded = envelope({ network: "allowlist", allowed_hosts: ["@npm", "example.org"] });
    expect(hostPatterns(loaded.envelope).map((p) => `${p.source}${p.set ? ` ${p.set}` : ""}`)).toEqual([
      "registry.npmjs.org:443 @npm",
      "registry.yarnpkg.com:443 @npm",
      "example.org",
    ]);
  });
});

describe("host sets: the check", () => {
  it("allows a set's members on their ports only, and reports each host allowed through a set once", () => {
    const v = judge(
      [
        host("registry.npmjs.org", 443, { source: "proxy" }),
        host("registry.npmjs.org", 443, { source: "proxy" }),
        host("registry.npmjs.org"),
        host("files.pythonhosted.org", 443, { source: "proxy" }),
        host("registry.npmjs.org", 80, { source: "proxy" }),
        host("evil.registry.npmjs.org", 443, { source: "proxy" }),
        host("pypi.org", 443, { source: "proxy" }),
      ],
      { network: "allowlist", allowed_hosts: ["@npm", "@pypi", "pypi.org:443"] },
    );
    expect(ids(v)).toEqual(["undeclared_host:registry.npmjs.org:80", "undeclared_host:evil.registry.npmjs.org:443"]);
    // pypi.org is written out as well: it is not "via" the set. The lookup (no port) is not a connection.
    expect(v.via_sets).toEqual([
      { host: "registry.npmjs.org:443", set: "@npm" },
      { host: "files.pythonhosted.org:443", set: "@pypi" },
    ]);
  });

  it("a set changes nothing under deny", () => {
    const v = judge([host("registry.npmjs.org", 443)], { network: "deny", allowed_hosts: ["@npm"] });
    expect(ids(v)).toEqual(["network_denied:registry.npmjs.org:443"]);
    expect(v.via_sets).toEqual([]);
  });

  it("the report shows the hosts allowed through a set, in the CLI text and the check run summary", () => {
    const v = judge([host("api.github.com", 443, { source: "proxy" })], { network: "allowlist", allowed_hosts: ["@github"] });
    const report = reportFromVerdict(v);
    expect(report.verdict).toBe("pass");
    expect(formatReportText(report)).toContain("allowed through host sets: api.github.com:443 (via @github)\n");
    const summary = renderSummary({
      checkName: "envelope-gate",
      decision: { verdict: "pass", conclusion: "success", headline: "clean" },
      report,
      envelope: null,
      pull: null,
      gating: null,
      policyChange: null,
      properties: null,
      propertiesFile: null,
      ledger: null,
      evidence: null,
      links: [],
      notes: [],
      omittedAnnotations: 0,
    });
    expect(summary).toContain("| allowed through host sets | `api.github.com:443` (via `@github`) |");
    expect(
      allowedViaSet(hostPatterns(envelope({ allowed_hosts: ["@github", "api.github.com"] }).envelope), "api.github.com", 443),
    ).toBeNull();
  });
});

describe("the proxy keys under allowlist", () => {
  const reads = [...PROXY_ENV_KEYS].map((key) => ({ kind: "env", key, source: "node" }));
  it("are not judged under allowlist, whatever allowed_env says", () => {
    expect(ids(judge(reads, { network: "allowlist", allowed_env: [] }))).toEqual([]);
  });
  it("are judged like any key under deny", () => {
    expect(ids(judge(reads, { network: "deny", allowed_env: ["HTTP_PROXY"] })).sort()).toEqual(
      [...PROXY_ENV_KEYS]
        .filter((k) => k !== "HTTP_PROXY")
        .map((k) => `undeclared_env:${k}`)
        .sort(),
    );
  });
});

describe("suggest: hosts", () => {
  const meta = {
    v: 1,
    kind: "meta",
    run_id: "r",
    envelope_hash: "sha256:x",
    runner: "m",
    started_at: "t",
    observers: ["node", "process"],
    network_enforced: true,
    workspace: "/work/repo",
    scratch: "/tmp/s",
  };
  const log = (events: Event[]): RecordedLog =>
    recordedLog("o.jsonl", [meta, ...events.map((e) => ({ v: 1, ...e })), { v: 1, kind: "end", events: events.length + 1, exit_code: 0 }]);
  const base: Envelope = {
    envelope_id: "e",
    allowed_roots: ["${WORKSPACE}", "${SCRATCH}"],
    allowed_tools: [],
    allowed_env: [],
    allowed_hosts: [],
    network: "allowlist",
  };
  const npm = { kind: "exec", path: "/usr/lib/node_modules/npm/bin/npm-cli.js", argv: ["npm-cli.js", "ci"] };

  it("proposes the set when its tool ran and every endpoint on its names is a member", () => {
    const s = suggestEnvelope(
      [
        log([
          npm,
          host("registry.npmjs.org"),
          host("registry.npmjs.org", 443, { source: "proxy" }),
          host("example.org", 443, { source: "proxy" }),
        ]),
      ],
      base,
    );
    expect(s.envelope.allowed_hosts).toEqual(["@npm", "example.org:443"]);
    expect(s.added.find((a) => a.entry === "@npm")).toMatchObject({ covers: ["registry.npmjs.org:443"], count: 1 });
  });

  it("lists the exact endpoints when the set's tool did not run, or an endpoint on its names is not a member", () => {
    const noTool = suggestEnvelope([log([host("registry.npmjs.org", 443, { source: "proxy" })])], base);
    expect(noTool.envelope.allowed_hosts).toEqual(["registry.npmjs.org:443"]);
    const offPort = suggestEnvelope([log([npm, host("registry.npmjs.org", 443), host("registry.npmjs.org", 8443)])], base);
    expect(offPort.envelope.allowed_hosts).toEqual(["registry.npmjs.org:443", "registry.npmjs.org:8443"]);
    expect(offPort.notes.join("\n")).toContain(
      "@npm not proposed for npm-cli.js's hosts: registry.npmjs.org:8443 is not among its members",
    );
  });

  it("never proposes the resolver, nor a lookup's bare name beside its name:port, nor the proxy keys under allowlist", () => {
    const s = suggestEnvelope(
      [
        log([
          { kind: "env", key: "HTTPS_PROXY", source: "node" },
          { kind: "env", key: "NODE_USE_ENV_PROXY", source: "node" },
          host("up.example"),
          host("10.255.255.53", 53, { source: "process" }),
          host("up.example", 8080, { source: "proxy" }),
          host("lookup-only.example"),
        ]),
      ],
      { ...base, network: "deny" },
    );
    expect(s.envelope.network).toBe("allowlist");
    expect(s.envelope.allowed_hosts).toEqual(["up.example:8080", "lookup-only.example"]);
    expect(s.envelope.allowed_env).toEqual([]);
    expect(s.notes.join("\n")).toContain("10.255.255.53:53 (first at o.jsonl:5): the machine's resolver");
  });

  it("keeps proposing the proxy keys a run read when the envelope stays under deny", () => {
    const s = suggestEnvelope([log([{ kind: "env", key: "HTTPS_PROXY", source: "node" }])], { ...base, network: "deny" });
    expect(s.envelope.allowed_env).toEqual(["HTTPS_PROXY"]);
  });
});
