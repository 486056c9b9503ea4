import { createAppAuth } from "@octokit/auth-app";
import type { Octokit } from "@octokit/core";
import { Refusal } from "../core/errors.js";
import { createAppJwt, type PrivateKeySource } from "./app-jwt.js";
import { createCheckRun } from "./checks.js";
import { ConditionalCache, conditionalRequests } from "./conditional.js";
import { GuardedOctokit, GitHubUnavailable, guardedOctokitOptions, gitHubFailure, type GitHubClient } from "./client.js";
import { branchHeadSha, readFileAt, type RepoRef } from "./repo.js";
import type { ApiPull, ApiWorkflowRun, PathAt, TreeAt } from "../core/run-checks.js";
import type { ReviewFacts } from "../core/gate-memory.js";

export type { ApiPull, ApiRunPull, ApiWorkflowRun, PathAt, TreeAt, WorkflowRunInfo } from "../core/run-checks.js";

/**
 * The App's side of GitHub: installation-scoped calls made through `@octokit/auth-app` (JWT, then
 * installation tokens), with retry and throttling. Every request, token requests included,
 * first runs `beforeEachRequest`; the App passes the live kill-switch read there. The JWT is
 * signed with the private key read from its source at each signing (`createJwt`), so the key is
 * not held between signings: only the installation tokens it obtains are (auth-app's cache).
 */

interface AppClientSettings {
  appId: string;
  /** The PEM itself (tests), or where to read it each time a JWT is signed. */
  privateKey: string | PrivateKeySource;
  baseUrl: string;
  /** Runs before every request (every retry too); throws to stop the request. */
  beforeEachRequest: (route: string) => Promise<void>;
  /** Told of each request attempt GitHub did not answer (no response, a timeout, a 5xx), retries included. */
  onAttemptFailed?: (route: string, err: unknown) => void;
  /** Told of the headers of every answer to an installation's requests (its rate limit); must not throw. */
  onInstallationHeaders?: (installationId: number, headers: Record<string, unknown>) => void;
  retries?: number;
  retryAfterMs?: number;
  /** GitHub asks integrations to space writes (the throttling plugin does, about 1 s apart). */
  throttle?: boolean;
  /** Each request attempt is abandoned after this long (a GitHub that accepts and never answers). */
  timeoutMs?: number;
  /** Longest rate-limit wait honoured (seconds); a longer one fails the call as GITHUB_UNAVAILABLE. */
  maxRateLimitWaitS?: number;
  userAgent?: string;
}

/**
 * Outages and refusals to serve us are GITHUB_UNAVAILABLE (the one wrapper, gitHubFailure, with
 * the App's hint); a Refusal (the kill switch) passes through.
 */
function githubUnavailable(what: string, err: unknown): Refusal {
  return gitHubFailure(what, err, APP_HINT);
}

/** GitHub answered `status` with `message`, and the App cannot go on from that answer. */
function refusedAnswer(what: string, status: number, message: string): Refusal {
  return new GitHubUnavailable(what, status, message, null, APP_HINT);
}

const APP_HINT = "Nothing was decided from this. The work stays recorded and is retried by redelivery or the sweeper.";
/** The commits list's largest page. */
const COMMITS_PER_PAGE = 100;

interface DispatchResult {
  runId: number | null;
  runUrl: string | null;
  /** `run_details` when GitHub answered with the new run's id, `correlation` when it did not. */
  mode: "run_details" | "correlation";
}

interface CheckRunRequest {
  name: string;
  head_sha: string;
  conclusion: "success" | "failure" | "neutral" | "action_required";
  title: string;
  summary: string;
  text?: string;
  external_id?: string;
  details_url?: string;
}

/** Default longest rate-limit wait: a webhook handler must not sleep until an hourly reset. */
const APP_MAX_RATE_LIMIT_WAIT_S = 120;

