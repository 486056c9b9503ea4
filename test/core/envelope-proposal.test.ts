/** The pure half of envelope PRs (src/core/envelope-proposal.ts): reading audit bundles and building the proposal. */
import { createHash } from "node:crypto";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { BODY_MAX, buildEnvelopeProposal, parseAuditLog, readAuditBundle, STARTER_ENVELOPE } from "../../src/core/envelope-proposal.js";
import { buildManifest, encodeJson } from "../../src/core/evidence.js";
import { shownText } from "../support/gfm.js";
import { codeOf, logText, type Event } from "../support/logs.js";

const HASH = `sha256:${"ab".repeat(32)}`;

function zip(files: Record<string, Uint8Array>, manifestOf: Record<string, Uint8Array> = files): Uint8Array {
  const built = buildManifest(new Map(Object.entries(manifestOf)));
  return zipSync({ ...files, "manifest.json": built.bytes, "manifest.json.sha256": new TextEncoder().encode(built.digestLine) });
}

const log = (events: Event[], runId = 1) => parseAuditLog(logText(HASH, events), `run-${runId}/observer.jsonl`);

describe("readAuditBundle", () => {
  const observer = new TextEncoder().encode(logText(HASH, []));
  it("reads the mode from runner.json, and verifies every digest", () => {
    const b = readAuditBundle(zip({ "observer.jsonl": observer, "runner.json": encodeJson({ mode: "audit" }) }));
    expect(b.mode).toBe("audit");
    expect(b.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(readAuditBundle(zip({ "observer.jsonl": observer, "runner.json": encodeJson({}) })).mode).toBeNull();
    const tampered = zip(
      { "observer.jsonl": new TextEncoder().encode("{}\n"), "runner.json": encodeJson({ mode: "audit" }) },
      { "observer.jsonl": observer, "runner.json": encodeJson({ mode: "audit" }) },
    );
    expect(codeOf(() => readAuditBundle(tampered))).toBe("EVIDENCE_DIGEST_MISMATCH");
  });
  it("a bundle without runner.json or the log, or not a zip, is AUDIT_EVIDENCE_UNAVAILABLE", () => {
    expect(codeOf(() => readAuditBundle(zip({ "observer.jsonl": observer })))).toBe("AUDIT_EVIDENCE_UNAVAILABLE");
    expect(codeOf(() => readAuditBundle(zip({ "runner.json": encodeJson({ mode: "audit" }) })))).toBe("AUDIT_EVIDENCE_UNAVAILABLE");
    expect(codeOf(() => readAuditBundle(zip({ "observer.jsonl": observer, "runner.json": new TextEncoder().encode("[1]") })))).toBe(
      "AUDIT_EVIDENCE_UNAVAILABLE",
    );
    expect(codeOf(() => readAuditBundle(new TextEncoder().encode("not a zip")))).toBe("AUDIT_EVIDENCE_UNAVAILABLE");
  });
});

describe("parseAuditLog", () => {
  it("refuses a log that is not a finished run's", () => {
    const whole = logText(HASH, [{ kind: "env", key: "A" }]);
    expect(parseAuditLog(whole, "f")).toEqual({ file: "f", bytes: new TextEncoder().encode(whole) });
    expect(codeOf(() => parseAuditLog(whole.slice(0, -1), "f"))).toBe("OBSERVER_LOG_INCOMPLETE");
    expect(codeOf(() => parseAuditLog(whole.split("\n").slice(0, 2).join("\n") + "\n", "f"))).toBe("OBSERVER_LOG_INCOMPLETE");
    expect(codeOf(() => parseAuditLog(whole.replace('"kind":"env"', '"kind":"env",'), "f"))).toBe("OBSERVER_LOG_MALFORMED");
    expect(codeOf(() => parseAuditLog("[1]\n", "f"))).toBe("OBSERVER_LOG_MALFORMED");
  });
});

describe("buildEnvelopeProposal", () => {
  const current = JSON.stringify({ ...STARTER_ENVELOPE, envelope_id: "e", allowed_env: ["PATH", "OLD_UNUSED"] }, null, 2) + "\n";
  const input = (events: Event[], cur: string | null = current) => ({
    repository: "acme/widgets",
    branch: "main",
    envelopePath: ".github/envelope-gate/envelope.json",
    current: cur,
    runs: [{ runId: 5, url: null, headSha: "a".repeat(40), evidence: HASH, log: log(events, 5) }],
    leftOut: [],
  });

  it("only adds: an entry no run used is kept, and the digest line pins the proposed bytes", () => {
    const p = buildEnvelopeProposal(input([{ kind: "env", key: "NEW_SETTING" }]));
    expect(p.changed).toBe(true);
    expect(p.envelope.allowed_env).toEqual(["PATH", "OLD_UNUSED", "NEW_SETTING"]);
    expect(p.digestLine).toBe(`${createHash("sha256").update(p.text).digest("hex")}  envelope.json\n`);
    expect(p.added.map((a) => [a.key, a.entry, a.runs])).toEqual([["allowed_env", "NEW_SETTING", [5]]]);
    expect(p.body).toContain("only adds");
  });

  it("nothing new is no change; no envelope at all is a change from the starter envelope", () => {
    expect(buildEnvelopeProposal(input([{ kind: "env", key: "PATH" }])).changed).toBe(false);
    const starter = buildEnvelopeProposal(input([], null));
    expect(starter.changed).toBe(true);
    expect(starter.envelope).toEqual(STARTER_ENVELOPE);
  });

  it("an envelope on the branch that does not validate is ENVELOPE_INVALID", () => {
    expect(codeOf(() => buildEnvelopeProposal(input([], '{"envelope_id": "x"}\n')))).toBe("ENVELOPE_INVALID");
  });

  it("a body past GitHub's limit is cut at a line, with a note", () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({ kind: "tool", name: `tool-${i}-${"x".repeat(20)}` }));
    const p = buildEnvelopeProposal(input(many));
    expect(p.body.length).toBeLessThanOrEqual(BODY_MAX);
    expect(p.body).toMatch(/The rest is cut/);
    expect(p.added).toHaveLength(3000);
  });

  it('the keys and roots a proposal never allows are listed under "Not proposed" with why, never in the envelope (issue 31, item 3)', () => {
    const keys = ["AWS_SECRET_ACCESS_KEY", "RUNNER_NAME", "HOSTNAME", "GITHUB_RUN_ID", "GITHUB_ACTOR", "SONAR_LOGIN"];
    const p = buildEnvelopeProposal(
      input([
        ...keys.map((key) => ({ kind: "env", key, source: "node" })),
        { kind: "env", key: "WIDGETS_MODE", source: "node" },
        { kind: "write", path: "/usr/share/x", op: "mkdir", ok: false, source: "process" },
        { kind: "write", path: "/usr/lib/x/y.pyc", op: "create", ok: false, source: "process" },
      ]),
    );
    expect(p.envelope.allowed_env).toEqual(["PATH", "OLD_UNUSED", "WIDGETS_MODE"]);
    expect(p.envelope.allowed_roots).toEqual(STARTER_ENVELOPE.allowed_roots);
    expect(p.notProposed.map((n) => n.entry).sort()).toEqual([...keys, "/usr/lib/x", "/usr/share"].sort());
    for (const n of p.notProposed) expect(n.runs).toEqual([5]);
    const [before = "", after = ""] = shownText(p.body).split("Not proposed.");
    for (const key of keys) expect(after).toMatch(new RegExp(`${key}\\s+[a-z ]+: \\w`));
    expect(after).toMatch(/RUNNER_NAME\s+machine identity: names the machine/);
    expect(after).toMatch(/GITHUB_RUN_ID\s+run identity: differs between runner A and runner B/);
    expect(after).toMatch(/SONAR_LOGIN\s+credential: names a login/);
    expect(after).toMatch(/\/usr\/share\s*covers \/usr\/share\/x\s+the system's directories/);
    expect(after).toContain("PYTHONDONTWRITEBYTECODE would have avoided them");
    // The change itself names none of them.
    for (const key of keys) expect(before).not.toContain(key);
  });
});
