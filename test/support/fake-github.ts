/**
 * A local GitHub: a real node:http server on 127.0.0.1 speaking the REST shapes envelope-gate
 * uses, with in-memory state. Tests point the real Octokit client at `fake.url`.
 *
 * Extending it (the App adds its own routes in its own file):
 *
 *   fake.route("POST", "/app/installations/:installation_id/access_tokens", (req) => ({ status: 201, body: {...} }));
 *
 * Routes registered later win over earlier ones, so a test can override a built-in route.
 * A pattern segment `:name` matches one path segment; a trailing `*name` matches the rest.
 * Handlers get the parsed request and the shared state and return { status, body, headers }.
 *
 * Failures: `fake.fail("GET", "/repos/:owner/:repo/contents/*path", 500)` makes matching
 * requests answer 500 (optionally only `times` times). `fake.requests` logs every request.
 *
 * Rate limits: every answer carries GitHub's x-ratelimit-limit/remaining/used/reset/resource
 * headers; `fake.rateLimit({ kind: "primary", times: 1 })` makes the next requests answer a
 * primary limit (403, or 429, with remaining 0 and a reset `resetInS` ahead), `kind: "secondary"`
 * a secondary one (403 with retry-after), as GitHub documents them. A JSON answer to a GET carries
 * an ETag; asked with `If-None-Match` and unchanged, the answer is 304 with no body, logged with
 * its status and not counted against the rate limit (`spent`), as GitHub documents.
 */
import { createHash, randomUUID } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { zipSync } from "fflate";
import { checkExchange } from "./openapi.js";
import {
  appJson,
  commitJson,
  contentJson,
  FAKE_APP,
  FAKE_CREATED_AT,
  gitCommitJson,
  gitRefJson,
  idOf,
  labelJson,
  repoJson,
  teamJson,
  userJson,
} from "./fake-shapes.js";

export type Bytes = Uint8Array;

export interface FakeTree {
  sha: string;
  files: Map<string, Bytes>;
}

export interface FakeCommit {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
}

export interface FakeUser {
  login: string;
  type?: "User" | "Bot";
}

export interface FakePull {
  number: number;
  state: "open" | "closed";
  title: string;
  body: string | null;
  user: FakeUser;
  labels: string[];
  base: { ref: string; sha: string };
  head: { ref: string; sha: string; repo_full_name: string };
  draft: boolean;
  /** Files as the pulls files API lists them. */
  files: FakePullFile[];
  requested_reviewers: string[];
  requested_teams: string[];
}

export interface FakePullFile {
  filename: string;
  status: "added" | "removed" | "modified" | "renamed" | "copied" | "changed" | "unchanged";
  previous_filename?: string;
  additions?: number;
  deletions?: number;
  patch?: string;
}

export interface FakeReview {
  id: number;
  user: FakeUser;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" | "PENDING";
  commit_id: string;
  body: string;
  submitted_at: string;
}

export interface FakeAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
  raw_details?: string;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  external_id: string | null;
  details_url: string | null;
  started_at: string | null;
  completed_at: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotations_count: number };
  annotations: FakeAnnotation[];
  /** Every request body that created or updated this run, in order. */
  updates: Record<string, unknown>[];
  /**
   * The app GitHub names as its creator (`app`): an installation token's is the App (FAKE_APP), any
   * other token's GitHub Actions (a job token). Unset: FAKE_APP.
   */
  app?: FakeApp;
}

export type FakeApp = { id: number; slug: string; name: string; owner: string };

/** GitHub Actions as the creator of a check run a job token posted (integration 15368). */
export const GITHUB_ACTIONS_APP: FakeApp = { id: 15368, slug: "github-actions", name: "GitHub Actions", owner: "github" };

export interface FakeWorkflowRun {
  id: number;
  workflow_id: string;
  name: string;
  head_sha: string;
  head_branch: string;
  event: string;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  run_attempt: number;
  created_at: string;
  /** GitHub's timing of the run: its latest attempt's start and its last update (the end, once completed). */
  run_started_at?: string;
  updated_at?: string;
  /** Inputs of the dispatch that created it, if any. */
  inputs: Record<string, string> | null;
  /** Who started the run and who triggered this attempt (default "octocat"; the App's dispatches: its bot). */
  actor?: string;
  triggering_actor?: string;
  /** The repository the run's head is in, when it is not this one (a fork pull request). */
  head_repository?: string;
  /** The run name GitHub shows (`run-name`); default: the workflow's name, or runner B's for a dispatch naming a dual run. */
  display_title?: string;
}

export interface FakeArtifact {
  id: number;
  run_id: number;
  name: string;
  /** Files inside the artifact; served as a zip made with fflate. */
  files: Record<string, Bytes>;
  expired: boolean;
  /** When it was uploaded (default: when the test added it). */
  created_at: string;
}

export interface FakeDispatch {
  workflow_id: string;
  ref: string;
  inputs: Record<string, string>;
}

export interface FakeRepo {
  owner: string;
  name: string;
  id: number;
  default_branch: string;
  private: boolean;
  /** refs without the leading "refs/": "heads/main", "tags/v1". */
  refs: Map<string, string>;
  commits: Map<string, FakeCommit>;
  trees: Map<string, FakeTree>;
  blobs: Map<string, Bytes>;
  pulls: Map<number, FakePull>;
  reviews: Map<number, FakeReview[]>;
  /** login -> "admin" | "maintain" | "write" | "triage" | "read", or a custom role's name. Others answer 404 (not a collaborator). */
  collaborators: Map<string, string>;
  /** Custom repository roles: name -> the base role it inherits ("read", "triage", "write", "maintain"). */
  customRoles: Map<string, string>;
  checkRuns: FakeCheckRun[];
  dispatches: FakeDispatch[];
  workflowRuns: FakeWorkflowRun[];
  artifacts: FakeArtifact[];
  issueComments: { issue_number: number; body: string; id: number }[];
  /** Code scanning SARIF uploads received, as sent (the sarif field still gzip+base64). */
  sarifUploads: { id: string; commit_sha: string; ref: string; sarif: string; tool_name: string | null }[];
}

export interface FakeState {
  repos: Map<string, FakeRepo>;
  nextId: number;
  /** Set when a test wants a specific token enforced; requests without it answer 401. */
  requiredToken: string | null;
}

export interface FakeRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  headers: IncomingMessage["headers"];
  body: unknown;
  rawBody: Buffer;
  state: FakeState;
  /** The repository named by :owner/:repo, or a thrown 404. */
  repo(): FakeRepo;
  /** Absolute URL of this server, for links and redirects. */
  baseUrl: string;
}

export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (req: FakeRequest) => FakeResponse | Promise<FakeResponse>;

/** A request (or its response) that departs from GitHub's API description. */
export interface Mismatch {
  /** "GET /repos/acme/widgets/pulls/7 -> 200" */
  request: string;
  problems: string[];
}

/** Paths only the fake has (blob storage behind artifact redirects): not GitHub's API, not checked. */
export const FAKE_ONLY_PATH = /^\/_fake_/;

/** Every fake started in this test file; test/support/setup.ts fails a test that left mismatches. */
export const liveFakes = new Set<FakeGitHub>();

export interface LoggedRequest {
  method: string;
  path: string;
  query: string;
  body: unknown;
  status: number;
}

interface Route {
  method: string;
  pattern: string;
  match: (path: string) => Record<string, string> | null;
  handler: RouteHandler;
}

interface Failure {
  method: string | null;
  match: (path: string) => Record<string, string> | null;
  status: number;
  remaining: number;
  body: unknown;
  headers?: () => Record<string, string>;
  /** The request is handled (its effect happens), then answered with the failure: an answer lost. */
  afterHandling?: boolean;
}

export interface RateLimitOptions {
  kind: "primary" | "secondary";
  /** How many requests answer the limit (default 1). */
  times?: number;
  /** Primary limits: 403 (default) or 429. */
  status?: 403 | 429;
  /** Primary limits: the reset, this many seconds from the answer (default 1). */
  resetInS?: number;
  /** Secondary limits: the retry-after header (default 1). */
  retryAfterS?: number;
  /** Only these requests (default: every request). */
  method?: string;
  pattern?: string;
}