export class AppClient {
  /** Authenticated as the App (JWT); installation clients come from it. */
  readonly octokit: Octokit;
  /** The installations' kept answers, asked again with If-None-Match (a 304 spends no budget). */
  readonly conditional = new ConditionalCache();
  constructor(readonly settings: AppClientSettings) {
    // One rate-limit wait per request, and only a short one; beyond it the call fails closed.
    const Configured = GuardedOctokit.defaults(
      guardedOctokitOptions({
        baseUrl: settings.baseUrl,
        userAgent: settings.userAgent ?? "envelope-gate-app",
        retry: { retries: settings.retries ?? 3, retryBaseMs: settings.retryAfterMs ?? 1000, timeoutMs: settings.timeoutMs ?? 30_000 },
        rateLimitRetries: 1,
        maxRateLimitWaitS: settings.maxRateLimitWaitS ?? APP_MAX_RATE_LIMIT_WAIT_S,
        throttle: settings.throttle ?? true,
        beforeEachRequest: settings.beforeEachRequest,
        ...(settings.onAttemptFailed !== undefined ? { onAttemptFailed: settings.onAttemptFailed } : {}),
      }) as never,
    );
    const key = settings.privateKey;
    const source: PrivateKeySource =
      typeof key === "string" ? { origin: "privateKey", read: async () => Buffer.from(key.replace(/\\n/g, "\n")) } : key;
    this.octokit = new (Configured as unknown as typeof Octokit)({
      authStrategy: createAppAuth,
      auth: {
        appId: settings.appId,
        createJwt: (appId: string | number, timeDifference?: number) => createAppJwt(source, appId, timeDifference),
      },
    });
  }

  async installation(installationId: number): Promise<InstallationClient> {
    try {
      // As @octokit/app's getInstallationOctokit: an Octokit of the same class whose auth is the
      // installation's token, minted (and cached by auth-app) with a JWT from createJwt. Its
      // answers' headers are told to the App with the installation's id (its rate limit).
      const told = this.settings.onInstallationHeaders;
      const octokit = (await this.octokit.auth({
        type: "installation",
        installationId,
        factory: (auth: { octokit: Octokit; octokitOptions: Record<string, unknown> } & Record<string, unknown>) =>
          new (auth.octokit.constructor as typeof Octokit)({
            ...auth.octokitOptions,
            ...(told === undefined ? {} : { onResponseHeaders: (headers: Record<string, unknown>) => told(installationId, headers) }),
            authStrategy: createAppAuth,
            auth: { ...auth, installationId },
          }),
      })) as Octokit;
      conditionalRequests(octokit, this.conditional, `installation:${installationId}`);
      return new InstallationClient(octokit, () => this.botLogin());
    } catch (err) {
      throw githubUnavailable(`authenticate installation ${installationId}`, err);
    }
  }

  /**
   * One page of the App's webhook deliveries, newest first (GET /app/hook/deliveries, with the
   * App's JWT), and the cursor of the next page from the Link header (null: the last page).
   */
  async listHookDeliveries(cursor: string | null, perPage = 100): Promise<{ deliveries: HookDelivery[]; next: string | null }> {
    try {
      const res = await this.octokit.request("GET /app/hook/deliveries", { per_page: perPage, ...(cursor === null ? {} : { cursor }) });
      return { deliveries: res.data as HookDelivery[], next: nextCursor(res.headers.link) };
    } catch (err) {
      throw hookError("list the App's webhook deliveries", err, "REDELIVERY_LIST_REFUSED");
    }
  }

  /** Asks GitHub to deliver one delivery again (POST /app/hook/deliveries/{delivery_id}/attempts, 202). */
  async redeliverHook(deliveryId: number): Promise<void> {
    try {
      // Not retried by the client: a 5xx may come after GitHub queued the attempt; the pass records it pending instead.
      await this.octokit.request("POST /app/hook/deliveries/{delivery_id}/attempts", { delivery_id: deliveryId, request: { retries: 0 } });
    } catch (err) {
      throw hookError(`redeliver webhook delivery ${deliveryId}`, err, "REDELIVERY_REFUSED");
    }
  }

  private bot: Promise<string> | null = null;

  /**
   * The login GitHub gives what the App writes with an installation token: `<slug>[bot]`, the slug
   * from GET /app (with the App's JWT; an installation token cannot read it). Read once, then
   * cached; a failed read is not cached.
   */
  botLogin(): Promise<string> {
    this.bot ??= this.whoAmI().then(
      (app) => `${app.slug}[bot]`,
      (err: unknown) => {
        this.bot = null;
        throw err;
      },
    );
    return this.bot;
  }

