/**
 * The run identity the jailed runs see (src/core/env-sets.ts runEnvironment): the same on runner A
 * (a pull_request run) and runner B (a workflow_dispatch run on the base), whatever GitHub set.
 */
import { describe, expect, it } from "vitest";
import { envMatcher, loadEnvelope } from "../../src/core/envelope.js";
import {
  ENV_SETS,
  RUN_IDENTITY_CANONICAL,
  RUN_IDENTITY_REMOVED,
  RUN_IDENTITY_WRAPPER,
  isRunIdentityKey,
  runEnvironment,
} from "../../src/core/env-sets.js";
import { envelopeText } from "../support/logs.js";

const HEAD = "a".repeat(40);
const MERGE = "b".repeat(40);
const BASE = "c".repeat(40);
const PULL = { number: 42, headSha: HEAD, baseRef: "main", headRef: "agent/fix-widget" };

/** What GitHub sets on runner A: a pull_request run of the PR's merge commit. */
const RUNNER_A = {
  PATH: "/usr/bin:/bin",
  CI: "true",
  GITHUB_ACTIONS: "true",
  GITHUB_REPOSITORY: "acme/widgets",
  GITHUB_EVENT_NAME: "pull_request",
  GITHUB_EVENT_PATH: "/home/runner/work/_temp/_github_workflow/event.json",
  GITHUB_SHA: MERGE,
  GITHUB_REF: "refs/pull/42/merge",
  GITHUB_REF_NAME: "42/merge",
  GITHUB_REF_TYPE: "branch",
  GITHUB_REF_PROTECTED: "false",
  GITHUB_HEAD_REF: "agent/fix-widget",
  GITHUB_BASE_REF: "main",
  GITHUB_RUN_ID: "1001",
  GITHUB_RUN_NUMBER: "17",
  GITHUB_RUN_ATTEMPT: "1",
  GITHUB_JOB: "gate",
  GITHUB_WORKFLOW: "envelope-gate",
  GITHUB_WORKFLOW_REF: "acme/widgets/.github/workflows/envelope-gate.yml@refs/pull/42/merge",
  GITHUB_WORKFLOW_SHA: MERGE,
  GITHUB_ACTOR: "copilot-swe-agent[bot]",
  GITHUB_ACTOR_ID: "198982749",
  GITHUB_TRIGGERING_ACTOR: "copilot-swe-agent[bot]",
  GITHUB_RETENTION_DAYS: "90",
  GITHUB_ACTION: "__acme_envelope-gate",
  RUNNER_TRACKING_ID: "github_0f6e",
  INVOCATION_ID: "5c1e",
  RUNNER_OS: "Linux",
};

/** What GitHub sets on runner B: a workflow_dispatch run on the base branch, dispatched by the App. */
const RUNNER_B = {
  ...RUNNER_A,
  GITHUB_EVENT_NAME: "workflow_dispatch",
  GITHUB_SHA: BASE,
  GITHUB_REF: "refs/heads/main",
  GITHUB_REF_NAME: "main",
  GITHUB_REF_PROTECTED: "true",
  GITHUB_HEAD_REF: "",
  GITHUB_BASE_REF: "",
  GITHUB_RUN_ID: "2002",
  GITHUB_RUN_NUMBER: "3",
  GITHUB_JOB: "runner-b",
  GITHUB_WORKFLOW_REF: "acme/widgets/.github/workflows/envelope-gate.yml@refs/heads/main",
  GITHUB_WORKFLOW_SHA: BASE,
  GITHUB_ACTOR: "envelope-gate[bot]",
  GITHUB_ACTOR_ID: "1",
  GITHUB_TRIGGERING_ACTOR: "envelope-gate[bot]",
  RUNNER_TRACKING_ID: "github_77aa",
  INVOCATION_ID: "9d0f",
  "INPUT_PULL-REQUEST": "42",
  "INPUT_HEAD-SHA": HEAD,
  "INPUT_DUAL-RUN-ID": "dual-9",
  RUNNER_DEBUG: "1",
};