/** GitHub's primary limit for an installation. */
export const RATE_LIMIT_PER_HOUR = 5000;

/** Thrown inside a handler to answer with an error status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function compilePattern(pattern: string): (path: string) => Record<string, string> | null {
  const segments = pattern.split("/").filter((s) => s !== "");
  return (path: string) => {
    const parts = path.split("/").filter((s) => s !== "");
    const params: Record<string, string> = {};
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i] as string;
      if (seg.startsWith("*")) {
        if (i >= parts.length) return null;
        params[seg.slice(1)] = parts.slice(i).map(decodeURIComponent).join("/");
        return params;
      }
      const part = parts[i];
      if (part === undefined) return null;
      if (seg.startsWith(":")) params[seg.slice(1)] = decodeURIComponent(part);
      else if (seg !== part) return null;
    }
    return parts.length === segments.length ? params : null;
  };
}

export function gitSha(kind: string, bytes: Bytes | string): string {
  const data = typeof bytes === "string" ? Buffer.from(bytes) : Buffer.from(bytes);
  return createHash("sha1").update(`${kind} ${data.length}\0`).update(data).digest("hex");
}

function toBytes(content: Bytes | string): Bytes {
  return typeof content === "string" ? new Uint8Array(Buffer.from(content, "utf8")) : content;
}

function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, "Z");
}

export class FakeGitHub {
  readonly state: FakeState = { repos: new Map(), nextId: 1000, requiredToken: null };
  readonly requests: LoggedRequest[] = [];
  /** Requests that spend the rate limit: all but the 304s to conditional ones. */
  spent = 0;
  /**
   * Departures from GitHub's description (test/support/openapi.ts), in request order. The
   * shared afterEach hook (test/support/setup.ts) fails the test during which one was recorded;
   * a test that provokes one on purpose takes it with `takeMismatches()`.
   */
  readonly mismatches: Mismatch[] = [];
  /** How many of `mismatches` the afterEach hook has reported already. */
  reported = 0;
  /** The end of the current rate-limit window (epoch seconds), an hour after the fake started. */
  private readonly windowReset = Math.floor(Date.now() / 1000) + 3600;
  private readonly routes: Route[] = [];
  private readonly failures: Failure[] = [];
  private server: Server | null = null;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Registers a route; later registrations win. */
  route(method: string, pattern: string, handler: RouteHandler): void {
    this.routes.unshift({ method: method.toUpperCase(), pattern, match: compilePattern(pattern), handler });
  }

  /**
   * Matching requests answer `status` (all of them, or the next `times`). With `afterHandling`,
   * each is handled first (a dispatch starts its run) and only its answer is the failure.
   */
  fail(method: string, pattern: string, status: number, options: { times?: number; body?: unknown; afterHandling?: boolean } = {}): void {
    this.failures.push({
      afterHandling: options.afterHandling === true,
      method: method.toUpperCase(),
      match: compilePattern(pattern),
      status,
      remaining: options.times ?? Number.POSITIVE_INFINITY,
      body: options.body ?? { message: status === 403 ? "Resource not accessible by integration" : "Server Error" },
    });
  }

  /** The next matching requests answer GitHub's primary or secondary rate limit. */
  rateLimit(options: RateLimitOptions): void {
    const reset = () => Math.floor(Date.now() / 1000) + (options.resetInS ?? 1);
    const primary = options.kind === "primary";
    this.failures.push({
      method: options.method?.toUpperCase() ?? null,
      match: options.pattern === undefined ? () => ({}) : compilePattern(options.pattern),
      status: primary ? (options.status ?? 403) : 403,
      remaining: options.times ?? 1,
      body: primary
        ? {
            message:
              "API rate limit exceeded for installation. If you reach out to GitHub Support for help, please include the request ID FAKE.",
            documentation_url: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
          }
        : {
            message:
              "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID FAKE.",
            documentation_url:
              "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
          },
      headers: primary
        ? () => ({ "x-ratelimit-remaining": "0", "x-ratelimit-used": String(RATE_LIMIT_PER_HOUR), "x-ratelimit-reset": String(reset()) })
        : () => ({ "retry-after": String(options.retryAfterS ?? 1) }),
    });
  }

  /**
   * The installation budget the answers report, instead of the one counted from the requests:
   * `remaining` goes down by one per answer, `resetAt` (epoch seconds) stays. Null: counted.
   * A test drives an installation low with it, and "resets" it by setting it back to null.
   */
  budget: { remaining: number; limit: number; resetAt: number } | null = null;

  clearFailures(): void {
    this.failures.length = 0;
  }

  /**
   * GitHub's real latency: every answer waits `perCallMs`, a write (POST, PATCH, PUT, DELETE)
   * `perWriteMs` more. Null (the default) answers at once.
   */
  latency: { perCallMs: number; perWriteMs: number } | null = null;

  setLatency(latency: { perCallMs: number; perWriteMs?: number } | null): void {
    this.latency = latency === null ? null : { perCallMs: latency.perCallMs, perWriteMs: latency.perWriteMs ?? 0 };
  }

  /** Requests whose method and path match. */
  requestsTo(method: string, pattern: string): LoggedRequest[] {
    const match = compilePattern(pattern);
    return this.requests.filter((r) => r.method === method.toUpperCase() && match(r.path) !== null);
  }

  nextId(): number {
    return ++this.state.nextId;
  }

  // ---- state helpers -------------------------------------------------------------------

  addRepo(fullName: string, options: { default_branch?: string; private?: boolean } = {}): FakeRepo {
    const [owner, name] = fullName.split("/") as [string, string];
    const repo: FakeRepo = {
      owner,
      name,
      id: this.nextId(),
      default_branch: options.default_branch ?? "main",
      private: options.private ?? false,
      refs: new Map(),
      commits: new Map(),
      trees: new Map(),
      blobs: new Map(),
      pulls: new Map(),
      reviews: new Map(),
      collaborators: new Map(),
      customRoles: new Map(),
      checkRuns: [],
      dispatches: [],
      workflowRuns: [],
      artifacts: [],
      issueComments: [],
      sarifUploads: [],
    };
    this.state.repos.set(`${owner}/${name}`.toLowerCase(), repo);
    return repo;
  }

  repo(fullName: string): FakeRepo {
    const repo = this.state.repos.get(fullName.toLowerCase());
    if (!repo) throw new Error(`fake: no repo ${fullName}`);
    return repo;
  }

  /** Stores a tree with exactly these files and returns its sha. */
  putTree(repo: FakeRepo, files: Map<string, Bytes>): string {
    const listing = [...files.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([p, b]) => `${p}\0${gitSha("blob", b)}`)
      .join("\n");
    const sha = gitSha("tree", listing);
    for (const b of files.values()) repo.blobs.set(gitSha("blob", b), b);
    repo.trees.set(sha, { sha, files: new Map(files) });
    return sha;
  }

  /**
   * Makes a commit whose tree is the parent's files with `files` applied (null deletes).
   * Moves `branch` (if given) to it. Returns the commit sha.
   */
  commit(
    fullName: string,
    files: Record<string, Bytes | string | null>,
    options: { parent?: string | null; branch?: string; message?: string } = {},
  ): string {
    const repo = this.repo(fullName);
    const parent =
      options.parent === undefined ? (options.branch ? (repo.refs.get(`heads/${options.branch}`) ?? null) : null) : options.parent;
    const base = parent ? this.filesAt(repo, parent) : new Map<string, Bytes>();
    const next = new Map(base);
    for (const [path, content] of Object.entries(files)) {
      if (content === null) next.delete(path);
      else next.set(path, toBytes(content));
    }
    const tree = this.putTree(repo, next);
    const message = options.message ?? "commit";
    const sha = gitSha("commit", `${tree}\n${parent ?? ""}\n${message}\n${this.nextId()}`);
    repo.commits.set(sha, { sha, tree, parents: parent ? [parent] : [], message });
    if (options.branch) repo.refs.set(`heads/${options.branch}`, sha);
    return sha;
  }

  /** Resolves a sha, branch name, "heads/x" or "refs/heads/x" to a commit sha. */
  resolveRef(repo: FakeRepo, ref: string): string | null {
    if (repo.commits.has(ref)) return ref;
    const bare = ref.replace(/^refs\//, "");
    return repo.refs.get(bare) ?? repo.refs.get(`heads/${bare}`) ?? repo.refs.get(`tags/${bare}`) ?? null;
  }

  filesAt(repo: FakeRepo, ref: string): Map<string, Bytes> {
    const sha = this.resolveRef(repo, ref);
    const commit = sha ? repo.commits.get(sha) : undefined;
    if (!commit) throw new HttpError(404, `No commit found for the ref ${ref}`);
    const tree = repo.trees.get(commit.tree);
    if (!tree) throw new HttpError(500, `fake: tree ${commit.tree} missing`);
    return tree.files;
  }

  addPull(
    fullName: string,
    pull: Partial<Omit<FakePull, "head">> & { number: number; base: FakePull["base"]; head: Partial<FakePull["head"]> & { sha: string } },
  ): FakePull {
    const repo = this.repo(fullName);
    const full: FakePull = {
      state: "open",
      title: `PR ${pull.number}`,
      body: null,
      user: { login: "octocat" },
      labels: [],
      draft: false,
      files: [],
      requested_reviewers: [],
      requested_teams: [],
      ...pull,
      head: { ...pull.head, ref: pull.head.ref ?? `branch-${pull.number}`, repo_full_name: pull.head.repo_full_name ?? fullName },
    };
    repo.pulls.set(full.number, full);
    return full;
  }

  addReview(
    fullName: string,
    pullNumber: number,
    review: Omit<FakeReview, "id" | "submitted_at" | "body"> & { body?: string },
  ): FakeReview {
    const repo = this.repo(fullName);
    const list = repo.reviews.get(pullNumber) ?? [];
    const full: FakeReview = { id: this.nextId(), submitted_at: now(), body: "", ...review };
    list.push(full);
    repo.reviews.set(pullNumber, list);
    return full;
  }

  addWorkflowRun(fullName: string, run: Partial<FakeWorkflowRun> & { head_sha: string }): FakeWorkflowRun {
    const repo = this.repo(fullName);
    const full: FakeWorkflowRun = {
      id: this.nextId(),
      workflow_id: "envelope-gate.yml",
      name: "envelope-gate",
      head_branch: "main",
      event: "workflow_dispatch",
      status: "completed",
      conclusion: "success",
      run_attempt: 1,
      created_at: now(),
      inputs: null,
      ...run,
    };
    repo.workflowRuns.push(full);
    return full;
  }

  addArtifact(
    fullName: string,
    artifact: Omit<FakeArtifact, "id" | "expired" | "created_at"> & { expired?: boolean; created_at?: string },
  ): FakeArtifact {
    const repo = this.repo(fullName);
    const full: FakeArtifact = { id: this.nextId(), expired: false, created_at: now(), ...artifact };
    repo.artifacts.push(full);
    return full;
  }

  checkRun(fullName: string, name: string): FakeCheckRun | undefined {
    return this.repo(fullName)
      .checkRuns.filter((c) => c.name === name)
      .at(-1);
  }

  // ---- server --------------------------------------------------------------------------

  /** Returns and forgets the mismatches recorded so far. */
  takeMismatches(): Mismatch[] {
    const taken = this.mismatches.splice(0);
    this.reported = 0;
    return taken;
  }

  async start(port = 0): Promise<this> {
    liveFakes.add(this);
    registerBuiltInRoutes(this);
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      this.server?.once("error", reject);
      this.server?.listen(port, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const url = new URL(req.url ?? "/", this.url);
    const method = (req.method ?? "GET").toUpperCase();
    let body: unknown = null;
    const hasBody = rawBody.length > 0;
    if (rawBody.length > 0 && String(req.headers["content-type"] ?? "").includes("json")) {
      try {
        body = JSON.parse(rawBody.toString("utf8"));
      } catch {
        return this.send(res, method, url, body, hasBody, { status: 400, body: { message: "Problems parsing JSON" } });
      }
    }
    if (this.latency !== null) {
      const write = method !== "GET" && method !== "HEAD";
      await new Promise((r) => setTimeout(r, (this.latency?.perCallMs ?? 0) + (write ? (this.latency?.perWriteMs ?? 0) : 0)));
    }
    let response: FakeResponse;
    try {
      response = await this.dispatch(method, url, req, body, rawBody);
    } catch (err) {
      response =
        err instanceof HttpError
          ? { status: err.status, body: { message: err.message, ...err.extra } }
          : { status: 500, body: { message: `fake: ${(err as Error).stack ?? String(err)}` } };
    }
    this.send(res, method, url, body, hasBody, response, req.headers["if-none-match"]);
  }

  private send(
    res: ServerResponse,
    method: string,
    url: URL,
    reqBody: unknown,
    hasBody: boolean,
    response: FakeResponse,
    ifNoneMatch?: string | string[],
  ): void {
    // GitHub's conditional requests: a JSON answer carries its ETag; asked again with it, the
    // answer is 304 with no body, and a 304 spends none of the rate limit.
    const etag =
      method === "GET" && response.status === 200 && !(response.body instanceof Uint8Array) && response.body !== undefined
        ? `W/"${createHash("sha1").update(JSON.stringify(response.body)).digest("hex")}"`
        : null;
    const notModified = etag !== null && typeof ifNoneMatch === "string" && ifNoneMatch.split(/\s*,\s*/).includes(etag);
    if (notModified) response = { status: 304, body: undefined, headers: { ...response.headers, etag } };
    else if (etag !== null) response = { ...response, headers: { ...response.headers, etag } };
    this.requests.push({ method, path: url.pathname, query: url.search, body: reqBody, status: response.status });
    if (!notModified) this.spent++;
    // GitHub's error bodies always point at its documentation.
    const body = response.body;
    if (
      response.status >= 400 &&
      body !== null &&
      typeof body === "object" &&
      !(body instanceof Uint8Array) &&
      "message" in body &&
      !("documentation_url" in body)
    ) {
      response = { ...response, body: { ...body, documentation_url: "https://docs.github.com/rest" } };
    }
    if (!notModified) this.check(method, url, reqBody, hasBody, response);
    const used = Math.min(RATE_LIMIT_PER_HOUR, this.spent);
    const set = this.budget;
    if (set !== null && !notModified) set.remaining = Math.max(0, set.remaining - 1);
    const headers: Record<string, string> = {
      "x-github-request-id": `FAKE:${this.requests.length}`,
      // GitHub's rate limit headers, on every answer; a rate-limited answer overrides them.
      "x-ratelimit-limit": String(RATE_LIMIT_PER_HOUR),
      "x-ratelimit-remaining": String(RATE_LIMIT_PER_HOUR - used),
      "x-ratelimit-used": String(used),
      "x-ratelimit-reset": String(this.windowReset),
      "x-ratelimit-resource": "core",
      ...(set === null
        ? {}
        : {
            "x-ratelimit-limit": String(set.limit),
            "x-ratelimit-remaining": String(set.remaining),
            "x-ratelimit-used": String(set.limit - set.remaining),
            "x-ratelimit-reset": String(set.resetAt),
          }),
      ...response.headers,
    };
    let payload: Buffer;
    if (response.body instanceof Uint8Array) {
      payload = Buffer.from(response.body);
      headers["content-type"] ??= "application/octet-stream";
    } else if (response.body === undefined) {
      payload = Buffer.alloc(0);
    } else {
      payload = Buffer.from(JSON.stringify(response.body));
      headers["content-type"] ??= "application/json; charset=utf-8";
    }
    headers["content-length"] = String(payload.length);
    res.writeHead(response.status, headers);
    res.end(payload);
  }

  private check(method: string, url: URL, reqBody: unknown, hasBody: boolean, response: FakeResponse): void {
    if (FAKE_ONLY_PATH.test(url.pathname)) return;
    const contentType = response.headers?.["content-type"];
    const problems = checkExchange({
      method,
      path: url.pathname,
      query: url.searchParams,
      requestBody: reqBody,
      hasRequestBody: hasBody,
      status: response.status,
      responseBody: response.body,
      responseIsJson:
        response.body !== undefined &&
        !(response.body instanceof Uint8Array) &&
        (contentType === undefined || contentType.includes("json")),
    });
    if (problems.length > 0) this.mismatches.push({ request: `${method} ${url.pathname}${url.search} -> ${response.status}`, problems });
  }

  private async dispatch(method: string, url: URL, req: IncomingMessage, body: unknown, rawBody: Buffer): Promise<FakeResponse> {
    const path = url.pathname;
    for (const failure of this.failures) {
      if (
        failure.remaining > 0 &&
        (failure.method === null || failure.method === method) &&
        failure.match(path) !== null &&
        !FAKE_ONLY_PATH.test(path)
      ) {
        failure.remaining--;
        const answer: FakeResponse = {
          status: failure.status,
          body: failure.body,
          ...(failure.headers ? { headers: failure.headers() } : {}),
        };
        if (!failure.afterHandling) return answer;
        await this.handleRoute(method, url, req, body, rawBody).catch(() => undefined);
        return answer;
      }
    }
    return this.handleRoute(method, url, req, body, rawBody);
  }

  private async handleRoute(method: string, url: URL, req: IncomingMessage, body: unknown, rawBody: Buffer): Promise<FakeResponse> {
    const path = url.pathname;
    if (this.state.requiredToken !== null) {
      const auth = String(req.headers.authorization ?? "");
      if (!auth.endsWith(` ${this.state.requiredToken}`)) return { status: 401, body: { message: "Bad credentials" } };
    }
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const params = route.match(path);
      if (params === null) continue;
      const request: FakeRequest = {
        method,
        path,
        query: url.searchParams,
        params,
        headers: req.headers,
        body,
        rawBody,
        state: this.state,
        baseUrl: this.url,
        repo: () => {
          const repo = this.state.repos.get(`${params.owner}/${params.repo}`.toLowerCase());
          if (!repo) throw new HttpError(404, "Not Found");
          return repo;
        },
      };
      return route.handler(request);
    }
    return { status: 404, body: { message: `Not Found (fake has no route for ${method} ${path})` } };
  }
}

