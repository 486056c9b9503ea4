/**
 * The App's routes on top of the shared fake GitHub (test/support/fake-github.ts): App JWT and
 * installation tokens, GET /app, workflow dispatch that creates a queued run (answering with
 * the run's details when asked, or 204 / 422 like older GitHub versions), and the workflow's
 * runs list; closing pull requests (PATCH), and branch deletion that closes the pull requests on
 * the branch. Registered through the fake's route API, so they win over its built-ins; call
 * installAppRoutes again after restarting the fake.
 */
import { createHash, createPublicKey, createVerify, generateKeyPairSync, type KeyObject } from "node:crypto";
import { zipSync } from "fflate";
import { buildManifest, encodeJson, type PropertyRecord, type RunnerIdentity } from "../../src/core/evidence.js";
import type { CheckReport } from "../../src/core/verdict.js";
import { appJson, idOf, repoJson, userJson } from "./fake-shapes.js";
import { HttpError, pullJson, workflowRunJson, type FakeGitHub, type FakeRepo, type FakeWorkflowRun } from "./fake-github.js";

/** The fake App's slug: its bot is `envelope-gate[bot]`. */
export const APP_SLUG = "envelope-gate";

export type DispatchMode = "run_details" | "no_content" | "reject_key";

export interface AppFakeOptions {
  appId: string;
  publicKeyPem: string;
  /** How the dispatch endpoint answers `return_run_details: true`. */
  dispatchMode: DispatchMode;
}

export interface AppKeys {
  privateKeyPem: string;
  publicKeyPem: string;
}