describe("runEnvironment", () => {
  const a = runEnvironment(RUNNER_A, "runner_a", PULL);
  const b = runEnvironment(RUNNER_B, "runner_b", PULL);

  it("the inputs really differ on every run-identity key but the repository's", () => {
    const differing = Object.keys(RUNNER_A).filter((k) => RUNNER_A[k as keyof typeof RUNNER_A] !== RUNNER_B[k as keyof typeof RUNNER_B]);
    expect(differing.length).toBeGreaterThan(15);
  });

  it("gives runner A and runner B the same environment", () => {
    expect(a).toEqual(b);
    expect(runEnvironment(RUNNER_B, "plain", PULL)).toEqual(a);
  });

  it.each([
    ["GITHUB_EVENT_NAME", "pull_request"],
    ["GITHUB_SHA", HEAD],
    ["GITHUB_REF", "refs/pull/42/merge"],
    ["GITHUB_REF_NAME", "42/merge"],
    ["GITHUB_REF_TYPE", "branch"],
    ["GITHUB_REF_PROTECTED", "false"],
    ["GITHUB_HEAD_REF", "agent/fix-widget"],
    ["GITHUB_BASE_REF", "main"],
  ])("%s is canonical: %s", (key, value) => {
    expect(a[key]).toBe(value);
    expect(b[key]).toBe(value);
  });

  it.each(RUN_IDENTITY_REMOVED.map((k) => [k]))("%s is removed", (key) => {
    expect(key in a).toBe(false);
    expect(key in b).toBe(false);
  });

  it("takes the Action's own inputs out (runner B's dispatch has pull-request, head-sha, dual-run-id)", () => {
    expect(Object.keys(b).filter((k) => k.startsWith("INPUT_"))).toEqual([]);
    expect(isRunIdentityKey("INPUT_DUAL-RUN-ID")).toBe(true);
  });

  it("leaves every other key as the caller had it (the wrapper's own keys, the repository, the OS)", () => {
    for (const key of ["PATH", "CI", "GITHUB_ACTIONS", "GITHUB_REPOSITORY", "GITHUB_EVENT_PATH", "RUNNER_OS"]) {
      expect(a[key]).toBe(RUNNER_A[key as keyof typeof RUNNER_A]);
    }
  });

  it("the three lists do not overlap", () => {
    const all = [...RUN_IDENTITY_CANONICAL, ...RUN_IDENTITY_REMOVED, ...RUN_IDENTITY_WRAPPER];
    expect(new Set(all).size).toBe(all.length);
  });
});

describe("a run-identity key never comes in through a pattern or a set", () => {
  const matcher = (allowed: string[]) =>
    envMatcher(loadEnvelope(Buffer.from(envelopeText({ allowed_env: allowed })), "envelope.json").envelope);

  it("GITHUB_* lets the canonical keys in and none of the removed or wrapper keys", () => {
    const allows = matcher(["GITHUB_*", "RUNNER_*", "ACTIONS_*", "INPUT_*"]);
    expect(allows("INPUT_DUAL-RUN-ID")).toBe(false);
    for (const key of RUN_IDENTITY_CANONICAL) expect(allows(key), key).toBe(true);
    for (const key of [...RUN_IDENTITY_REMOVED, ...RUN_IDENTITY_WRAPPER].filter((k) => /^(GITHUB|RUNNER|ACTIONS)_/.test(k))) {
      expect(allows(key), key).toBe(false);
    }
    expect(allows("GITHUB_REPOSITORY")).toBe(true);
  });

  it("an exact entry allows it (the Action still removes the removed ones from the run)", () => {
    const allows = matcher(["GITHUB_RUN_ID", "GITHUB_EVENT_PATH", "GITHUB_*"]);
    expect(allows("GITHUB_RUN_ID")).toBe(true);
    expect(allows("GITHUB_EVENT_PATH")).toBe(true);
    expect(allows("GITHUB_RUN_ATTEMPT")).toBe(false);
  });

  it("@ci holds GITHUB_EVENT_NAME (canonical) and no removed or wrapper key", () => {
    const ci = ENV_SETS.get("@ci") as ReadonlySet<string>;
    expect(ci.has("GITHUB_EVENT_NAME")).toBe(true);
    expect(isRunIdentityKey("GITHUB_EVENT_NAME")).toBe(false);
    for (const [name, keys] of ENV_SETS) for (const key of keys) expect(isRunIdentityKey(key), `${name} ${key}`).toBe(false);
  });
});