/** Serves one page of `items` with GitHub's Link header. */
export function paginate(req: FakeRequest, items: unknown[], wrap?: (page: unknown[]) => unknown): FakeResponse {
  const perPage = Math.min(100, Math.max(1, Number(req.query.get("per_page") ?? 30)));
  const page = Math.max(1, Number(req.query.get("page") ?? 1));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const headers: Record<string, string> = {};
  const link = (p: number, rel: string): string => {
    const u = new URL(req.path, req.baseUrl);
    for (const [k, v] of req.query) u.searchParams.set(k, v);
    u.searchParams.set("page", String(p));
    u.searchParams.set("per_page", String(perPage));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  if (page < last) headers.link = [link(page + 1, "next"), link(last, "last")].join(", ");
  return { status: 200, body: wrap ? wrap(slice) : slice, headers };
}

/** `pull-request`, every field GitHub's description requires. */
export function pullJson(repo: FakeRepo, pull: FakePull, baseUrl: string, simple = false): Record<string, unknown> {
  const full = `${repo.owner}/${repo.name}`;
  const api = `${baseUrl}/repos/${full}`;
  const html = `${baseUrl}/${full}/pull/${pull.number}`;
  const [headOwner, headName] = pull.head.repo_full_name.split("/") as [string, string];
  const fork = pull.head.repo_full_name.toLowerCase() !== full.toLowerCase();
  const headRepo = fork
    ? { owner: headOwner, name: headName, id: idOf(pull.head.repo_full_name), default_branch: "main", private: repo.private, fork: true }
    : repo;
  const closed = pull.state === "closed" ? FAKE_CREATED_AT : null;
  const link = (href: string) => ({ href });
  return {
    url: `${api}/pulls/${pull.number}`,
    id: pull.number + 900000,
    node_id: `PR_${pull.number + 900000}`,
    html_url: html,
    diff_url: `${html}.diff`,
    patch_url: `${html}.patch`,
    issue_url: `${api}/issues/${pull.number}`,
    commits_url: `${api}/pulls/${pull.number}/commits`,
    review_comments_url: `${api}/pulls/${pull.number}/comments`,
    review_comment_url: `${api}/pulls/comments{/number}`,
    comments_url: `${api}/issues/${pull.number}/comments`,
    statuses_url: `${api}/statuses/${pull.head.sha}`,
    number: pull.number,
    state: pull.state,
    locked: false,
    title: pull.title,
    user: userJson(pull.user, baseUrl),
    body: pull.body,
    labels: pull.labels.map((name, i) => labelJson(repo, name, i, baseUrl)),
    milestone: null,
    active_lock_reason: null,
    created_at: FAKE_CREATED_AT,
    updated_at: FAKE_CREATED_AT,
    closed_at: closed,
    merged_at: null,
    merge_commit_sha: null,
    assignee: null,
    assignees: [],
    requested_reviewers: pull.requested_reviewers.map((login) => userJson({ login }, baseUrl)),
    requested_teams: pull.requested_teams.map((slug) => teamJson(repo.owner, slug, baseUrl)),
    head: {
      label: `${headOwner}:${pull.head.ref}`,
      ref: pull.head.ref,
      sha: pull.head.sha,
      user: userJson({ login: headOwner, type: "Organization" }, baseUrl),
      repo: repoJson(headRepo, baseUrl),
    },
    base: {
      label: `${repo.owner}:${pull.base.ref}`,
      ref: pull.base.ref,
      sha: pull.base.sha,
      user: userJson({ login: repo.owner, type: "Organization" }, baseUrl),
      repo: repoJson(repo, baseUrl),
    },
    _links: {
      self: link(`${api}/pulls/${pull.number}`),
      html: link(html),
      issue: link(`${api}/issues/${pull.number}`),
      comments: link(`${api}/issues/${pull.number}/comments`),
      review_comments: link(`${api}/pulls/${pull.number}/comments`),
      review_comment: link(`${api}/pulls/comments{/number}`),
      commits: link(`${api}/pulls/${pull.number}/commits`),
      statuses: link(`${api}/statuses/${pull.head.sha}`),
    },
    author_association: "CONTRIBUTOR",
    auto_merge: null,
    draft: pull.draft,
    // `pull-request-simple` (lists, review requests) stops here.
    ...(simple ? {} : pullDetails(pull)),
  };
}

function pullDetails(pull: FakePull): Record<string, unknown> {
  const additions = pull.files.reduce((n, f) => n + (f.additions ?? 0), 0);
  const deletions = pull.files.reduce((n, f) => n + (f.deletions ?? 0), 0);
  return {
    merged: false,
    mergeable: null,
    rebaseable: null,
    mergeable_state: "unknown",
    merged_by: null,
    comments: 0,
    review_comments: 0,
    maintainer_can_modify: false,
    commits: 1,
    additions,
    deletions,
    // The true count, past the 3000 files the files listing stops at.
    changed_files: pull.files.length,
  };
}

function checkRunJson(repo: FakeRepo, run: FakeCheckRun, baseUrl: string): Record<string, unknown> {
  const url = `${baseUrl}/repos/${repo.owner}/${repo.name}/check-runs/${run.id}`;
  return {
    id: run.id,
    node_id: `CR_${run.id}`,
    name: run.name,
    head_sha: run.head_sha,
    url,
    status: run.status,
    conclusion: run.conclusion,
    external_id: run.external_id,
    details_url: run.details_url,
    started_at: run.started_at,
    completed_at: run.completed_at,
    html_url: `${baseUrl}/${repo.owner}/${repo.name}/runs/${run.id}`,
    output: { ...run.output, annotations_url: `${url}/annotations` },
    check_suite: { id: idOf(`${repo.id}:${run.head_sha}`) },
    app: appJson(run.app ?? FAKE_APP, baseUrl),
    pull_requests: [],
  };
}

function applyCheckRunBody(run: FakeCheckRun, body: Record<string, unknown>): void {
  run.updates.push(body);
  for (const key of ["name", "status", "conclusion", "external_id", "details_url", "started_at", "completed_at"] as const) {
    if (key in body) (run as unknown as Record<string, unknown>)[key] = body[key];
  }
  if (body.conclusion !== undefined && body.conclusion !== null) {
    run.status = "completed";
    run.completed_at ??= now();
  }
  const output = body.output as Record<string, unknown> | undefined;
  if (output) {
    if (typeof output.title !== "string" || typeof output.summary !== "string") {
      throw new HttpError(422, "output needs title and summary");
    }
    if (output.summary.length > 65535) throw new HttpError(422, "output.summary is too long (maximum is 65535 characters)");
    if (typeof output.text === "string" && output.text.length > 65535)
      throw new HttpError(422, "output.text is too long (maximum is 65535 characters)");
    run.output.title = output.title;
    run.output.summary = output.summary;
    if (typeof output.text === "string") run.output.text = output.text;
    const annotations = (output.annotations ?? []) as FakeAnnotation[];
    if (annotations.length > 50) throw new HttpError(422, "Only 50 annotations are allowed per request");
    for (const a of annotations) {
      if (typeof a.path !== "string" || !Number.isInteger(a.start_line) || !Number.isInteger(a.end_line) || typeof a.message !== "string") {
        throw new HttpError(422, "Invalid annotation");
      }
      if (!["notice", "warning", "failure"].includes(a.annotation_level)) throw new HttpError(422, "Invalid annotation_level");
    }
    run.annotations.push(...annotations);
    run.output.annotations_count = run.annotations.length;
  }
}

/** GitHub's limits, as documented for the contents and pull request files APIs. */
export const CONTENTS_INLINE_BYTES = 1024 * 1024;
export const CONTENTS_MAX_BYTES = 100 * 1024 * 1024;
export const PULL_FILES_LIMIT = 3000;

const CONCLUSIONS = new Set(["action_required", "cancelled", "failure", "neutral", "success", "skipped", "stale", "timed_out"]);

function registerBuiltInRoutes(fake: FakeGitHub): void {
  const route = fake.route.bind(fake);
  const P = "/repos/:owner/:repo";

  route("GET", P, (req) => {
    const repo = req.repo();
    return { status: 200, body: repoJson(repo, req.baseUrl, true) };
  });

  // Contents: files at a ref, base64 as GitHub answers for files up to 1 MB.
  route("GET", `${P}/contents/*path`, (req) => {
    const repo = req.repo();
    const ref = req.query.get("ref") ?? repo.default_branch;
    const files = fake.filesAt(repo, ref);
    const path = req.params.path as string;
    const bytes = files.get(path);
    if (bytes === undefined) {
      const prefix = `${path}/`;
      const children = [...files.keys()].filter((p) => p.startsWith(prefix));
      if (children.length === 0) throw new HttpError(404, "Not Found");
      const names = [...new Set(children.map((p) => p.slice(prefix.length).split("/")[0] as string))];
      return {
        status: 200,
        body: names.map((name) => {
          const child = files.get(prefix + name);
          const entry =
            child === undefined
              ? { type: "dir" as const, path: prefix + name, sha: gitSha("tree", prefix + name), size: 0, ref }
              : { type: "file" as const, path: prefix + name, sha: gitSha("blob", child), size: child.length, ref };
          return contentJson(repo, entry, req.baseUrl);
        }),
      };
    }
    // GitHub's limits: over 100 MB the contents API refuses; over 1 MB the object form comes
    // without content (encoding "none"), and only the raw media type or the blobs API has the bytes.
    if (bytes.length > CONTENTS_MAX_BYTES) {
      throw new HttpError(
        403,
        "This API returns blobs up to 100 MB in size. The requested blob is too large to fetch via the API, but you can use the Git Data API to request blobs up to 100 MB in size.",
        { errors: [{ resource: "Blob", field: "data", code: "too_large" }] },
      );
    }
    const accept = String(req.headers.accept ?? "");
    if (accept.includes("application/vnd.github.raw"))
      return { status: 200, body: bytes, headers: { "content-type": "application/vnd.github.raw" } };
    const inline = bytes.length <= CONTENTS_INLINE_BYTES;
    return {
      status: 200,
      body: {
        ...contentJson(repo, { type: "file", path, sha: gitSha("blob", bytes), size: bytes.length, ref }, req.baseUrl),
        encoding: inline ? "base64" : "none",
        content: inline
          ? Buffer.from(bytes)
              .toString("base64")
              .replace(/(.{60})/g, "$1\n")
          : "",
      },
    };
  });

  route("PUT", `${P}/contents/*path`, (req) => {
    const repo = req.repo();
    const body = req.body as { message: string; content: string; branch?: string; sha?: string };
    const branch = body.branch ?? repo.default_branch;
    const parent = repo.refs.get(`heads/${branch}`);
    if (!parent) throw new HttpError(404, `Branch ${branch} not found`);
    const path = req.params.path as string;
    const existing = fake.filesAt(repo, parent).get(path);
    if (existing !== undefined && body.sha !== gitSha("blob", existing))
      throw new HttpError(409, `${path} does not match ${body.sha ?? "(none)"}`);
    if (existing === undefined && body.sha !== undefined) throw new HttpError(422, `sha given for a new file`);
    const sha = fake.commit(
      `${repo.owner}/${repo.name}`,
      { [path]: Buffer.from(body.content, "base64") },
      { parent, branch, message: body.message },
    );
    const bytes = fake.filesAt(repo, sha).get(path) as Bytes;
    return {
      status: existing === undefined ? 201 : 200,
      body: {
        content: contentJson(repo, { type: "file", path, sha: gitSha("blob", bytes), size: bytes.length, ref: branch }, req.baseUrl),
        commit: gitCommitJson(repo, repo.commits.get(sha) as FakeCommit, req.baseUrl),
      },
    };
  });

  // Pulls.
  route("GET", `${P}/pulls/:pull_number`, (req) => {
    const repo = req.repo();
    const pull = repo.pulls.get(Number(req.params.pull_number));
    if (!pull) throw new HttpError(404, "Not Found");
    return { status: 200, body: pullJson(repo, pull, req.baseUrl) };
  });

  route("GET", `${P}/pulls`, (req) => {
    const repo = req.repo();
    const state = req.query.get("state") ?? "open";
    const head = req.query.get("head");
    const pulls = [...repo.pulls.values()]
      .filter((p) => state === "all" || p.state === state)
      .filter((p) => head === null || `${p.head.repo_full_name.split("/")[0]}:${p.head.ref}` === head)
      .map((p) => pullJson(repo, p, req.baseUrl, true));
    return paginate(req, pulls);
  });

  route("POST", `${P}/pulls`, (req) => {
    const repo = req.repo();
    const body = req.body as { title: string; head: string; base: string; body?: string; draft?: boolean };
    const headRef = body.head.includes(":") ? (body.head.split(":")[1] as string) : body.head;
    const headSha = repo.refs.get(`heads/${headRef}`);
    const baseSha = repo.refs.get(`heads/${body.base}`);
    if (!headSha || !baseSha) throw new HttpError(422, "Validation Failed: head or base does not exist");
    for (const p of repo.pulls.values()) {
      if (p.state === "open" && p.head.ref === headRef && p.base.ref === body.base) {
        throw new HttpError(422, `A pull request already exists for ${repo.owner}:${headRef}.`);
      }
    }
    const number = Math.max(0, ...repo.pulls.keys(), ...[...repo.reviews.keys()]) + 1;
    const baseFiles = fake.filesAt(repo, baseSha);
    const headFiles = fake.filesAt(repo, headSha);
    const files: FakePullFile[] = [];
    for (const [path, bytes] of headFiles) {
      const before = baseFiles.get(path);
      if (before === undefined) files.push({ filename: path, status: "added" });
      else if (Buffer.compare(Buffer.from(before), Buffer.from(bytes)) !== 0) files.push({ filename: path, status: "modified" });
    }
    for (const path of baseFiles.keys()) if (!headFiles.has(path)) files.push({ filename: path, status: "removed" });
    const pull = fake.addPull(`${repo.owner}/${repo.name}`, {
      number,
      title: body.title,
      body: body.body ?? null,
      draft: body.draft ?? false,
      user: { login: String(req.headers["x-fake-login"] ?? "envelope-gate[bot]") },
      base: { ref: body.base, sha: baseSha },
      head: { ref: headRef, sha: headSha },
      files,
    });
    return { status: 201, body: pullJson(repo, pull, req.baseUrl) };
  });

  route("GET", `${P}/pulls/:pull_number/files`, (req) => {
    const repo = req.repo();
    const pull = repo.pulls.get(Number(req.params.pull_number));
    if (!pull) throw new HttpError(404, "Not Found");
    // GitHub lists at most 3000 files of a pull request; `changed_files` has the true count.
    const files = pull.files.slice(0, PULL_FILES_LIMIT).map((f) => ({
      sha: gitSha("blob", f.patch ?? f.filename),
      filename: f.filename,
      // GitHub percent-encodes the file's name in these addresses (a name may hold spaces, `#`, `<`).
      blob_url: `${req.baseUrl}/${repo.owner}/${repo.name}/blob/${pull.head.sha}/${encodePath(f.filename)}`,
      raw_url: `${req.baseUrl}/${repo.owner}/${repo.name}/raw/${pull.head.sha}/${encodePath(f.filename)}`,
      contents_url: `${req.baseUrl}/repos/${repo.owner}/${repo.name}/contents/${encodePath(f.filename)}?ref=${pull.head.sha}`,
      status: f.status,
      additions: f.additions ?? 0,
      deletions: f.deletions ?? 0,
      changes: (f.additions ?? 0) + (f.deletions ?? 0),
      ...(f.previous_filename !== undefined ? { previous_filename: f.previous_filename } : {}),
      ...(f.patch !== undefined ? { patch: f.patch } : {}),
    }));
    return paginate(req, files);
  });

  route("GET", `${P}/pulls/:pull_number/reviews`, (req) => {
    const repo = req.repo();
    const number = Number(req.params.pull_number);
    if (!repo.pulls.has(number)) throw new HttpError(404, "Not Found");
    const html = `${req.baseUrl}/${repo.owner}/${repo.name}/pull/${number}`;
    const pullUrl = `${req.baseUrl}/repos/${repo.owner}/${repo.name}/pulls/${number}`;
    const reviews = (repo.reviews.get(number) ?? []).map((r) => ({
      id: r.id,
      node_id: `PRR_${r.id}`,
      user: userJson(r.user, req.baseUrl),
      body: r.body,
      state: r.state,
      html_url: `${html}#pullrequestreview-${r.id}`,
      pull_request_url: pullUrl,
      _links: { html: { href: `${html}#pullrequestreview-${r.id}` }, pull_request: { href: pullUrl } },
      ...(r.state === "PENDING" ? {} : { submitted_at: r.submitted_at }),
      commit_id: r.commit_id,
      author_association: repo.collaborators.has(r.user.login) ? "COLLABORATOR" : "NONE",
    }));
    return paginate(req, reviews);
  });

  route("POST", `${P}/pulls/:pull_number/requested_reviewers`, (req) => {
    const repo = req.repo();
    const pull = repo.pulls.get(Number(req.params.pull_number));
    if (!pull) throw new HttpError(404, "Not Found");
    const body = (req.body ?? {}) as { reviewers?: string[]; team_reviewers?: string[] };
    for (const r of body.reviewers ?? []) {
      if (!repo.collaborators.has(r))
        throw new HttpError(422, `Reviews may only be requested from collaborators. ${r} is not a collaborator.`);
      if (!pull.requested_reviewers.includes(r)) pull.requested_reviewers.push(r);
    }
    for (const t of body.team_reviewers ?? []) if (!pull.requested_teams.includes(t)) pull.requested_teams.push(t);
    return { status: 201, body: pullJson(repo, pull, req.baseUrl, true) };
  });

  route("POST", `${P}/issues/:issue_number/comments`, (req) => {
    const repo = req.repo();
    const body = req.body as { body: string };
    const comment = { id: fake.nextId(), issue_number: Number(req.params.issue_number), body: body.body };
    repo.issueComments.push(comment);
    const api = `${req.baseUrl}/repos/${repo.owner}/${repo.name}`;
    const html = `${req.baseUrl}/${repo.owner}/${repo.name}/issues/${comment.issue_number}#issuecomment-${comment.id}`;
    return {
      status: 201,
      body: {
        id: comment.id,
        node_id: `IC_${comment.id}`,
        url: `${api}/issues/comments/${comment.id}`,
        html_url: html,
        issue_url: `${api}/issues/${comment.issue_number}`,
        body: comment.body,
        user: userJson({ login: String(req.headers["x-fake-login"] ?? "envelope-gate[bot]") }, req.baseUrl),
        created_at: now(),
        updated_at: now(),
        author_association: "NONE",
      },
    };
  });

  route("GET", `${P}/collaborators/:username/permission`, (req) => {
    const repo = req.repo();
    const login = req.params.username as string;
    const permission = repo.collaborators.get(login);
    if (permission === undefined) throw new HttpError(404, `${login} is not a user`);
    // `permission` is the legacy base permission; a custom role answers with its base role's.
    const base = repo.customRoles.get(permission) ?? permission;
    const legacy = base === "maintain" ? "write" : base === "triage" ? "read" : base;
    return {
      status: 200,
      body: { permission: legacy, role_name: permission, user: { ...userJson({ login }, req.baseUrl), role_name: permission } },
    };
  });

  // Check runs.
  route("POST", `${P}/check-runs`, (req) => {
    const repo = req.repo();
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (typeof body.name !== "string" || typeof body.head_sha !== "string") throw new HttpError(422, "name and head_sha are required");
    if (body.conclusion !== undefined && !CONCLUSIONS.has(String(body.conclusion))) throw new HttpError(422, "Invalid conclusion");
    const run: FakeCheckRun = {
      id: fake.nextId(),
      name: body.name,
      head_sha: body.head_sha,
      status: "queued",
      conclusion: null,
      external_id: null,
      details_url: null,
      started_at: now(),
      completed_at: null,
      output: { title: null, summary: null, text: null, annotations_count: 0 },
      annotations: [],
      updates: [],
      app: /^token ghs_installation_/i.test(String(req.headers.authorization ?? "")) ? FAKE_APP : GITHUB_ACTIONS_APP,
    };
    applyCheckRunBody(run, body);
    repo.checkRuns.push(run);
    return { status: 201, body: checkRunJson(repo, run, req.baseUrl) };
  });

  route("PATCH", `${P}/check-runs/:check_run_id`, (req) => {
    const repo = req.repo();
    const run = repo.checkRuns.find((c) => c.id === Number(req.params.check_run_id));
    if (!run) throw new HttpError(404, "Not Found");
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (body.conclusion !== undefined && !CONCLUSIONS.has(String(body.conclusion))) throw new HttpError(422, "Invalid conclusion");
    applyCheckRunBody(run, body);
    return { status: 200, body: checkRunJson(repo, run, req.baseUrl) };
  });

  route("GET", `${P}/check-runs/:check_run_id`, (req) => {
    const repo = req.repo();
    const run = repo.checkRuns.find((c) => c.id === Number(req.params.check_run_id));
    if (!run) throw new HttpError(404, "Not Found");
    return { status: 200, body: checkRunJson(repo, run, req.baseUrl) };
  });

  route("GET", `${P}/check-runs/:check_run_id/annotations`, (req) => {
    const repo = req.repo();
    const run = repo.checkRuns.find((c) => c.id === Number(req.params.check_run_id));
    if (!run) throw new HttpError(404, "Not Found");
    const blob = (path: string) => `${req.baseUrl}/${repo.owner}/${repo.name}/blob/${run.head_sha}/${path}`;
    return paginate(
      req,
      run.annotations.map((a) => ({
        path: a.path,
        blob_href: blob(a.path),
        start_line: a.start_line,
        end_line: a.end_line,
        start_column: null,
        end_column: null,
        annotation_level: a.annotation_level,
        title: a.title ?? null,
        message: a.message,
        raw_details: a.raw_details ?? null,
      })),
    );
  });

  route("GET", `${P}/commits/:ref/check-runs`, (req) => {
    const repo = req.repo();
    const sha = fake.resolveRef(repo, req.params.ref as string) ?? req.params.ref;
    const name = req.query.get("check_name");
    const appId = req.query.get("app_id");
    const runs = repo.checkRuns
      .filter(
        (c) => c.head_sha === sha && (name === null || c.name === name) && (appId === null || String((c.app ?? FAKE_APP).id) === appId),
      )
      .map((c) => checkRunJson(repo, c, req.baseUrl));
    return paginate(req, runs, (page) => ({ total_count: runs.length, check_runs: page }));
  });

  // The pull requests associated with a commit: those whose head is it or contains it (open or
  // closed); for a commit already on the default branch GitHub lists only the merged one, which the
  // fake does not model.
  route("GET", `${P}/commits/:commit_sha/pulls`, (req) => {
    const repo = req.repo();
    const sha = req.params.commit_sha as string;
    if (!repo.commits.has(sha)) throw new HttpError(422, `No commit found for SHA: ${sha}`);
    const pulls = [...repo.pulls.values()]
      .filter((p) => p.head.sha === sha || isAncestor(repo, sha, p.head.sha))
      .sort((a, b) => b.number - a.number)
      .map((p) => pullJson(repo, p, req.baseUrl, true));
    return paginate(req, pulls);
  });

  // Git database.
  route("GET", `${P}/git/ref/*ref`, (req) => {
    const repo = req.repo();
    const ref = req.params.ref as string;
    const sha = repo.refs.get(ref);
    if (!sha) throw new HttpError(404, "Not Found");
    return { status: 200, body: gitRefJson(repo, ref, sha, req.baseUrl) };
  });

  route("POST", `${P}/git/refs`, (req) => {
    const repo = req.repo();
    const body = req.body as { ref: string; sha: string };
    if (!body.ref.startsWith("refs/")) throw new HttpError(422, "Reference name must start with refs/");
    const name = body.ref.slice(5);
    if (repo.refs.has(name)) throw new HttpError(422, "Reference already exists");
    if (!repo.commits.has(body.sha)) throw new HttpError(422, "Object does not exist");
    repo.refs.set(name, body.sha);
    return { status: 201, body: gitRefJson(repo, name, body.sha, req.baseUrl) };
  });

  route("PATCH", `${P}/git/refs/*ref`, (req) => {
    const repo = req.repo();
    const name = req.params.ref as string;
    const body = req.body as { sha: string; force?: boolean };
    const current = repo.refs.get(name);
    if (!current) throw new HttpError(422, "Reference does not exist");
    if (!repo.commits.has(body.sha)) throw new HttpError(422, "Object does not exist");
    if (!body.force && !isAncestor(repo, current, body.sha)) throw new HttpError(422, "Update is not a fast forward");
    repo.refs.set(name, body.sha);
    return { status: 200, body: gitRefJson(repo, name, body.sha, req.baseUrl) };
  });

  route("DELETE", `${P}/git/refs/*ref`, (req) => {
    const repo = req.repo();
    if (!repo.refs.delete(req.params.ref as string)) throw new HttpError(422, "Reference does not exist");
    return { status: 204 };
  });

  route("POST", `${P}/git/blobs`, (req) => {
    const repo = req.repo();
    const body = req.body as { content: string; encoding?: string };
    const bytes = toBytes(body.encoding === "base64" ? new Uint8Array(Buffer.from(body.content, "base64")) : body.content);
    const sha = gitSha("blob", bytes);
    repo.blobs.set(sha, bytes);
    return { status: 201, body: { sha, url: `${req.baseUrl}${req.path}/${sha}` } };
  });

  route("GET", `${P}/git/blobs/:sha`, (req) => {
    const repo = req.repo();
    const bytes = repo.blobs.get(req.params.sha as string);
    if (!bytes) throw new HttpError(404, "Not Found");
    const sha = req.params.sha as string;
    return {
      status: 200,
      body: {
        sha,
        node_id: `B_${sha}`,
        url: `${req.baseUrl}${req.path}`,
        size: bytes.length,
        encoding: "base64",
        content: Buffer.from(bytes).toString("base64"),
      },
    };
  });

  route("POST", `${P}/git/trees`, (req) => {
    const repo = req.repo();
    const body = req.body as {
      base_tree?: string;
      tree: { path: string; mode: string; type: string; sha?: string | null; content?: string }[];
    };
    const files = new Map<string, Bytes>();
    if (body.base_tree) {
      const base = repo.trees.get(body.base_tree);
      if (!base) throw new HttpError(422, "base_tree does not exist");
      for (const [p, b] of base.files) files.set(p, b);
    }
    for (const entry of body.tree) {
      if (entry.sha === null) {
        files.delete(entry.path);
      } else if (entry.content !== undefined) {
        files.set(entry.path, toBytes(entry.content));
      } else if (entry.sha !== undefined) {
        const blob = repo.blobs.get(entry.sha);
        if (!blob) throw new HttpError(422, `blob ${entry.sha} does not exist`);
        files.set(entry.path, blob);
      }
    }
    const sha = fake.putTree(repo, files);
    return { status: 201, body: treeJson(repo, repo.trees.get(sha) as FakeTree, req.baseUrl) };
  });

  route("GET", `${P}/git/trees/:sha`, (req) => {
    const repo = req.repo();
    const tree =
      repo.trees.get(req.params.sha as string) ??
      (() => {
        const commitSha = fake.resolveRef(repo, req.params.sha as string);
        const commit = commitSha ? repo.commits.get(commitSha) : undefined;
        return commit ? repo.trees.get(commit.tree) : undefined;
      })();
    if (!tree) throw new HttpError(404, "Not Found");
    return { status: 200, body: treeJson(repo, tree, req.baseUrl) };
  });

  route("POST", `${P}/git/commits`, (req) => {
    const repo = req.repo();
    const body = req.body as { message: string; tree: string; parents?: string[] };
    if (!repo.trees.has(body.tree)) throw new HttpError(422, "Tree does not exist");
    for (const p of body.parents ?? []) if (!repo.commits.has(p)) throw new HttpError(422, `Parent ${p} does not exist`);
    const sha = gitSha("commit", `${body.tree}\n${(body.parents ?? []).join(",")}\n${body.message}\n${fake.nextId()}`);
    repo.commits.set(sha, { sha, tree: body.tree, parents: body.parents ?? [], message: body.message });
    return { status: 201, body: gitCommitJson(repo, repo.commits.get(sha) as FakeCommit, req.baseUrl) };
  });

  // The commits reachable from `sha` (a branch, tag or commit; the default branch when absent), newest first:
  // GitHub orders them as git log does, by date; here by when the fake made them.
  route("GET", `${P}/commits`, (req) => {
    const repo = req.repo();
    const from = fake.resolveRef(repo, req.query.get("sha") ?? repo.default_branch);
    if (from === null) throw new HttpError(404, "No commit found for SHA");
    const order = [...repo.commits.keys()];
    const reachable = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const sha = stack.pop() as string;
      if (reachable.has(sha)) continue;
      reachable.add(sha);
      stack.push(...(repo.commits.get(sha)?.parents ?? []));
    }
    const newestFirst = order.filter((sha) => reachable.has(sha)).reverse();
    return paginate(
      req,
      newestFirst.map((sha) => commitJson(repo, repo.commits.get(sha) as FakeCommit, req.baseUrl)),
    );
  });

  route("GET", `${P}/git/commits/:sha`, (req) => {
    const repo = req.repo();
    const commit = repo.commits.get(req.params.sha as string);
    if (!commit) throw new HttpError(404, "Not Found");
    return { status: 200, body: gitCommitJson(repo, commit, req.baseUrl) };
  });

  // Actions: dispatches, runs, artifacts.
  route("POST", `${P}/actions/workflows/:workflow_id/dispatches`, (req) => {
    const repo = req.repo();
    const body = (req.body ?? {}) as { ref?: string; inputs?: Record<string, string> };
    if (typeof body.ref !== "string") throw new HttpError(422, "ref is required");
    if (fake.resolveRef(repo, body.ref) === null) throw new HttpError(422, `No ref found for: ${body.ref}`);
    repo.dispatches.push({ workflow_id: req.params.workflow_id as string, ref: body.ref, inputs: body.inputs ?? {} });
    return { status: 204 };
  });

  route("GET", `${P}/actions/runs/:run_id`, (req) => {
    const repo = req.repo();
    const run = repo.workflowRuns.find((r) => r.id === Number(req.params.run_id));
    if (!run) throw new HttpError(404, "Not Found");
    return { status: 200, body: workflowRunJson(repo, run, req.baseUrl) };
  });

  route("GET", `${P}/actions/runs`, (req) => {
    const repo = req.repo();
    const event = req.query.get("event");
    const sha = req.query.get("head_sha");
    const runs = repo.workflowRuns
      .filter((r) => (event === null || r.event === event) && (sha === null || r.head_sha === sha))
      .map((r) => workflowRunJson(repo, r, req.baseUrl));
    return paginate(req, runs, (page) => ({ total_count: runs.length, workflow_runs: page }));
  });

  // A workflow's runs, newest first, by its numeric id or its file name, as GitHub lists them.
  route("GET", `${P}/actions/workflows/:workflow_id/runs`, (req) => {
    const repo = req.repo();
    const wanted = req.params.workflow_id as string;
    const ofWorkflow = repo.workflowRuns.filter((r) => r.workflow_id === wanted || String(workflowId(r.workflow_id)) === wanted);
    // The fake knows a workflow by its runs: one with none is not there (GitHub answers 404).
    if (ofWorkflow.length === 0) throw new HttpError(404, "Not Found");
    const q = (name: string): string | null => req.query.get(name);
    const runs = ofWorkflow
      .filter(
        (r) =>
          (q("branch") === null || r.head_branch === q("branch")) &&
          (q("event") === null || r.event === q("event")) &&
          (q("status") === null || r.status === q("status") || r.conclusion === q("status")) &&
          (q("head_sha") === null || r.head_sha === q("head_sha")),
      )
      .sort((a, b) => b.id - a.id)
      .map((r) => workflowRunJson(repo, r, req.baseUrl));
    return paginate(req, runs, (page) => ({ total_count: runs.length, workflow_runs: page }));
  });

  // Code scanning's SARIF upload: gzip+base64 of a SARIF file, for a commit and its ref.
  route("POST", `${P}/code-scanning/sarifs`, (req) => {
    const repo = req.repo();
    const body = (req.body ?? {}) as { commit_sha?: string; ref?: string; sarif?: string; tool_name?: string };
    if (typeof body.commit_sha !== "string" || typeof body.ref !== "string" || typeof body.sarif !== "string")
      throw new HttpError(422, "commit_sha, ref and sarif are required");
    try {
      JSON.parse(gunzipSync(Buffer.from(body.sarif, "base64")).toString("utf8"));
    } catch {
      return { status: 400 };
    }
    const id = randomUUID();
    repo.sarifUploads.push({ id, commit_sha: body.commit_sha, ref: body.ref, sarif: body.sarif, tool_name: body.tool_name ?? null });
    return { status: 202, body: { id, url: `${req.baseUrl}/repos/${repo.owner}/${repo.name}/code-scanning/sarifs/${id}` } };
  });

  route("GET", `${P}/actions/runs/:run_id/artifacts`, (req) => {
    const repo = req.repo();
    const runId = Number(req.params.run_id);
    const name = req.query.get("name");
    const artifacts = repo.artifacts
      .filter((a) => a.run_id === runId && (name === null || a.name === name))
      .map((a) => artifactJson(repo, a, req.baseUrl));
    return paginate(req, artifacts, (page) => ({ total_count: artifacts.length, artifacts: page }));
  });

  route("GET", `${P}/actions/artifacts/:artifact_id/zip`, (req) => {
    const repo = req.repo();
    const artifact = repo.artifacts.find((a) => a.id === Number(req.params.artifact_id));
    if (!artifact) throw new HttpError(404, "Not Found");
    if (artifact.expired) throw new HttpError(410, "Artifact has expired");
    // GitHub redirects to blob storage; so does the fake.
    return { status: 302, headers: { location: `${req.baseUrl}/_fake_blob/${repo.owner}/${repo.name}/${artifact.id}.zip` } };
  });

  route("GET", "/_fake_blob/:owner/:repo/:file", (req) => {
    const repo = req.repo();
    const id = Number(String(req.params.file).replace(/\.zip$/, ""));
    const artifact = repo.artifacts.find((a) => a.id === id);
    if (!artifact) throw new HttpError(404, "Not Found");
    return { status: 200, body: zipSync(artifact.files), headers: { "content-type": "application/zip" } };
  });
}

