/**
 * docker_refused (issue 34): a container engine reached is one violation id, whatever the
 * envelope lists, and every place a reviewer reads it (check's text, the annotation, the SARIF
 * rule and result, the check run's summary) says what to do instead.
 */
import { describe, expect, it } from "vitest";
import { formatReportText } from "../../src/cli/format.js";
import { violationAnnotations } from "../../src/core/annotations.js";
import { expandRoots, loadEnvelope, type LoadedEnvelope } from "../../src/core/envelope.js";
import { Refusal } from "../../src/core/errors.js";
import { LogEvaluator, type LogVerdict } from "../../src/core/log-reader.js";
import { DOCKER_HINT } from "../../src/core/rules.js";
import { buildSarif } from "../../src/core/sarif.js";
import { reportFromVerdict } from "../../src/core/verdict.js";
import { envelopeText, logText, type Event } from "../support/logs.js";

function envelope(overrides: Record<string, unknown> = {}): LoadedEnvelope {
  return loadEnvelope(Buffer.from(envelopeText(overrides)), "envelope.json");
}

function judge(loaded: LoadedEnvelope, events: Event[]): LogVerdict {
  const ev = new LogEvaluator(loaded, {
    roots: expandRoots(loaded, { workspace: "/work/repo", scratch: "/tmp/s" }),
    file: "observer.jsonl",
  });
  ev.push(Buffer.from(logText(loaded.hash, events, { meta: { network_enforced: true } })));
  return ev.finish();
}

const PROBE: Event[] = [
  { kind: "host", host: "unix:/var/run/docker.sock", proto: "connect", source: "process" },
  { kind: "host", host: "exfil.example.net", port: 443, proto: "connect", source: "process" },
];

describe("docker_refused", () => {
  it("the hint says what to do: services, the authoring section, or containers outside the gated command", () => {
    expect(DOCKER_HINT).toBe(
      "Docker is refused in the jail (its socket is root on the host). Declare the service the container would provide and start it as a job service (`services:` in the workflow) — see docs/authoring.md#suites-with-services — or run the containers outside the gated command.",
    );
  });

  it("no allowed_hosts entry names a unix socket: listing the docker socket is an invalid envelope", () => {
    expect(() => envelope({ network: "allowlist", allowed_hosts: ["unix:/var/run/docker.sock"] })).toThrow(Refusal);
  });

  it("check's text carries the id once and the hint once, under deny and allowlist", () => {
    for (const overrides of [{}, { network: "allowlist", allowed_hosts: ["127.0.0.1:2375"] }]) {
      const loaded = envelope(overrides);
      const verdict = judge(loaded, [...PROBE, { kind: "host", host: "127.0.0.1", port: 2375, proto: "connect", source: "process" }]);
      const text = formatReportText(reportFromVerdict(verdict));
      const denied = "network" in overrides ? "undeclared_host" : "network_denied";
      expect(verdict.violations.map((v) => v.id)).toEqual([
        "docker_refused:unix:/var/run/docker.sock",
        `${denied}:exfil.example.net:443`,
        "docker_refused:127.0.0.1:2375",
      ]);
      expect(text.split(`what to do (docker_refused): ${DOCKER_HINT}\n`)).toHaveLength(2);
      expect(text).not.toContain(`${denied}:unix:`);
    }
    // No docker violation, no hint.
    const clean = envelope();
    expect(formatReportText(reportFromVerdict(judge(clean, [PROBE[1]!])))).not.toContain("docker_refused");
  });

  it("the annotation and the SARIF result say what to do and that no envelope allows it; the SARIF rule's help too", () => {
    const loaded = envelope();
    const verdict = judge(loaded, PROBE);
    const [docker, denied] = violationAnnotations(verdict.violations, loaded, "observer.jsonl");
    expect(docker!.title).toBe("docker_refused:unix:/var/run/docker.sock");
    expect(docker!.message).toContain("the run reached for unix:/var/run/docker.sock, a container engine");
    expect(docker!.message).toContain(DOCKER_HINT);
    expect(docker!.message).toContain("No envelope allows it");
    expect(docker!.start_line).toBe(loaded.lines.get("/envelope_id"));
    expect(denied!.message).toContain(`does not allow it in "network"`);

    const sarif = buildSarif({
      violations: verdict.violations,
      checkName: "envelope-gate",
      envelope: { file: "envelope.json", lines: loaded.lines, id: loaded.envelope.envelope_id, hash: loaded.hash },
      workspace: "/work/repo",
      logName: "observer.jsonl",
      toolVersion: "1.0.0",
    }) as { runs: { tool: { driver: { rules: { id: string; help: { text: string } }[] } }; results: { message: { text: string } }[] }[] };
    const run = sarif.runs[0]!;
    expect(run.tool.driver.rules.find((r) => r.id === "docker_refused")?.help.text).toContain(DOCKER_HINT);
    expect(run.results[0]!.message.text).toContain("No envelope allows it");
    expect(run.results[0]!.message.text).toContain("docs/authoring.md#suites-with-services");
  });
});