export function generateAppKeys(): AppKeys {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKeyPem: privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

export function verifyJwt(token: string, key: KeyObject, appId: string): boolean {
  const [h, p, s] = token.split(".");
  if (!h || !p || !s) return false;
  const verifier = createVerify("RSA-SHA256");
  verifier.update(`${h}.${p}`);
  if (!verifier.verify(key, Buffer.from(s, "base64url"))) return false;
  const claims = JSON.parse(Buffer.from(p, "base64url").toString("utf8")) as { iss?: unknown; exp?: number };
  return String(claims.iss) === appId && typeof claims.exp === "number" && claims.exp * 1000 > Date.now();
}

/** The App's bot login in the fake: GET /app's slug plus `[bot]`. */
export const APP_BOT_LOGIN = `${APP_SLUG}[bot]`;

export function displayTitle(run: FakeWorkflowRun): string {
  if (run.display_title !== undefined) return run.display_title;
  return run.inputs?.dual_run_id ? `envelope-gate runner B ${run.inputs.dual_run_id}` : run.name;
}

/** A repository GitHub would show for a fork's full name (the fake holds no state for it). */
function forkRepo(fullName: string, like: FakeRepo): FakeRepo {
  const [owner, name] = fullName.split("/") as [string, string];
  return { ...like, owner, name, id: idOf(`repo:${fullName}`) };
}

/**
 * `pull_requests` as GitHub fills it for a run: the pull requests of this repository whose head
 * is the run's branch in this repository (`pull-request-minimal`); none for a fork's run or a
 * run that is not for a pull request event.
 */
function runPulls(repo: FakeRepo, run: FakeWorkflowRun, baseUrl: string): Record<string, unknown>[] {
  if (!run.event.startsWith("pull_request") || run.head_repository !== undefined) return [];
  const api = `${baseUrl}/repos/${repo.owner}/${repo.name}`;
  const lite = { id: repo.id, name: repo.name, url: api };
  return [...repo.pulls.values()]
    .filter((p) => p.head.ref === run.head_branch && p.head.repo_full_name.toLowerCase() === `${repo.owner}/${repo.name}`.toLowerCase())
    .map((p) => ({
      id: 900000 + p.number,
      number: p.number,
      url: `${api}/pulls/${p.number}`,
      head: { ref: p.head.ref, sha: p.head.sha, repo: lite },
      base: { ref: p.base.ref, sha: p.base.sha, repo: lite },
    }));
}

/** `workflow-run` with what GitHub also says about it: the run name, who started it, its pull requests, a fork's head repository. */
export function runJson(repo: FakeRepo, run: FakeWorkflowRun, baseUrl: string): Record<string, unknown> {
  const actor = run.actor ?? "octocat";
  return {
    ...workflowRunJson(repo, run, baseUrl),
    display_title: displayTitle(run),
    actor: userJson({ login: actor }, baseUrl),
    triggering_actor: userJson({ login: run.triggering_actor ?? actor }, baseUrl),
    pull_requests: runPulls(repo, run, baseUrl),
    ...(run.head_repository === undefined ? {} : { head_repository: repoJson(forkRepo(run.head_repository, repo), baseUrl) }),
  };
}

export interface AppFakeState {
  options: AppFakeOptions;
  tokensIssued: number;
}

export function installAppRoutes(fake: FakeGitHub, options: AppFakeOptions): AppFakeState {
  const key = createPublicKey(options.publicKeyPem);
  const state: AppFakeState = { options, tokensIssued: 0 };
  const bearerOk = (auth: string | undefined) => verifyJwt(String(auth ?? "").replace(/^Bearer\s+/i, ""), key, options.appId);

  fake.route("GET", "/app", (req) => {
    if (!bearerOk(req.headers.authorization as string | undefined)) throw new HttpError(401, "A JSON web token could not be decoded");
    return {
      status: 200,
      body: appJson(
        // The slug names the App's bot: `envelope-gate[bot]`, the author the fake gives what the App opens.
        { id: Number(options.appId), slug: APP_SLUG, name: "envelope-gate (test)", owner: "envelope-gate" },
        req.baseUrl,
      ),
    };
  });

  // Update a pull request: state (open/closed), title, body, base, as GitHub answers (the full pull request).
  fake.route("PATCH", "/repos/:owner/:repo/pulls/:pull_number", (req) => {
    const repo = req.repo();
    const pull = repo.pulls.get(Number(req.params.pull_number));
    if (!pull) throw new HttpError(404, "Not Found");
    const body = (req.body ?? {}) as { state?: string; title?: string; body?: string; base?: string };
    if (body.state !== undefined) {
      if (body.state !== "open" && body.state !== "closed") throw new HttpError(422, "state is not included in the list");
      pull.state = body.state;
    }
    if (body.title !== undefined) pull.title = body.title;
    if (body.body !== undefined) pull.body = body.body;
    if (body.base !== undefined) {
      const sha = repo.refs.get(`heads/${body.base}`);
      if (!sha) throw new HttpError(422, `Proposed base branch '${body.base}' was not found`);
      pull.base = { ref: body.base, sha };
    }
    return { status: 200, body: pullJson(repo, pull, req.baseUrl) };
  });

  // Deleting a branch closes the open pull requests whose head it was (GitHub does).
  fake.route("DELETE", "/repos/:owner/:repo/git/refs/*ref", (req) => {
    const repo = req.repo();
    const name = req.params.ref as string;
    if (!repo.refs.delete(name)) throw new HttpError(422, "Reference does not exist");
    const full = `${repo.owner}/${repo.name}`.toLowerCase();
    for (const pull of repo.pulls.values()) {
      if (pull.state === "open" && `heads/${pull.head.ref}` === name && pull.head.repo_full_name.toLowerCase() === full)
        pull.state = "closed";
    }
    return { status: 204 };
  });

  fake.route("POST", "/app/installations/:installation_id/access_tokens", (req) => {
    if (!bearerOk(req.headers.authorization as string | undefined)) throw new HttpError(401, "A JSON web token could not be decoded");
    state.tokensIssued++;
    return {
      status: 201,
      body: {
        token: `ghs_installation_${req.params.installation_id}_${state.tokensIssued}`,
        expires_at: new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, "Z"),
        permissions: { actions: "write", checks: "write", contents: "write", pull_requests: "write", metadata: "read" },
        repository_selection: "all",
      },
    };
  });

  fake.route("POST", "/repos/:owner/:repo/actions/workflows/:workflow_id/dispatches", (req) => {
    const repo = req.repo();
    const body = (req.body ?? {}) as { ref?: string; inputs?: Record<string, string>; return_run_details?: boolean };
    if (typeof body.ref !== "string") throw new HttpError(422, "ref is required");
    if (fake.resolveRef(repo, body.ref) === null) throw new HttpError(422, `No ref found for: ${body.ref}`);
    if (body.return_run_details !== undefined && state.options.dispatchMode === "reject_key") {
      throw new HttpError(422, "Invalid request.\n\nreturn_run_details is not a permitted key.");
    }
    const inputs = body.inputs ?? {};
    repo.dispatches.push({ workflow_id: req.params.workflow_id as string, ref: body.ref, inputs });
    const run = fake.addWorkflowRun(`${repo.owner}/${repo.name}`, {
      workflow_id: req.params.workflow_id as string,
      // A dispatched run runs the workflow of the ref's commit, and names that commit.
      head_sha: fake.resolveRef(repo, body.ref) as string,
      head_branch: body.ref.replace(/^refs\/heads\//, ""),
      event: "workflow_dispatch",
      status: "queued",
      conclusion: null,
      inputs,
      // GitHub names whoever's token dispatched: the App's installation token is its bot.
      actor: /^token ghs_installation_/i.test(String(req.headers.authorization ?? "")) ? APP_BOT_LOGIN : "octocat",
    });
    if (body.return_run_details === true && state.options.dispatchMode === "run_details") {
      const html = `${req.baseUrl}/${repo.owner}/${repo.name}/actions/runs/${run.id}`;
      return {
        status: 200,
        body: {
          workflow_run_id: run.id,
          run_url: `${req.baseUrl}/repos/${repo.owner}/${repo.name}/actions/runs/${run.id}`,
          html_url: html,
        },
      };
    }
    return { status: 204 };
  });

  fake.route("GET", "/repos/:owner/:repo/actions/workflows/:workflow_id/runs", (req) => {
    const repo = req.repo();
    const event = req.query.get("event");
    const runs = repo.workflowRuns
      .filter((r) => r.workflow_id === req.params.workflow_id && (event === null || r.event === event))
      .reverse()
      .map((r) => runJson(repo, r, req.baseUrl));
    return { status: 200, body: { total_count: runs.length, workflow_runs: runs } };
  });

  fake.route("GET", "/repos/:owner/:repo/actions/runs/:run_id", (req) => {
    const repo = req.repo();
    const run = repo.workflowRuns.find((r) => r.id === Number(req.params.run_id));
    if (!run) throw new HttpError(404, "Not Found");
    return { status: 200, body: runJson(repo, run, req.baseUrl) };
  });

  return state;
}

// ---- evidence bundles in the pinned format ---------------------------------------------------

export interface BundleSpec {
  machineId: string;
  runnerName?: string;
  cpuModel?: string;
  headSha: string;
  envelopeHash: string;
  repository: string;
  workflowRunId: number;
  dualRunId?: string;
  pullNumber?: number | null;
  /** The run attempt runner.json names (default 1). */
  runAttempt?: number;
  /** The base runner.json says the run judged against (default: none recorded, as an Action before issue 30 wrote). */
  baseRef?: string | null;
  baseSha?: string | null;
  verdict?: CheckReport["verdict"];
  violations?: CheckReport["violations"];
  /**
   * `freezable` defaults to true; a failure's `fingerprint` defaults to one derived from the
   * property's name (pass the Action's real one where the Action checks a row against the bundle).
   */
  properties: { name: string; result: "pass" | "fail" | "error"; freezable?: boolean; fingerprint?: string | null }[];
  /** observer.jsonl's text (default: a meta line and an end line). */
  log?: string;
}

/** The default failure fingerprint bundleFiles records for a failing property. */
export function defaultFingerprint(name: string): string {
  return createHash("sha256").update(`fingerprint of ${name}`).digest("hex").slice(0, 16);
}

/** The files of an evidence bundle (observer log, digests, runner, properties, verdict, manifest). */
export function bundleFiles(spec: BundleSpec): Record<string, Uint8Array> {
  const runner: RunnerIdentity = {
    runner_name: spec.runnerName ?? `runner-${spec.machineId.slice(0, 6)}`,
    machine_id: spec.machineId,
    os: "linux",
    arch: "x64",
    cpus: 2,
    cpu_model: spec.cpuModel ?? "Test CPU",
    locale: "C.UTF-8",
    timezone: "UTC",
    run_id: String(spec.workflowRunId),
    run_attempt: String(spec.runAttempt ?? 1),
    workflow_run_id: String(spec.workflowRunId),
    repository: spec.repository,
    head_sha: spec.headSha,
    pull_number: spec.pullNumber ?? 7,
    dual_run_id: spec.dualRunId ?? null,
    envelope_hash: spec.envelopeHash,
    envelope_id: "agent-patch-envelope-v3",
    ...(spec.baseRef === undefined && spec.baseSha === undefined
      ? {}
      : {
          base_ref: spec.baseRef ?? null,
          base_sha: spec.baseSha ?? null,
          policy_sha: spec.baseSha ?? null,
          properties_digest: null,
          ledger_digest: null,
        }),
  };
  const properties: PropertyRecord[] = spec.properties.map((p) => ({
    name: p.name,
    result: p.result,
    detail: `${p.name} ${p.result} on ${spec.machineId}`,
    inputs: {},
    frozen_by: null,
    freezable: p.freezable ?? true,
    failure_fingerprint: p.result === "fail" ? (p.fingerprint === undefined ? defaultFingerprint(p.name) : p.fingerprint) : null,
  }));
  const verdict: CheckReport = {
    verdict: spec.verdict ?? "pass",
    envelope_id: "agent-patch-envelope-v3",
    envelope_hash: spec.envelopeHash,
    events: 2,
    violations: spec.violations ?? [],
    error: null,
    log: null,
  };
  const hex = spec.envelopeHash.replace(/^sha256:/, "");
  const files = new Map<string, Uint8Array>([
    [
      "observer.jsonl",
      new TextEncoder().encode(
        spec.log ??
          `{"v":1,"kind":"meta","run_id":"${spec.workflowRunId}","envelope_hash":"${spec.envelopeHash}","runner":"${spec.machineId}","started_at":"2026-01-01T00:00:00Z","observers":["node","process"]}\n{"v":1,"kind":"end","events":1,"exit_code":0}\n`,
      ),
    ],
    ["envelope.json.sha256", new TextEncoder().encode(`${hex}  envelope.json\n`)],
    ["properties.json", encodeJson({ version: 1, properties })],
    ["runner.json", encodeJson(runner)],
    ["verdict.json", encodeJson(verdict)],
  ]);
  const built = buildManifest(files);
  const out: Record<string, Uint8Array> = Object.fromEntries(files);
  out["manifest.json"] = built.bytes;
  out["manifest.json.sha256"] = new TextEncoder().encode(built.digestLine);
  return out;
}

export function bundleDigest(files: Record<string, Uint8Array>): string {
  return buildManifest(new Map(Object.entries(files).filter(([n]) => n !== "manifest.json" && n !== "manifest.json.sha256"))).digest;
}

export function zipOf(files: Record<string, Uint8Array>): Uint8Array {
  return zipSync(files);
}