function isAncestor(repo: FakeRepo, ancestor: string, sha: string): boolean {
  const seen = new Set<string>();
  const queue = [sha];
  while (queue.length > 0 && seen.size < 100000) {
    const next = queue.shift() as string;
    if (next === ancestor) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    queue.push(...(repo.commits.get(next)?.parents ?? []));
  }
  return false;
}

/** `git-tree`. */
function treeJson(repo: FakeRepo, tree: FakeTree, baseUrl: string): Record<string, unknown> {
  const api = `${baseUrl}/repos/${repo.owner}/${repo.name}/git`;
  return {
    sha: tree.sha,
    url: `${api}/trees/${tree.sha}`,
    truncated: false,
    tree: [...tree.files.entries()].map(([path, bytes]) => {
      const sha = gitSha("blob", bytes);
      return { path, mode: "100644", type: "blob", sha, size: bytes.length, url: `${api}/blobs/${sha}` };
    }),
  };
}

/** The workflow's numeric id, as GitHub reports it (the fake keys workflows by file name). */
export function workflowId(file: string): number {
  return idOf(`workflow:${file}`);
}

/** `workflow-run`. */
export function workflowRunJson(repo: FakeRepo, run: FakeWorkflowRun, baseUrl: string): Record<string, unknown> {
  const api = `${baseUrl}/repos/${repo.owner}/${repo.name}`;
  const url = `${api}/actions/runs/${run.id}`;
  const suite = idOf(`${repo.id}:${run.head_sha}:${run.id}`);
  return {
    id: run.id,
    name: run.name,
    node_id: `WFR_${run.id}`,
    check_suite_id: suite,
    check_suite_node_id: `CS_${suite}`,
    head_branch: run.head_branch,
    head_sha: run.head_sha,
    path: `.github/workflows/${run.workflow_id}`,
    run_number: run.id,
    run_attempt: run.run_attempt,
    event: run.event,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: workflowId(run.workflow_id),
    url,
    html_url: `${baseUrl}/${repo.owner}/${repo.name}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.created_at,
    updated_at: run.updated_at ?? run.created_at,
    run_started_at: run.run_started_at ?? run.created_at,
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${api}/check-suites/${suite}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: null,
    workflow_url: `${api}/actions/workflows/${workflowId(run.workflow_id)}`,
    head_commit: null,
    repository: repoJson(repo, baseUrl),
    head_repository: repoJson(repo, baseUrl),
    display_title: run.name,
  };
}

/** `artifact`. */
function artifactJson(repo: FakeRepo, artifact: FakeArtifact, baseUrl: string): Record<string, unknown> {
  const url = `${baseUrl}/repos/${repo.owner}/${repo.name}/actions/artifacts/${artifact.id}`;
  const run = repo.workflowRuns.find((r) => r.id === artifact.run_id);
  return {
    id: artifact.id,
    node_id: `MDg_${artifact.id}`,
    name: artifact.name,
    size_in_bytes: Object.values(artifact.files).reduce((n, b) => n + b.length, 0),
    url,
    archive_download_url: `${url}/zip`,
    expired: artifact.expired,
    created_at: artifact.created_at,
    expires_at: artifact.expired ? artifact.created_at : "2099-01-01T00:00:00Z",
    updated_at: artifact.created_at,
    workflow_run: {
      id: artifact.run_id,
      repository_id: repo.id,
      head_repository_id: repo.id,
      ...(run ? { head_branch: run.head_branch, head_sha: run.head_sha } : {}),
    },
  };
}

/** Starts a fake GitHub on 127.0.0.1 with a random port. */
export async function startFakeGitHub(): Promise<FakeGitHub> {
  return new FakeGitHub().start();
}

/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A repository path in a URL: each segment percent-encoded, the slashes kept. */
function encodePath(path: string): string {
  return path.split("/").map(encodeURIComponent).join("/");
}
