/**
 * The footprint (src/core/footprint.ts): what a pull request's run touched that the base's last
 * run did not. Logs recorded by the real `envelope-gate run` where the point is how the observer
 * names things (scratches, commands found by PATH), built by hand for the edge cases.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { zipSync } from "fflate";
import {
  baseLogFromZip,
  compareFootprints,
  logFootprint,
  portablePath,
  type FootprintClass,
  type FootprintFile,
} from "../../src/core/footprint.js";
import { renderFootprint } from "../../src/core/summary.js";
import { harmlessProblems, render, shownText } from "../support/gfm.js";
import { buildManifest } from "../../src/core/evidence.js";
import { Refusal } from "../../src/core/errors.js";
import { logText } from "../support/logs.js";
import { walkLog } from "../../src/core/log-reader.js";
import { JAIL_AVAILABLE, run, sandbox } from "../observer/harness.js";

function footprintOf(text: string) {
  return logFootprint(walkLog({ file: "observer.jsonl", bytes: new TextEncoder().encode(text) }, null));
}

function items(result: ReturnType<typeof compareFootprints>, cls: FootprintClass): string[] {
  return result.new[cls].map((i) => i.item);
}

describe.skipIf(!JAIL_AVAILABLE)("footprint of runs recorded by envelope-gate run", () => {
  it("two runs of one command in different workspaces and scratches compare equal: nothing new, nothing gone", async () => {
    const command = ["sh", "-c", "ls >/dev/null; mkdir -p out; echo x > out/a; echo y > /tmp/t"];
    const a = sandbox({ allowed_env: ["PATH"] });
    const b = sandbox({ allowed_env: ["PATH"] });
    const ra = await run(a, command);
    const rb = await run(b, command);
    expect(ra.code).toBe(0);
    expect(rb.code).toBe(0);
    expect(a.scratch).not.toBe(b.scratch);
    const fa = footprintOf(readFileSync(ra.log, "utf8"));
    const fb = footprintOf(readFileSync(rb.log, "utf8"));
    // The writes were seen, under the variables, the private /tmp by the run-id-free name.
    expect([...fa.classes.write_dirs.keys()]).toContain("${WORKSPACE}/out");
    expect([...fa.classes.write_dirs.keys()]).toContain("${SCRATCH}/.envelope-gate-${RUN_ID}/tmp");
    expect([...fa.classes.commands.keys()].sort()).toEqual(["/usr/bin/dash", "ls", "mkdir"]);
    const diff = compareFootprints(fb, fa);
    for (const cls of ["env", "hosts", "commands", "write_dirs", "tools"] as const) {
      expect(diff.new[cls]).toEqual([]);
      expect(diff.no_longer[cls]).toBe(0);
    }
  });

  it("a run that reads a new key and runs new commands lists them with their first line and count; what it stopped doing is counted", async () => {
    const base = sandbox({ allowed_env: ["PATH"] });
    const pr = sandbox({ allowed_env: ["PATH"] });
    const rb = await run(base, ["sh", "-c", "mkdir -p old && echo x > old/f; ls >/dev/null"]);
    const rp = await run(pr, [
      "sh",
      "-c",
      `ls >/dev/null; node -e "void process.env.FOOTPRINT_NEW_KEY; void process.env.FOOTPRINT_NEW_KEY"; cat /dev/null`,
    ]);
    expect(rb.code).toBe(0);
    expect(rp.code).toBe(0);
    const prText = readFileSync(rp.log, "utf8");
    const diff = compareFootprints(footprintOf(prText), footprintOf(readFileSync(rb.log, "utf8")));
    expect(items(diff, "env")).toContain("FOOTPRINT_NEW_KEY");
    expect(items(diff, "commands")).toEqual(expect.arrayContaining(["node", "cat"]));
    expect(items(diff, "commands")).not.toContain("ls");
    const key = diff.new.env.find((i) => i.item === "FOOTPRINT_NEW_KEY");
    const reads = prText.split("\n").filter((l) => l.includes('"key":"FOOTPRINT_NEW_KEY"'));
    expect(reads.length).toBeGreaterThan(0);
    expect(key?.count).toBe(reads.length);
    // first_line points at the PR log's own line that read it.
    const line = prText.split("\n")[(key?.first_line ?? 0) - 1] as string;
    expect(JSON.parse(line)).toMatchObject({ kind: "env", key: "FOOTPRINT_NEW_KEY" });
    // The base wrote ${WORKSPACE}/old and ran mkdir; this run did neither.
    expect(diff.no_longer.write_dirs).toBeGreaterThanOrEqual(1);
    expect(diff.no_longer.commands).toBe(1);
  });
});

describe("footprint rules", () => {
  const hash = "sha256:" + "a".repeat(64);
  const meta = { workspace: "/w/repo", scratch: "/s/run-1", run_id: "run-1", network_enforced: true };

  it("a `#!` script's line is two commands, the script and its interpreter; a changed interpreter is new", () => {
    const script = (interpreter: string) => ({
      kind: "exec",
      path: "/w/repo/bin/tool.js",
      argv: [interpreter, "/w/repo/bin/tool.js", "a"],
      interpreter,
      source: "process",
    });
    const base = footprintOf(logText(hash, [script("/usr/bin/env")], { meta }));
    expect([...base.classes.commands.entries()]).toEqual([
      ["${WORKSPACE}/bin/tool.js", { first_line: 2, count: 1 }],
      ["/usr/bin/env", { first_line: 2, count: 1 }],
    ]);
    const same = compareFootprints(footprintOf(logText(hash, [script("/usr/bin/env")], { meta })), base);
    expect(same.new.commands).toEqual([]);
    expect(same.no_longer.commands).toBe(0);
    const changed = compareFootprints(footprintOf(logText(hash, [script("/w/repo/tools/evil")], { meta })), base);
    expect(items(changed, "commands")).toEqual(["${WORKSPACE}/tools/evil"]);
    expect(changed.no_longer.commands).toBe(1);
  });

  it("leaves out canary lines, the runtime's own reads and loopback in the run's own namespace; names a connect by its via", () => {
    const text = logText(
      hash,
      [
        { kind: "env", key: "ENVELOPE_GATE_CANARY", canary: true, source: "node" },
        { kind: "env", key: "NODE_OPTIONS", source: "runtime" },
        { kind: "env", key: "NODE_OPTIONS", source: "node" },
        { kind: "host", host: "127.0.0.1", port: 8080, source: "node" },
        { kind: "host", host: "203.0.113.9", port: 443, source: "process", via: "Registry.Example.com" },
        { kind: "host", host: "registry.example.com", port: 443, source: "proxy" },
        { kind: "host", host: "registry.example.com", proto: "dns", source: "node" },
        { kind: "host", host: "lookup-only.example", proto: "dns", source: "node" },
      ],
      { meta },
    );
    const f = footprintOf(text);
    expect([...f.classes.env.keys()]).toEqual(["NODE_OPTIONS"]);
    expect(f.classes.env.get("NODE_OPTIONS")).toEqual({ first_line: 4, count: 1 });
    // The name's own lookup folds into name:port; a lookup alone stays a host.
    expect([...f.classes.hosts.entries()]).toEqual([
      ["registry.example.com:443", { first_line: 6, count: 2 }],
      ["lookup-only.example", { first_line: 9, count: 1 }],
    ]);
  });

  it("loopback is a host where the run shared the machine's network", () => {
    const f = footprintOf(
      logText(hash, [{ kind: "host", host: "127.0.0.1", port: 8080, source: "node" }], { meta: { ...meta, network_enforced: false } }),
    );
    expect([...f.classes.hosts.keys()]).toEqual(["127.0.0.1:8080"]);
  });

  it("commands by name where PATH found them, by path (roots folded) otherwise; write directories folded", () => {
    const f = footprintOf(
      logText(
        hash,
        [
          { kind: "exec", path: "/usr/bin/dash", argv: ["sh", "-c", "x"], source: "process" },
          { kind: "exec", path: "/w/repo/scripts/build", argv: ["./scripts/build"], source: "process" },
          { kind: "write", path: "/w/repo/dist/a.js", op: "create", source: "process" },
          { kind: "write", path: "/s/run-1/.envelope-gate-run-1/home/.cache/x", op: "create", source: "process" },
          { kind: "write", path: "/w/repo-evil/x", op: "create", source: "process" },
          { kind: "tool", name: "apply_patch", source: "sdk" },
        ],
        { meta },
      ),
    );
    expect([...f.classes.commands.keys()]).toEqual(["dash", "${WORKSPACE}/scripts/build"]);
    expect([...f.classes.write_dirs.keys()]).toEqual([
      "${WORKSPACE}/dist",
      "${SCRATCH}/.envelope-gate-${RUN_ID}/home/.cache",
      "/w/repo-evil",
    ]);
    expect([...f.classes.tools.keys()]).toEqual(["apply_patch"]);
  });

  it("a nested scratch folds to the deeper root", () => {
    expect(portablePath("/w/repo/.tmp/x", { workspace: "/w/repo", scratch: "/w/repo/.tmp", runId: null })).toBe("${SCRATCH}/x");
    expect(portablePath("/w/repo/src", { workspace: "/w/repo", scratch: "/w/repo/.tmp", runId: null })).toBe("${WORKSPACE}/src");
    expect(portablePath("/other", { workspace: "/w/repo", scratch: null, runId: null })).toBe("/other");
  });

  it("new items are ordered by their first line; the reverse is counts only", () => {
    const base = footprintOf(
      logText(
        hash,
        [
          { kind: "env", key: "A" },
          { kind: "env", key: "GONE" },
        ],
        { meta },
      ),
    );
    const pr = footprintOf(
      logText(
        hash,
        [
          { kind: "env", key: "Z_NEW" },
          { kind: "env", key: "A" },
          { kind: "env", key: "B_NEW" },
          { kind: "env", key: "Z_NEW" },
        ],
        { meta: { ...meta, workspace: "/elsewhere", scratch: "/s2", run_id: "run-2" } },
      ),
    );
    const diff = compareFootprints(pr, base);
    expect(diff.new.env).toEqual([
      { item: "Z_NEW", first_line: 2, count: 2 },
      { item: "B_NEW", first_line: 4, count: 1 },
    ]);
    expect(diff.no_longer.env).toBe(1);
  });

  it("a line that is not JSON is OBSERVER_LOG_MALFORMED", () => {
    expect(() => footprintOf('{"v":1,"kind":"meta"}\nnot json\n')).toThrow(Refusal);
  });
});

describe("the base run's log from its evidence artifact", () => {
  const hash = "sha256:" + "b".repeat(64);
  function bundleZip(files: Record<string, string>, tamper?: (f: Record<string, Uint8Array>) => void): Uint8Array {
    const bytes = new Map(Object.entries(files).map(([k, v]) => [k, new TextEncoder().encode(v)]));
    const built = buildManifest(bytes);
    const all: Record<string, Uint8Array> = Object.fromEntries(bytes);
    all["manifest.json"] = built.bytes;
    all["manifest.json.sha256"] = new TextEncoder().encode(built.digestLine);
    tamper?.(all);
    return zipSync(all);
  }

  it("reads a verified bundle's observer.jsonl", () => {
    const log = logText(hash, [{ kind: "env", key: "K" }]);
    expect(new TextDecoder().decode(baseLogFromZip(bundleZip({ "observer.jsonl": log, "verdict.json": "{}" })))).toBe(log);
  });

  it("refuses a bundle whose log does not match its manifest, one without a log, a cut log and a non-zip", () => {
    const log = logText(hash, [{ kind: "env", key: "K" }]);
    const code = (f: () => unknown): string => {
      try {
        f();
      } catch (err) {
        return (err as Refusal).code;
      }
      return "none";
    };
    expect(
      code(() => baseLogFromZip(bundleZip({ "observer.jsonl": log }, (f) => (f["observer.jsonl"] = new TextEncoder().encode(log + "x"))))),
    ).toBe("EVIDENCE_DIGEST_MISMATCH");
    expect(code(() => baseLogFromZip(bundleZip({ "verdict.json": "{}" })))).toBe("EVIDENCE_UNAVAILABLE");
    expect(code(() => baseLogFromZip(bundleZip({ "observer.jsonl": log.split("\n").slice(0, 2).join("\n") + "\n" })))).toBe(
      "OBSERVER_LOG_INCOMPLETE",
    );
    expect(code(() => baseLogFromZip(new Uint8Array([1, 2, 3])))).toBe("EVIDENCE_UNAVAILABLE");
  });
});

describe("the footprint as the check run's text", () => {
  const base = {
    workflow_run_id: 99,
    run_number: 7,
    head_sha: "f".repeat(40),
    branch: "main",
    html_url: "https://github.example/r/actions/runs/99",
    log_run_id: "r-1",
  };

  it("shows what the run named, never renders it: keys, hosts and paths are code spans, mentions and references broken", () => {
    const hostile = "EVIL`</table>@team #12 [x](https://evil)";
    const file: FootprintFile = {
      version: 1,
      status: "compared",
      base,
      new: {
        env: [{ item: hostile, first_line: 3, count: 2 }],
        hosts: [],
        commands: [{ item: "/w/x|y", first_line: 4, count: 1 }],
        write_dirs: [],
        tools: [],
      },
      no_longer: { env: 1, hosts: 0, commands: 0, write_dirs: 2, tools: 0 },
    };
    const text = renderFootprint(file);
    expect(shownText(text)).toContain("New compared with the base's last run (run #99)");
    // Rendered as GitHub would: nothing from the run becomes markup, a mention or a reference.
    const r = render(text);
    expect(harmlessProblems(r, { hrefOk: (h) => h === base.html_url }), r.html).toEqual([]);
    expect(r.textIn("code")).toContain(hostile);
    expect(r.elements.filter((e) => e.name === "a").map((e) => e.attrs.href)).toEqual([base.html_url]);
    expect(text).toContain("| command | `/w/x\\|y` | 4 | 1 |");
    expect(shownText(text)).toContain("environment key read: 1, write directory: 2");
  });

  it("shortens its table to fit the size it is given, saying how many more footprint.json holds", () => {
    const env = Array.from({ length: 500 }, (_, i) => ({ item: `KEY_${i}`, first_line: i + 2, count: 1 }));
    const file: FootprintFile = {
      version: 1,
      status: "compared",
      base,
      new: { env, hosts: [], commands: [], write_dirs: [], tools: [] },
      no_longer: { env: 0, hosts: 0, commands: 0, write_dirs: 0, tools: 0 },
    };
    expect(renderFootprint(file).length).toBeGreaterThan(10_000);
    const short = renderFootprint(file, 10_000);
    expect(short.length).toBeLessThanOrEqual(10_000);
    expect(short).toMatch(/\.\.\.and (\d+) more \(all of them are in the evidence bundle's footprint\.json\)/);
    expect(short).toContain("`KEY_0`");
  });

  it("no base and an outage read differently, and neither says nothing is new", () => {
    const none = renderFootprint({ version: 1, status: "no_base", reason: "no completed push run of x on main" });
    const down = renderFootprint({ version: 1, status: "unavailable", reason: "GITHUB_UNAVAILABLE: HTTP 500" });
    expect(none).toContain("No base run to compare (no completed push run of x on main).");
    expect(down).toContain("Could not compare (GITHUB\\_UNAVAILABLE\\: HTTP 500)");
    for (const t of [none, down]) expect(t).not.toContain("Nothing new");
    const clean = renderFootprint({
      version: 1,
      status: "compared",
      base,
      new: { env: [], hosts: [], commands: [], write_dirs: [], tools: [] },
      no_longer: { env: 0, hosts: 0, commands: 0, write_dirs: 0, tools: 0 },
    });
    expect(clean).toContain("Nothing new");
  });
});
