/**
 * One reader, one walker (issue 31 items 1 and 2): a log `check` refuses is refused by `suggest`,
 * the footprint, audit and the App's envelope proposal with check's code, and they all name one
 * run's events the same way.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { STARTER_ENVELOPE, auditFootprint } from "../../src/core/audit.js";
import { expandRoots, loadEnvelope, type Envelope } from "../../src/core/envelope.js";
import { buildEnvelopeProposal, parseAuditLog } from "../../src/core/envelope-proposal.js";
import { logFootprint } from "../../src/core/footprint.js";
import { LogEvaluator, walkLog, type LogVerdict } from "../../src/core/log-reader.js";
import { envelopeJson, suggestEnvelope } from "../../src/core/suggest.js";
import { codeOf, logText, type Event } from "../support/logs.js";

const WORKSPACE = "/work/repo";
const SCRATCH = "/tmp/s";
const META = { workspace: WORKSPACE, scratch: SCRATCH, network_enforced: true };
// The starter's roots, nothing else allowed, every host judged (loopback too).
const ENVELOPE: Envelope = { ...STARTER_ENVELOPE, envelope_id: "e", allowed_env: [], network: "allowlist", loopback: "network" };
const loaded = loadEnvelope(new TextEncoder().encode(envelopeJson(ENVELOPE)), "envelope.json");
const roots = expandRoots(loaded, { workspace: WORKSPACE, scratch: SCRATCH });

function check(text: string, envelope = loaded): LogVerdict {
  const ev = new LogEvaluator(envelope, { roots: expandRoots(envelope, { workspace: WORKSPACE, scratch: SCRATCH }), file: "o.jsonl" });
  ev.push(new TextEncoder().encode(text));
  return ev.finish();
}

const good = logText(loaded.hash, [{ kind: "host", host: "example.com", port: 443, source: "proxy" }], { meta: META });
const MALFORMED: [string, string][] = [
  ["a host line whose port is a string", good.replace('"port":443', '"port":"443"')],
  ["a line of an unknown kind", good.replace('"kind":"host"', '"kind":"hots"')],
  ["an end line with the wrong event count", good.replace('"events":2', '"events":5')],
  ["a truncated log", good.slice(0, -1)],
  ["a log without an end line", good.split("\n").slice(0, 2).join("\n") + "\n"],
];

describe("one reader: a log check refuses is refused by every consumer with check's code", () => {
  for (const [what, text] of MALFORMED) {
    it(what, () => {
      const code = codeOf(() => check(text));
      expect(code).toMatch(/^OBSERVER_LOG_(MALFORMED|INCOMPLETE)$/);
      const log = { file: "o.jsonl", bytes: new TextEncoder().encode(text) };
      expect(
        codeOf(() => suggestEnvelope([log], ENVELOPE)),
        "suggest",
      ).toBe(code);
      expect(
        codeOf(() => logFootprint(walkLog(log, ENVELOPE))),
        "footprint",
      ).toBe(code);
      expect(
        codeOf(() => auditFootprint(log, ENVELOPE, roots)),
        "audit",
      ).toBe(code);
      expect(
        codeOf(() => parseAuditLog(text, "run-1/observer.jsonl")),
        "the App's proposal",
      ).toBe(code);
      expect(
        codeOf(() =>
          buildEnvelopeProposal({
            repository: "o/r",
            branch: "main",
            envelopePath: "envelope.json",
            current: envelopeJson(ENVELOPE),
            runs: [{ runId: 1, url: null, headSha: "a".repeat(40), evidence: "sha256:x", log }],
            leftOut: [],
          }),
        ),
        "the App's proposal",
      ).toBe(code);
    });
  }
});

describe("one walker: suggest, check, the footprint and audit agree", () => {
  const events: Event[] = [{ kind: "host", host: "127.0.0.1", port: 8080, source: "process" }];

  it("loopback under `loopback: network`: check refuses it, suggest proposes it, and check passes the suggestion", () => {
    const text = logText(loaded.hash, events, { meta: META });
    expect(check(text).violations.map((v) => v.id)).toEqual(["undeclared_host:127.0.0.1:8080"]);
    const s = suggestEnvelope([{ file: "o.jsonl", bytes: new TextEncoder().encode(text) }], ENVELOPE);
    expect(s.envelope.allowed_hosts).toEqual(["127.0.0.1:8080"]);
    const suggested = loadEnvelope(new TextEncoder().encode(envelopeJson(s.envelope)), "suggested.json");
    expect(check(logText(suggested.hash, events, { meta: META }), suggested).verdict).toBe("pass");
  });

  it("one run named one way: audit's summary, its proposal and the footprint list the host by name and the command by its entry", () => {
    const text = logText(
      loaded.hash,
      [
        { kind: "host", host: "93.184.216.34", port: 443, via: "example.com", source: "process" },
        { kind: "exec", pid: 5, path: "/usr/bin/dash", argv: ["sh", "-c", "true"], source: "process" },
      ],
      { meta: META },
    );
    const log = { file: "o.jsonl", bytes: new TextEncoder().encode(text) };
    const withCommands = { ...ENVELOPE, allowed_commands: [] };
    const audit = auditFootprint(log, withCommands, roots);
    const footprint = logFootprint(walkLog(log, withCommands));
    const suggestion = suggestEnvelope([log], withCommands);
    expect(audit.hosts).toEqual(["example.com:443"]);
    expect([...footprint.classes.hosts.keys()]).toEqual(["example.com:443"]);
    expect(suggestion.envelope.allowed_hosts).toEqual(["example.com:443"]);
    expect(audit.commands).toEqual(["dash"]);
    expect([...footprint.classes.commands.keys()]).toEqual(["dash"]);
    expect(suggestion.envelope.allowed_commands).toEqual(["dash"]);
  });

  it("audit lists a write as outside the roots by the write judge: a failed write to a missing place is not one", () => {
    const text = logText(
      loaded.hash,
      [
        { kind: "write", path: "/nowhere/x", op: "create", errno: "ENOENT", source: "process" },
        { kind: "write", path: "/data/x", op: "create", source: "process" },
      ],
      { meta: META },
    );
    const log = { file: "o.jsonl", bytes: new TextEncoder().encode(text) };
    expect(check(text).violations.map((v) => v.id)).toEqual(["write_outside_root:/data/x"]);
    expect(auditFootprint(log, ENVELOPE, roots).writesOutsideRoots).toEqual(["/data/x"]);
    expect(suggestEnvelope([log], ENVELOPE).envelope.allowed_roots).toEqual(["${WORKSPACE}", "${SCRATCH}", "/data"]);
  });
});

describe("no module but core/log-reader.ts parses a log line (issue 31, done when)", () => {
  it("no source file outside it both parses JSON and asks for a meta or end line", () => {
    const srcRoot = fileURLToPath(new URL("../../src/", import.meta.url));
    const readers = (readdirSync(srcRoot, { recursive: true, encoding: "utf8" }) as string[])
      .filter((f) => f.endsWith(".ts"))
      .filter((f) => {
        const text = readFileSync(join(srcRoot, f), "utf8");
        return text.includes("JSON.parse") && /kind\W{1,8}(?:meta|end)\b|"(?:meta|end)"/.test(text);
      });
    expect(readers).toEqual([join("core", "log-reader.ts")]);
  });
});