  /** GET /app: proves the App's credentials work (used by `app status --check-github`). */
  async whoAmI(): Promise<{ slug: string; id: number }> {
    try {
      const res = await this.octokit.request("GET /app");
      const data = res.data as { slug: string; id: number };
      return { slug: data.slug, id: data.id };
    } catch (err) {
      throw githubUnavailable("identify the App", err);
    }
  }
}

/** A webhook delivery attempt as GET /app/hook/deliveries lists it (`hook-delivery-item`). */
export interface HookDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  /** "OK" when GitHub took the App's answer as delivered; anything else is a failed attempt. */
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number | null;
}

function nextCursor(link: string | undefined): string | null {
  for (const part of (link ?? "").split(",")) {
    const m = /<([^>]+)>\s*;\s*rel="next"/.exec(part);
    if (!m) continue;
    try {
      return new URL(m[1] as string).searchParams.get("cursor");
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * What a deliveries call could not do, with its own code: a rate limit (403 with no quota left
 * or a retry-after, 429) is REDELIVERY_RATE_LIMITED; a refusal (4xx) is `refused`; no answer or
 * a 5xx is GITHUB_UNAVAILABLE. A Refusal (the kill switch, a drain) passes through.
 */
function hookError(what: string, err: unknown, refused: "REDELIVERY_LIST_REFUSED" | "REDELIVERY_REFUSED"): Refusal {
  if (err instanceof Refusal) return err;
  const e = err as { status?: unknown; message?: unknown; response?: { headers?: Record<string, string | undefined> } } | null;
  const status = typeof e?.status === "number" && e.response !== undefined ? e.status : null;
  const headers = e?.response?.headers ?? {};
  const message = String(e?.message ?? err).slice(0, 500);
  const limited =
    status === 429 ||
    (status === 403 && (headers["x-ratelimit-remaining"] === "0" || headers["retry-after"] !== undefined || /rate limit/i.test(message)));
  if (limited) return new Refusal("REDELIVERY_RATE_LIMITED", `GitHub rate-limited the request to ${what} (HTTP ${status}): ${message}`);
  if (status !== null && status >= 400 && status < 500)
    return new Refusal(refused, `GitHub refused to ${what} (HTTP ${status}): ${message}`);
  return githubUnavailable(what, err);
}

/** A run's evidence artifact for the attempt the App verified (InstallationClient.runEvidence). */
export type RunEvidence = { kind: "zip"; zip: Uint8Array } | { kind: "missing" } | { kind: "earlier"; reason: string };

/** A check run named like one of the App's, as the commit's check-runs listing shows it. */
export interface NamedCheckRun {
  id: number;
  name: string;
  /** The app GitHub says created it (`app.id`); null when GitHub names none. */
  app_id: number | null;
  app_slug: string | null;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  title: string | null;
  summary: string | null;
}

interface CheckRunJson {
  id: number;
  name: string;
  status: string;
  conclusion?: string | null;
  external_id?: string | null;
  app?: { id?: number; slug?: string } | null;
  output?: { title?: string | null; summary?: string | null };
}

/** A pull request as the pulls API answers it, the fields the App checks before it trusts one. */
export interface PullInfo {
  number: number;
  html_url: string;
  state: string;
  /** The author's login (`<slug>[bot]` for what the App opened) and account type. */
  author: string;
  author_type: string;
  head_ref: string;
  head_sha: string;
  /** The head's repository (`owner/name`); null when GitHub no longer has it (a deleted fork). */
  head_repository: string | null;
  base_ref: string;
  /** Whether it was merged (GitHub's `merged_at` is set). */
  merged: boolean;
}

interface PullJson {
  number: number;
  html_url: string;
  state: string;
  user: { login: string; type: string } | null;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { ref: string };
  merged_at?: string | null;
}

function pullInfo(p: PullJson): PullInfo {
  return {
    number: p.number,
    html_url: p.html_url,
    state: p.state,
    author: p.user?.login ?? "",
    author_type: p.user?.type ?? "",
    head_ref: p.head.ref,
    head_sha: p.head.sha,
    head_repository: p.head.repo?.full_name ?? null,
    base_ref: p.base.ref,
    merged: typeof p.merged_at === "string" && p.merged_at !== "",
  };
}

/** One installation's calls. Methods name the GitHub operation; failures are typed. */
export class InstallationClient {
  constructor(
    private readonly octokit: Octokit,
    private readonly bot: () => Promise<string> = () => Promise.reject(new Refusal("GITHUB_UNAVAILABLE", "the App's bot login is unknown")),
  ) {}

  /** The installation's Octokit as the shared readers and writers take it (a GuardedOctokit: the App's class derives from it). */
  private get client(): GitHubClient {
    return this.octokit as unknown as GitHubClient;
  }

  /** The App's own login on GitHub (`<slug>[bot]`), the author of every PR it opens. */
  botLogin(): Promise<string> {
    return this.bot();
  }

  private async call<T>(
    what: string,
    route: string,
    params: Record<string, unknown>,
    expected: readonly number[] = [],
  ): Promise<{ status: number; data: T }> {
    try {
      const res = await this.octokit.request(route, params);
      return { status: res.status, data: res.data as T };
    } catch (err) {
      const status = (err as { status?: unknown } | null)?.status;
      if (typeof status === "number" && expected.includes(status)) {
        return { status, data: ((err as { response?: { data?: unknown } }).response?.data ?? null) as T };
      }
      throw githubUnavailable(what, err);
    }
  }

  /**
   * Dispatches a workflow asking for the run's details. GitHub versions that do not know
   * `return_run_details` answer 204 (or 422 naming the key); then the caller correlates by
   * the dual run id it put in the inputs.
   */
  async dispatchWorkflow(r: RepoRef, workflow: string, ref: string, inputs: Record<string, string>): Promise<DispatchResult> {
    const route = "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches";
    // Never retried here: a 5xx or a timeout may come after GitHub started the run, and a blind
    // resend would start a second runner B under one budget reservation. The failure goes back
    // to the caller, whose next attempt looks for the run before dispatching again.
    const once = { request: { retries: 0 } };
    const first = await this.call<{ workflow_run_id?: number; run_url?: string; html_url?: string; message?: string } | null>(
      "dispatch runner B",
      route,
      { ...r, workflow_id: workflow, ref, inputs, return_run_details: true, ...once },
      [422],
    );
    if (first.status === 422) {
      const message = String(first.data?.message ?? "");
      if (!/return_run_details/.test(message)) {
        throw refusedAnswer("dispatch runner B", 422, message || "Validation Failed");
      }
      await this.call("dispatch runner B", route, { ...r, workflow_id: workflow, ref, inputs, ...once });
      return { runId: null, runUrl: null, mode: "correlation" };
    }
    const id = first.data?.workflow_run_id;
    if (first.status === 200 && typeof id === "number") {
      return { runId: id, runUrl: first.data?.html_url ?? null, mode: "run_details" };
    }
    return { runId: null, runUrl: null, mode: "correlation" };
  }

  /** Lists recent workflow_dispatch runs of `workflow` created since `since` (ISO). */
  async listDispatchedRuns(r: RepoRef, workflow: string, since: string): Promise<ApiWorkflowRun[]> {
    const res = await this.call<{ workflow_runs: ApiWorkflowRun[] }>(
      "list runner B candidates",
      "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs",
      { ...r, workflow_id: workflow, event: "workflow_dispatch", created: `>=${since}`, per_page: 100 },
    );
    return res.data.workflow_runs ?? [];
  }

  async getRun(r: RepoRef, runId: number): Promise<ApiWorkflowRun> {
    const res = await this.call<ApiWorkflowRun>("read a workflow run", "GET /repos/{owner}/{repo}/actions/runs/{run_id}", {
      ...r,
      run_id: runId,
    });
    return res.data;
  }

  /** The pull request as GitHub has it now (with its repositories and base sha), or null when it does not exist (404). */
  async readPull(r: RepoRef, pullNumber: number): Promise<ApiPull | null> {
    const res = await this.call<ApiPull>(
      "read the pull request",
      "GET /repos/{owner}/{repo}/pulls/{pull_number}",
      { ...r, pull_number: pullNumber },
      [404],
    );
    return res.status === 404 ? null : res.data;
  }

  /**
   * What is at `path` in commit `ref` (its object id; the text of a file GitHub inlines, up to
   * 1 MB), or null when nothing is. For a file's text whatever its size, textAt.
   */
  async pathAt(r: RepoRef, path: string, ref: string): Promise<PathAt | null> {
    const res = await this.call<{ type?: string; sha?: string; encoding?: string; content?: string } | unknown[]>(
      `read ${path} at ${ref.slice(0, 12)}`,
      "GET /repos/{owner}/{repo}/contents/{path}",
      { ...r, path, ref },
      [404],
    );
    if (res.status === 404) return null;
    if (Array.isArray(res.data)) return { type: "dir", sha: "", text: null };
    const d = res.data;
    if (typeof d.sha !== "string") throw new Refusal("GITHUB_UNAVAILABLE", `GitHub named no object id for ${path} at ${ref}`);
    const text =
      d.type === "file" && d.encoding === "base64" && typeof d.content === "string"
        ? Buffer.from(d.content, "base64").toString("utf8")
        : null;
    return { type: String(d.type ?? "unknown"), sha: d.sha, text };
  }

  /** Every blob of commit `sha`'s tree, by path. */
  async treeAt(r: RepoRef, sha: string): Promise<TreeAt> {
    const res = await this.call<{ truncated?: boolean; tree: { path: string; type: string; sha: string; mode?: string }[] }>(
      `read the tree of ${sha.slice(0, 12)}`,
      "GET /repos/{owner}/{repo}/git/trees/{tree_sha}",
      { ...r, tree_sha: sha, recursive: "1" },
    );
    const blobs = new Map<string, string>();
    for (const e of res.data.tree ?? []) if (e.type !== "tree") blobs.set(e.path, `${e.mode ?? ""}:${e.sha}`);
    return { truncated: res.data.truncated === true, blobs };
  }

  /** The zip of the run's artifact named `name`, or null when the run has no such artifact. */
  async downloadArtifact(r: RepoRef, runId: number, name: string): Promise<Uint8Array | null> {
    const list = await this.call<{ artifacts: { id: number; name: string; expired: boolean }[] }>(
      "list the run's artifacts",
      "GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts",
      { ...r, run_id: runId, name, per_page: 100 },
    );
    const artifact = list.data.artifacts.find((a) => a.name === name && !a.expired);
    if (!artifact) return null;
    const zip = await this.call<ArrayBuffer>(
      "download the evidence artifact",
      "GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}",
      { ...r, artifact_id: artifact.id, archive_format: "zip" },
    );
    return new Uint8Array(zip.data);
  }

  /**
   * The evidence artifact of the run attempt GitHub reports (`run.run_attempt`): for a re-run,
   * only an artifact created at or after that attempt started (`run_started_at`) is its own; one of
   * an earlier attempt of the same run is `earlier`, never read as this attempt's. Of several, the
   * newest. None named so: `missing`.
   */
  async runEvidence(r: RepoRef, run: ApiWorkflowRun, name: string): Promise<RunEvidence> {
    const list = await this.call<{ artifacts: { id: number; name: string; expired: boolean; created_at?: string | null }[] }>(
      "list the run's artifacts",
      "GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts",
      { ...r, run_id: run.id, name, per_page: 100 },
    );
    const named = list.data.artifacts.filter((a) => a.name === name && !a.expired);
    if (named.length === 0) return { kind: "missing" };
    const created = (a: { created_at?: string | null }) => Date.parse(a.created_at ?? "");
    const attempt = run.run_attempt ?? 1;
    let own = named;
    if (attempt > 1) {
      const started = Date.parse(run.run_started_at ?? "");
      if (Number.isNaN(started))
        return {
          kind: "earlier",
          reason: `GitHub gives no start time for attempt ${attempt} of run ${run.id}: whose ${name} artifact is which cannot be told`,
        };
      own = named.filter((a) => created(a) >= started);
      if (own.length === 0) {
        const a = named[0] as { id: number; created_at?: string | null };
        return {
          kind: "earlier",
          reason: `run ${run.id}'s ${name} artifact (${a.id}, created ${a.created_at ?? "at no time GitHub gives"}) is older than attempt ${attempt}, which started ${run.run_started_at}: it is an earlier attempt's`,
        };
      }
    }
    const artifact = own.reduce((a, b) => (created(b) > created(a) ? b : a));
    const zip = await this.call<ArrayBuffer>(
      "download the evidence artifact",
      "GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}",
      { ...r, artifact_id: artifact.id, archive_format: "zip" },
    );
    return { kind: "zip", zip: new Uint8Array(zip.data) };
  }

  /** A completed check run with its output, in one request (createCheckRun). */
  async createCheckRun(r: RepoRef, check: CheckRunRequest): Promise<number> {
    const run = await createCheckRun(
      this.client,
      r,
      {
        name: check.name,
        headSha: check.head_sha,
        conclusion: check.conclusion,
        title: check.title,
        summary: check.summary,
        ...(check.text ? { text: check.text } : {}),
        ...(check.external_id ? { externalId: check.external_id } : {}),
        ...(check.details_url ? { detailsUrl: check.details_url } : {}),
      },
      { what: "create a check run", hint: APP_HINT },
    );
    return run.id;
  }

  /**
   * Every check run named `name` on `sha`, whoever posted it (`app_id`: the app GitHub says
   * created it; a job token's is GitHub Actions'), up to 1,000.
   */
  async checkRunsNamed(r: RepoRef, sha: string, name: string): Promise<NamedCheckRun[]> {
    const out: NamedCheckRun[] = [];
    for (let page = 1; page <= 10; page++) {
      const res = await this.call<{ total_count: number; check_runs: CheckRunJson[] }>(
        "list the commit's check runs",
        "GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
        { ...r, ref: sha, check_name: name, filter: "all", per_page: 100, page },
      );
      for (const c of res.data.check_runs) {
        out.push({
          id: c.id,
          name: c.name,
          app_id: typeof c.app?.id === "number" ? c.app.id : null,
          app_slug: c.app?.slug ?? null,
          status: c.status,
          conclusion: c.conclusion ?? null,
          external_id: c.external_id ?? null,
          title: c.output?.title ?? null,
          summary: c.output?.summary ?? null,
        });
      }
      if (res.data.check_runs.length < 100 || out.length >= res.data.total_count) break;
    }
    return out;
  }

  /**
   * The pull requests GitHub associates with commit `sha` (GET /commits/{sha}/pulls), up to 1,000:
   * open ones and merged ones; a caller keeps those whose head is `sha`. GitHub lists only the
   * merged one for a commit already on the default branch.
   */
  async pullsOfCommit(r: RepoRef, sha: string): Promise<PullInfo[]> {
    const out: PullInfo[] = [];
    for (let page = 1; page <= 10; page++) {
      const res = await this.call<PullJson[]>("list the commit's pull requests", "GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls", {
        ...r,
        commit_sha: sha,
        per_page: 100,
        page,
      });
      out.push(...res.data.map(pullInfo));
      if (res.data.length < 100) break;
    }
    return out;
  }

  /** A branch's current commit, or null when there is no such branch (branchHeadSha, the Action's reader too). */
  branchSha(r: RepoRef, branch: string): Promise<string | null> {
    return branchHeadSha(this.client, r, branch, APP_HINT);
  }

  /**
   * A policy file's text at a commit, or null when nothing is at the path there: readFileAt, the
   * Action's reader (a file over 1 MB through the blobs API, up to POLICY_FILE_MAX_BYTES, then
   * POLICY_FILE_TOO_LARGE). A path that is not a file is `notAFile`'s refusal.
   */
  async textAt(
    r: RepoRef,
    path: string,
    ref: string,
    what: string,
    notAFile: (path: string, ref: string) => Refusal,
  ): Promise<string | null> {
    const bytes = await readFileAt(this.client, r, path, ref, undefined, { what, hint: APP_HINT, notAFile });
    return bytes === null ? null : Buffer.from(bytes).toString("utf8");
  }

  /** The ledger's text at a commit (textAt); a path that is not a file is LEDGER_UNREADABLE. */
  fileAt(r: RepoRef, path: string, ref: string): Promise<string | null> {
    return this.textAt(
      r,
      path,
      ref,
      "read the ledger",
      (p, at) => new Refusal("LEDGER_UNREADABLE", `${p} at ${at} is not a file GitHub returned as base64`),
    );
  }

  /** A commit whose tree is `parent`'s with `path` set to `content`. */
  commitFile(r: RepoRef, parent: string, path: string, content: string, message: string): Promise<string> {
    return this.commitFiles(r, parent, { [path]: content }, message);
  }

  /** A commit whose tree is `parent`'s with each of `files` (path -> text) set: one commit for several files. */
  async commitFiles(r: RepoRef, parent: string, files: Record<string, string>, message: string): Promise<string> {
    const parentCommit = await this.call<{ tree: { sha: string } }>(
      "read the base commit",
      "GET /repos/{owner}/{repo}/git/commits/{commit_sha}",
      { ...r, commit_sha: parent },
    );
    const tree = await this.call<{ sha: string }>("write the tree", "POST /repos/{owner}/{repo}/git/trees", {
      ...r,
      base_tree: parentCommit.data.tree.sha,
      tree: Object.entries(files).map(([path, content]) => ({ path, mode: "100644", type: "blob", content })),
    });
    const commit = await this.call<{ sha: string }>("write the commit", "POST /repos/{owner}/{repo}/git/commits", {
      ...r,
      message,
      tree: tree.data.sha,
      parents: [parent],
    });
    return commit.data.sha;
  }

  /**
   * One page (100) of the commits reachable from `from`, newest first, each with its parents
   * (GET /repos/{owner}/{repo}/commits?sha=): a walk of a branch's history costs a call per 100
   * commits, not one per commit. `more`: GitHub has another page.
   */
  async commitsPage(r: RepoRef, from: string, page: number): Promise<{ commits: { sha: string; parents: string[] }[]; more: boolean }> {
    const res = await this.call<{ sha: string; parents?: { sha: string }[] }[]>(
      `list the commits of ${from.slice(0, 40)}`,
      "GET /repos/{owner}/{repo}/commits",
      { ...r, sha: from, per_page: COMMITS_PER_PAGE, page },
    );
    const commits = res.data.map((c) => ({ sha: c.sha, parents: (c.parents ?? []).map((p) => p.sha) }));
    return { commits, more: commits.length === COMMITS_PER_PAGE };
  }

  /** A commit's parents (GET /git/commits/{sha}), or null when the repository has no such commit. */
  async commitParents(r: RepoRef, sha: string): Promise<string[] | null> {
    const res = await this.call<{ parents?: { sha: string }[] }>(
      `read commit ${sha.slice(0, 12)}`,
      "GET /repos/{owner}/{repo}/git/commits/{commit_sha}",
      { ...r, commit_sha: sha },
      [404, 422],
    );
    if (res.status !== 200) return null;
    return (res.data.parents ?? []).map((p) => p.sha);
  }

  /** The repository's default branch, as GET /repos/{owner}/{repo} names it now. */
  async defaultBranch(r: RepoRef): Promise<string> {
    const res = await this.call<{ default_branch?: string }>("read the repository", "GET /repos/{owner}/{repo}", { ...r });
    const branch = res.data.default_branch;
    if (typeof branch !== "string" || branch === "")
      throw new Refusal("GITHUB_UNAVAILABLE", `GitHub named no default branch for ${r.owner}/${r.repo}`);
    return branch;
  }

  /**
   * The repository's default branch, or null when GitHub answers 404 (no such repository, or the
   * installation cannot see it): the organisation's `.github` repository, which may not exist.
   */
  async defaultBranchIfAny(r: RepoRef): Promise<string | null> {
    const res = await this.call<{ default_branch?: string }>("read the repository", "GET /repos/{owner}/{repo}", { ...r }, [404]);
    if (res.status === 404) return null;
    const branch = res.data.default_branch;
    if (typeof branch !== "string" || branch === "")
      throw new Refusal("GITHUB_UNAVAILABLE", `GitHub named no default branch for ${r.owner}/${r.repo}`);
    return branch;
  }

  /** Sets a pull request's title and body (PATCH). */
  async updatePull(r: RepoRef, pullNumber: number, fields: { title: string; body: string }): Promise<void> {
    await this.call("update the pull request", "PATCH /repos/{owner}/{repo}/pulls/{pull_number}", {
      ...r,
      pull_number: pullNumber,
      ...fields,
    });
  }

  /** Creates `refs/heads/<branch>`. "exists" when it is already there (GitHub's 422): the lock is taken. */
  async createBranch(r: RepoRef, branch: string, sha: string): Promise<"created" | "exists"> {
    const res = await this.call<{ message?: string }>(
      "create the ledger branch",
      "POST /repos/{owner}/{repo}/git/refs",
      { ...r, ref: `refs/heads/${branch}`, sha },
      [422],
    );
    if (res.status === 422) {
      if (/already exists/i.test(String(res.data?.message ?? ""))) return "exists";
      throw refusedAnswer("create the ledger branch", 422, String(res.data?.message ?? "Validation Failed"));
    }
    return "created";
  }

  async moveBranch(r: RepoRef, branch: string, sha: string): Promise<void> {
    await this.call("move the ledger branch", "PATCH /repos/{owner}/{repo}/git/refs/{ref}", {
      ...r,
      ref: `heads/${branch}`,
      sha,
      force: true,
    });
  }

  /** Deletes `refs/heads/<branch>` (GitHub closes the open pull requests whose head it was). */
  async deleteBranch(r: RepoRef, branch: string): Promise<void> {
    await this.call("delete the ledger branch", "DELETE /repos/{owner}/{repo}/git/refs/{ref}", { ...r, ref: `heads/${branch}` });
  }

  /** Open pull requests whose head is `<owner>:<branch>` (this repository's branch), as GitHub lists them. */
  async listOpenPulls(r: RepoRef, branch: string): Promise<PullInfo[]> {
    const res = await this.call<PullJson[]>("find the ledger PR", "GET /repos/{owner}/{repo}/pulls", {
      ...r,
      head: `${r.owner}:${branch}`,
      state: "open",
      per_page: 10,
    });
    return res.data.map(pullInfo);
  }

  async getPull(r: RepoRef, pullNumber: number): Promise<PullInfo> {
    const res = await this.call<PullJson>("read the ledger PR", "GET /repos/{owner}/{repo}/pulls/{pull_number}", {
      ...r,
      pull_number: pullNumber,
    });
    return pullInfo(res.data);
  }

  /**
   * Opens a pull request. "exists" when GitHub answers that one is open for this head already
   * (422): the caller decides whether that one is its own; nothing is adopted here.
   */
  async openPull(r: RepoRef, pull: { title: string; head: string; base: string; body: string }): Promise<PullInfo | "exists"> {
    const res = await this.call<PullJson & { message?: string; errors?: { message?: string }[] }>(
      "open the ledger PR",
      "POST /repos/{owner}/{repo}/pulls",
      { ...r, ...pull },
      [422],
    );
    if (res.status === 422) {
      const messages = [res.data?.message, ...(res.data?.errors ?? []).map((e) => e.message)].map((m) => String(m ?? ""));
      if (messages.some((m) => /already exists/i.test(m))) return "exists";
      throw refusedAnswer("open the ledger PR", 422, String(res.data?.message ?? "Validation Failed"));
    }
    return pullInfo(res.data);
  }

  /** Closes a pull request (PATCH state=closed; closing a closed one changes nothing). */
  async closePull(r: RepoRef, pullNumber: number): Promise<void> {
    await this.call("close the ledger PR", "PATCH /repos/{owner}/{repo}/pulls/{pull_number}", {
      ...r,
      pull_number: pullNumber,
      state: "closed",
    });
  }

  async requestReviewers(r: RepoRef, pullNumber: number, reviewers: string[], teams: string[]): Promise<void> {
    if (reviewers.length === 0 && teams.length === 0) return;
    await this.call("request review", "POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers", {
      ...r,
      pull_number: pullNumber,
      reviewers,
      team_reviewers: teams,
    });
  }

  async comment(r: RepoRef, issueNumber: number, body: string): Promise<void> {
    await this.call("comment", "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", { ...r, issue_number: issueNumber, body });
  }

  /** A pull request's reviews, oldest first, with their bodies (at most 1000: the rest, the newest, unread). */
  async listReviews(r: RepoRef, pullNumber: number): Promise<ReviewFacts[]> {
    const out: ReviewFacts[] = [];
    for (let page = 1; page <= 10; page++) {
      const res = await this.call<
        { id: number; user: { login: string } | null; state: string; commit_id: string | null; body: string | null }[]
      >("list the pull request's reviews", "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", {
        ...r,
        pull_number: pullNumber,
        per_page: 100,
        page,
      });
      for (const x of res.data) {
        out.push({ id: x.id, login: x.user?.login ?? "", state: x.state, commitId: x.commit_id ?? null, body: x.body ?? null });
      }
      if (res.data.length < 100) break;
    }
    return out;
  }
}
