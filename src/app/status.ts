import { budgetDay, nextBudgetDay, parseScopeKey, type BudgetPolicy } from "../core/budget.js";
import { hintOf } from "../core/errors.js";
import { utcDate } from "../core/ledger.js";
import type { DualRun, Store } from "../store/index.js";
import { recentCrashes } from "../store/crashes.js";
import { deliveryOverview, heartbeats } from "../store/ops.js";
import type { DeliveryRow } from "../store/store.js";
import { reviewOverdue } from "../core/freeze.js";
import { redeliverySnapshot, type RedeliverySnapshot } from "./redelivery.js";
import { budgetDecision, DEFERRAL_ORDER, thresholdFor, type WorkKind } from "../core/rate-budget.js";
import type { CrashBound } from "./crash-loop.js";
import type { SweepReport } from "./sweep.js";
import type { IntakeStats } from "./webhook.js";
import { VERSION } from "../core/version.js";
import { deliveryCounts, historyBeganAt, verdictCounts, type DeliveryCounts, type VerdictCounts } from "../store/status-counts.js";

export { renderStatusHtml, renderStoreDownHtml, STATUS_PAGE_CSP } from "./status-html.js";

/** The summary's window: the last day. */
const SUMMARY_WINDOW_MS = 24 * 3_600_000;

interface DeliveryLine {
  delivery_id: string;
  event: string;
  state: DeliveryRow["state"];
  /** `github`: its GitHub calls fail (GITHUB_UNAVAILABLE) and it is retried, now or by the sweeper. */
  waiting_on: "github" | null;
  received_at: string;
  attempts: number;
  code: string | null;
  message: string | null;
  /** What to do about it. */
  action: string;
  /** Deferred for the installation's GitHub budget: when the sweeper takes it up again. */
  resumes_at?: string | null;
}

/** One installation's GitHub API budget as any replica last read it from GitHub's answers. */
interface RateLimitLine {
  installation_id: number;
  resource: string;
  remaining: number | null;
  limit: number | null;
  resets_at: string | null;
  /** The window reset since it was read: the budget is full again until an answer says otherwise. */
  reset_passed: boolean;
  observed_at: string;
  observed_by: string;
  /** A secondary limit's retry-after still running: no new work for the installation before it. */
  retry_after_until: string | null;
  /** The kinds of work that wait now (the written order). */
  deferring: WorkKind[];
}

interface BudgetLine {
  scope: string;
  dispatches_used: number;
  dispatches_cap: number;
  dispatches_left: number;
  minutes_charged: number;
  minutes_cap: number;
  minutes_left: number;
  /** Dispatches charged their measured minutes; the rest count at the maximum. */
  measured: number;
  /** Set when an operator's override replaces the configured caps. */
  override: { by: string; reason: string; at: string } | null;
}

interface BudgetSnapshot {
  day: string;
  resets_at: string;
  charged_until_measured_minutes: number;
  measurement_trusted_minutes: number;
  defaults: { installation: BudgetPolicy["installation"]; repository: BudgetPolicy["repository"] };
  scopes: BudgetLine[];
  /** The latest dual runs that were not compared because of the budget. */
  refusals: { dual_run: string; repository: string; code: string | null; detail: string | null; at: string | null }[];
}

interface SwitchLine {
  seq: number;
  switch: string;
  state: string;
  kind: string;
  actor: string;
  reason: string;
  /** Null only for an entry whose time is recorded nowhere. */
  at: string | null;
}

export interface StatusSnapshot {
  /** The release serving the page (src/core/version.ts). */
  version: string;
  generated_at: string;
  /** The backend (and PostgreSQL's database and schema): never a file path, host or credential. */
  store: string;
  /** The window the summary's counts cover, ending at generated_at. */
  window: { hours: number; since: string };
  /** The deliveries received within the window, by what became of them. */
  delivery_counts: DeliveryCounts;
  /** The App's verified checks posted within the window, by verdict. */
  verdicts: VerdictCounts;
  /** The GitHub API the App talks to (its settings): github.com's, or a GitHub Enterprise Server's. */
  github_api_url: string;
  kill_switch: { paused: boolean; reason: string | null; changed_by: string | null; changed_at: string | null };
  budget: BudgetSnapshot;
  /** The switches' history, newest first; watchdog reverts are kind `revert`. */
  switch_history: SwitchLine[];
  /** Replicas that crashed within the crash-loop window; at the limit, their next start is refused. */
  crash_loop: {
    limit: number;
    window_minutes: number;
    replicas: { replica: string; crashes: number; last_crash_at: string; start_refused: boolean }[];
  };
  installations: { installation_id: number; account: string | null; mode: string; promoted_at: string | null }[];
  /** GitHub's rate limit per installation (x-ratelimit-*), and the written order in which work waits when it runs low. */
  github_budget: {
    order: { tier: string; kinds: WorkKind[]; waits_below: string }[];
    installations: RateLimitLine[];
  };
  /** Gate workflow runs the App refused as runner A or runner B (newest first), with their typed reason. */
  refused_runs: {
    repository: string;
    run_id: number;
    run_attempt: number;
    role: string;
    event: string | null;
    head_sha: string | null;
    dual_run: string | null;
    code: string;
    reason: string;
    at: string;
  }[];
  /** Push runs judged as audit runs (newest first): verified, ignored (not an audit bundle) or refused, with the code. */
  audit_runs: {
    repository: string;
    run_id: number;
    run_attempt: number;
    branch: string | null;
    head_sha: string | null;
    state: string;
    code: string | null;
    reason: string | null;
    at: string;
  }[];
  /** The envelope PRs proposed from audit runs (newest first): opened, shadowed, closed (with the App's code) or merged. */
  envelope_prs: {
    repository: string;
    branch: string;
    base: string;
    state: string;
    mode: string;
    pull: number | null;
    url: string | null;
    commit: string | null;
    runs: string;
    code: string | null;
    detail: string | null;
    updated_at: string;
  }[];
  /**
   * Each owner's organisation envelope as last read (docs/app.md, An organisation's envelope): its
   * digest, the `.github` commit, and when its digest (or state) last changed.
   */
  org_envelopes: {
    owner: string;
    state: string;
    ceiling_id: string | null;
    digest: string | null;
    source_sha: string | null;
    detail: string;
    /** Every exception row, honoured on the day read or not and why: `<repository>: exceptions[i] (...)`. */
    exceptions: string[];
    changed_at: string;
    read_at: string;
  }[];
  /**
   * Each repository's latest result against its owner's organisation envelope: `outside` when the
   * verified check failed it (widened, unchecked, invalid); `current` false when the result was
   * judged under another digest than the owner's latest; the exception rows naming it; and what
   * its latest run touched beyond the organisation's baseline (the ceiling without exceptions).
   */
  ceiling_results: {
    repository: string;
    outcome: string;
    outside: boolean;
    current: boolean;
    digest: string | null;
    detail: string[];
    exceptions: string[];
    footprint: { hosts: string[]; env: string[]; commands: string[] } | null;
    checked_at: string;
  }[];
  /** The App's verified checks (`<check name> / verified`), newest first. */
  verified_checks: {
    repository: string;
    run_id: number;
    run_attempt: number;
    head_sha: string;
    state: string;
    conclusion: string | null;
    code: string | null;
    check_run_id: number | null;
  }[];
  /**
   * The verified check per commit (newest first): what the App posted last, made of which open
   * pull requests, and the checks of the same name another source posted on the commit (never counted).
   */
  verified_heads: {
    repository: string;
    head_sha: string;
    conclusion: string | null;
    code: string | null;
    check_run_id: number | null;
    pulls: { number: number; base_ref: string; conclusion: string }[];
    foreign_checks: { id: number; app_id: number | null; app_slug: string | null; conclusion: string | null; external_id: string | null }[];
    updated_at: string;
  }[];
  dual_runs_in_flight: {
    id: string;
    repository: string;
    head_sha: string;
    state: string;
    properties: string[];
    deadline_at: string;
    minutes_left: number;
    run_b_id: number | null;
  }[];
  open_ledger_prs: {
    freeze_id: string;
    repository: string;
    property: string;
    pr_url: string | null;
    opened_at: string | null;
    waiting_hours: number;
    overdue: boolean;
    reviewed: boolean;
    expires_on: string;
  }[];
  /** Ledger PRs the App refused to adopt or closed itself (foreign branch or PR, tampered, retargeted), newest first. */
  refused_ledger_prs: {
    freeze_id: string;
    repository: string;
    property: string;
    branch: string;
    pr_url: string | null;
    state: string;
    code: string;
    detail: string | null;
    at: string | null;
  }[];
  shadow_proposals: {
    freeze_id: string;
    repository: string;
    property: string;
    branch: string;
    expires_on: string;
    row: string;
    proposed_at: string;
  }[];
  freezes_expiring_soon: {
    freeze_id: string;
    repository: string;
    property: string;
    expires_on: string;
    state: string;
    days_left: number;
  }[];
  recent_decisions: {
    id: string;
    repository: string;
    outcome: string | null;
    code: string | null;
    detail: string | null;
    decided_at: string | null;
    head_sha: string;
    commit_url: string | null;
    pull_url: string | null;
    check_run_url: string | null;
  }[];
  deliveries: {
    total: number;
    last_received_at: string | null;
    failed: DeliveryLine[];
    stuck: DeliveryLine[];
    refused_paused: DeliveryLine[];
    /** Waiting for an installation's GitHub budget to reset (GITHUB_BUDGET_LOW), taken up by the sweeper at `resumes_at`. */
    deferred: DeliveryLine[];
  };
  /** What reached this replica's /webhook, including requests refused before anything was stored. */
  intake: {
    last_request_at: string | null;
    last_accepted_at: string | null;
    refused: Record<string, number>;
    last_refused: { at: string; code: string; message: string; delivery: string | null } | null;
  } | null;
  replicas: { replica_id: string; last_health_check: string }[];
  /** The redelivery sweep: its switch, mark, last pass (any replica) and what it gave up on. */
  redelivery: RedeliverySnapshot;
  last_sweep: {
    at: string;
    report: SweepReport;
    errors: { item: string; code: string; message: string; action: string }[];
  } | null;
}

/** The repository's web address: from runner A's run URL, else from the API URL (github.com or GHES). */
function repositoryWebUrl(dual: Pick<DualRun, "repository" | "run_a_url">, githubApiUrl: string): string | null {
  const fromRun = dual.run_a_url === null ? null : /^(https?:\/\/.+?)\/actions\/runs\//.exec(dual.run_a_url)?.[1];
  if (fromRun) return fromRun;
  try {
    const api = new URL(githubApiUrl);
    const web = api.hostname === "api.github.com" ? "https://github.com" : `${api.protocol}//${api.host}`;
    return `${web}/${dual.repository}`;
  } catch {
    return null;
  }
}

/** A delivery still to be worked on (being processed, or queued for the sweeper) whose GitHub calls failed. */
function waitingOn(d: Pick<DeliveryRow, "state" | "error_code">): "github" | null {
  return (d.state === "processing" || d.state === "queued") && d.error_code === "GITHUB_UNAVAILABLE" ? "github" : null;
}

function deliveryLine(d: DeliveryRow, action: string): DeliveryLine {
  return {
    delivery_id: d.delivery_id,
    event: d.event,
    state: d.state,
    waiting_on: waitingOn(d),
    received_at: new Date(d.received_at).toISOString(),
    attempts: d.attempts,
    code: d.error_code,
    message: d.error_message,
    action,
  };
}

/** What became of one delivery (GET /status/deliveries/<id>.json): its recorded state, never its payload. */
interface DeliveryStatus {
  delivery_id: string;
  event: string;
  state: DeliveryRow["state"];
  /** `github`: its GitHub calls fail (GITHUB_UNAVAILABLE, the error in `message`) and it is retried. */
  waiting_on: "github" | null;
  attempts: number;
  failures: number;
  received_at: string;
  finished_at: string | null;
  outcome: string | null;
  code: string | null;
  message: string | null;
  /** What to do about it, when it failed. */
  action: string | null;
}

export async function deliveryStatus(store: Store, id: string, githubApiUrl?: string): Promise<DeliveryStatus | null> {
  const d = await store.getDelivery(id);
  if (d === null) return null;
  return {
    delivery_id: d.delivery_id,
    event: d.event,
    state: d.state,
    waiting_on: waitingOn(d),
    attempts: Number(d.attempts),
    failures: Number(d.failures),
    received_at: new Date(Number(d.received_at)).toISOString(),
    finished_at: d.finished_at === null ? null : new Date(Number(d.finished_at)).toISOString(),
    outcome: d.outcome,
    code: d.error_code,
    message: d.error_message,
    action: d.error_code === null ? null : hintOf(d.error_code, githubApiUrl === undefined ? {} : { githubApiUrl }),
  };
}

const STUCK_ACTION =
  "The replica processing it stopped (crash or restart) before finishing: the sweeper of any replica takes it over (once that replica's heartbeat is stale, or at once when it restarts); nothing to redeliver.";

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Today's runner-B budget: per installation and repository that reserved today (and every override), used and left. */
export async function budgetSnapshot(store: Store, policy: BudgetPolicy, now: number): Promise<BudgetSnapshot> {
  const day = budgetDay(now);
  const usage = await store.budget.usageByScope(day, now - policy.freshMs);
  const overrides = new Map((await store.budget.overrides()).map((o) => [o.scope, o]));
  const scopes = [...new Set([...usage.map((u) => u.scope), ...overrides.keys()])].sort();
  const refusals = await store.budgetRefusals();
  return {
    day,
    resets_at: new Date(nextBudgetDay(now)).toISOString(),
    charged_until_measured_minutes: policy.maxRunMinutes,
    measurement_trusted_minutes: Math.round(policy.freshMs / 60_000),
    defaults: { installation: policy.installation, repository: policy.repository },
    scopes: await Promise.all(
      scopes.map(async (scope) => {
        const used = usage.find((u) => u.scope === scope) ?? { dispatches: 0, minutes: 0, measured: 0 };
        const o = overrides.get(scope);
        // What reservations are held to: a row raised behind the App's back does not show as room,
        // and an unreadable recorded cap refuses every reservation (BUDGET_UNCONFIRMED): none left.
        const cap = await store.budget
          .effectiveLimit(scope, parseScopeKey(scope)?.kind === "repository" ? policy.repository : policy.installation)
          .catch(() => ({ dispatchesPerDay: 0, minutesPerDay: 0 }));
        return {
          scope,
          dispatches_used: used.dispatches,
          dispatches_cap: cap.dispatchesPerDay,
          dispatches_left: Math.max(0, cap.dispatchesPerDay - used.dispatches),
          minutes_charged: used.minutes,
          minutes_cap: cap.minutesPerDay,
          minutes_left: Math.max(0, cap.minutesPerDay - used.minutes),
          measured: used.measured,
          override: o ? { by: o.changedBy, reason: o.reason, at: new Date(o.changedAt).toISOString() } : null,
        };
      }),
    ),
    refusals: refusals.map((r) => ({
      dual_run: String(r.id),
      repository: String(r.repository),
      code: (r.outcome_code as string | null) ?? null,
      detail: (r.outcome_detail as string | null) ?? null,
      at: iso(r.decided_at === null ? null : Number(r.decided_at)),
    })),
  };
}

const WORK_KINDS: WorkKind[] = DEFERRAL_ORDER.flatMap((t) => [...t.kinds]);

/** Each installation's recorded rate limit, what waits now, and the order (thresholds for a 5,000-call limit as an example). */
async function gitHubBudget(store: Store, now: number): Promise<StatusSnapshot["github_budget"]> {
  const readings = await store.rateLimits.list();
  return {
    order: DEFERRAL_ORDER.map((t) => ({
      tier: t.tier,
      kinds: [...t.kinds],
      waits_below: `max(${Math.round(t.fraction * 100)}% of the limit, ${t.floor}) calls left (${thresholdFor(t.kinds[0] as WorkKind, 5000)} of 5,000)`,
    })),
    installations: readings.map((r) => ({
      installation_id: r.installationId,
      resource: r.resource,
      remaining: r.remaining,
      limit: r.limit,
      resets_at: iso(r.resetAt),
      reset_passed: r.resetAt !== null && r.resetAt <= now,
      observed_at: new Date(r.observedAt).toISOString(),
      observed_by: r.observedBy,
      retry_after_until: r.retryAfterUntil !== null && r.retryAfterUntil > now ? new Date(r.retryAfterUntil).toISOString() : null,
      deferring: r.resource === "core" ? WORK_KINDS.filter((k) => budgetDecision(k, r, now).defer) : [],
    })),
  };
}

/** A stored JSON list of strings (anything else: empty). */
function jsonList(text: string): string[] {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function footprintOf(text: string): StatusSnapshot["ceiling_results"][number]["footprint"] {
  try {
    const v = JSON.parse(text) as Record<string, unknown> | null;
    if (v === null || typeof v !== "object") return null;
    const list = (k: string) => (Array.isArray(v[k]) ? (v[k] as unknown[]).filter((x): x is string => typeof x === "string") : []);
    return { hosts: list("hosts"), env: list("env"), commands: list("commands") };
  } catch {
    return null;
  }
}

export async function statusSnapshot(
  store: Store,
  now: number,
  options: {
    storeLabel: string;
    reviewAlertMs: number;
    budget: BudgetPolicy;
    crashBound: CrashBound;
    lastSweep: { at: number; report: SweepReport } | null;
    githubApiUrl: string;
    intake?: IntakeStats | null;
  },
): Promise<StatusSnapshot> {
  const kill = await store.killSwitch();
  const installations = await store.listInstallations();
  const inFlight = await store.listDualRuns(["pending", "dispatching", "waiting", "comparing", "decided", "reporting"]);
  const opened = await store.listLedgerPrs(["opened"]);
  const shadowed = await store.listLedgerPrs(["shadowed"]);
  const refused = await store.listRefusedLedgerPrs(20);
  const standing = await store.listLedgerPrs(["opened", "merged"]);
  const today = utcDate(new Date(now));
  const soon = utcDate(new Date(now + 3 * 86_400_000));
  const recent = (await store.recentDualRuns(20)).filter((d) => d.state === "done");
  const deliveries = await deliveryOverview(store, now);
  const beats = await heartbeats(store);
  const intake = options.intake ?? null;
  const history = await store.switches.history(30);
  // Migration 4 recorded the state it found as at 0 (no time known then): its truth is when the history began.
  const began = history.some((h) => h.at === 0) ? await historyBeganAt(store) : null;
  const since = now - SUMMARY_WINDOW_MS;
  const crashes = await recentCrashes(store, now - options.crashBound.windowMs, now - store.heartbeatStaleMs);
  const refusedRuns = await store.runs.recentRefusals(20);
  const verified = await store.runs.recentVerifiedChecks(20);
  const heads = await store.heads.recent(20);
  const auditRuns = await store.envelopePrs.recentAuditRuns(20);
  const envelopePrs = await store.envelopePrs.listEnvelopePrs(20);
  const orgEnvelopes = await store.ceilings.all();
  const ceilingResults = await store.ceilings.results();
  const where = { githubApiUrl: options.githubApiUrl };
  return {
    version: VERSION,
    generated_at: new Date(now).toISOString(),
    store: options.storeLabel,
    window: { hours: SUMMARY_WINDOW_MS / 3_600_000, since: new Date(since).toISOString() },
    delivery_counts: await deliveryCounts(store, since),
    verdicts: await verdictCounts(store, since),
    github_api_url: options.githubApiUrl,
    kill_switch: { paused: kill.paused, reason: kill.reason, changed_by: kill.changed_by, changed_at: iso(kill.changed_at) },
    budget: await budgetSnapshot(store, options.budget, now),
    crash_loop: {
      limit: options.crashBound.limit,
      window_minutes: Math.round(options.crashBound.windowMs / 60_000),
      replicas: crashes.map((c) => ({
        replica: c.replica,
        crashes: c.crashes,
        last_crash_at: new Date(c.last_crash_at).toISOString(),
        start_refused: c.crashes >= options.crashBound.limit,
      })),
    },
    switch_history: history.map((h) => ({
      seq: h.seq,
      switch: h.switch,
      state: JSON.stringify(h.state),
      kind: h.kind,
      actor: h.actor,
      reason: h.reason,
      at: iso(h.at === 0 ? began : h.at),
    })),
    installations: installations.map((i) => ({
      installation_id: i.installation_id,
      account: i.account,
      mode: i.mode,
      promoted_at: iso(i.promoted_at === null ? null : Number(i.promoted_at)),
    })),
    github_budget: await gitHubBudget(store, now),
    refused_runs: refusedRuns.map((r) => ({
      repository: r.repository,
      run_id: r.run_id,
      run_attempt: r.run_attempt,
      role: r.role,
      event: r.event,
      head_sha: r.head_sha,
      dual_run: r.dual_run_id,
      code: r.code,
      reason: r.reason,
      at: new Date(r.refused_at).toISOString(),
    })),
    audit_runs: auditRuns.map((a) => ({
      repository: a.repository,
      run_id: a.run_id,
      run_attempt: a.run_attempt,
      branch: a.branch,
      head_sha: a.head_sha,
      state: a.state,
      code: a.code,
      reason: a.reason,
      at: new Date(a.recorded_at).toISOString(),
    })),
    envelope_prs: envelopePrs.map((e) => ({
      repository: e.repository,
      branch: e.branch,
      base: e.base_ref,
      state: e.state,
      mode: e.mode,
      pull: e.pr_number,
      url: e.pr_url,
      commit: e.commit_sha,
      runs: e.runs,
      code: e.outcome_code,
      detail: e.outcome_detail,
      updated_at: new Date(e.updated_at).toISOString(),
    })),
    org_envelopes: orgEnvelopes.map((o) => ({
      owner: o.owner,
      state: o.state,
      ceiling_id: o.ceiling_id,
      digest: o.digest,
      source_sha: o.source_sha,
      detail: o.detail,
      exceptions: jsonList(o.exceptions),
      changed_at: new Date(o.changed_at).toISOString(),
      read_at: new Date(o.read_at).toISOString(),
    })),
    ceiling_results: ceilingResults.map((c) => ({
      repository: c.repository,
      outcome: c.outcome,
      outside: ["widened", "unchecked", "invalid"].includes(c.outcome),
      current: c.digest === null || orgEnvelopes.find((o) => o.owner === c.owner)?.digest === c.digest,
      digest: c.digest,
      detail: jsonList(c.detail),
      exceptions: jsonList(c.exceptions),
      footprint: footprintOf(c.footprint),
      checked_at: new Date(c.checked_at).toISOString(),
    })),
    verified_checks: verified.map((c) => ({
      repository: c.repository,
      run_id: c.run_id,
      run_attempt: c.run_attempt,
      head_sha: c.head_sha,
      state: c.state,
      conclusion: c.conclusion,
      code: c.code,
      check_run_id: c.check_run_id,
    })),
    verified_heads: heads.map((h) => ({
      repository: h.repository,
      head_sha: h.head_sha,
      conclusion: h.conclusion,
      code: h.code,
      check_run_id: h.check_run_id,
      pulls: JSON.parse(h.pulls ?? "[]") as StatusSnapshot["verified_heads"][number]["pulls"],
      foreign_checks: JSON.parse(h.foreign_checks ?? "[]") as StatusSnapshot["verified_heads"][number]["foreign_checks"],
      updated_at: new Date(h.updated_at).toISOString(),
    })),
    dual_runs_in_flight: inFlight.map((d) => ({
      id: d.id,
      repository: d.repository,
      head_sha: d.head_sha,
      state: d.state,
      properties: JSON.parse(d.properties) as string[],
      deadline_at: new Date(d.deadline_at).toISOString(),
      minutes_left: Math.floor((d.deadline_at - now) / 60_000),
      run_b_id: d.run_b_id,
    })),
    open_ledger_prs: opened.map((p) => {
      const waited = p.opened_at === null ? 0 : now - p.opened_at;
      return {
        freeze_id: p.freeze_id,
        repository: p.repository,
        property: p.property,
        pr_url: p.pr_url,
        opened_at: iso(p.opened_at),
        waiting_hours: Math.floor(waited / 3_600_000),
        reviewed: p.first_review_at !== null,
        overdue: reviewOverdue(p, now, options.reviewAlertMs),
        expires_on: p.expires_on,
      };
    }),
    refused_ledger_prs: refused.map((p) => ({
      freeze_id: p.freeze_id,
      repository: p.repository,
      property: p.property,
      branch: p.branch,
      pr_url: p.pr_url,
      state: p.state,
      code: p.outcome_code as string,
      detail: p.outcome_detail,
      at: iso(p.closed_at),
    })),
    shadow_proposals: shadowed.map((p) => ({
      freeze_id: p.freeze_id,
      repository: p.repository,
      property: p.property,
      branch: p.branch,
      expires_on: p.expires_on,
      row: p.row_text,
      proposed_at: new Date(p.created_at).toISOString(),
    })),
    freezes_expiring_soon: standing
      .filter((p) => p.expires_on > today && p.expires_on <= soon)
      .map((p) => ({
        freeze_id: p.freeze_id,
        repository: p.repository,
        property: p.property,
        expires_on: p.expires_on,
        state: p.state,
        days_left: Math.round((Date.parse(`${p.expires_on}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000),
      })),
    recent_decisions: recent.map((d) => {
      const web = repositoryWebUrl(d, options.githubApiUrl);
      return {
        id: d.id,
        repository: d.repository,
        outcome: d.outcome,
        code: d.outcome_code,
        detail: d.outcome_detail,
        decided_at: iso(d.decided_at),
        head_sha: d.head_sha,
        commit_url: web && `${web}/commit/${d.head_sha}`,
        pull_url: web && d.pull_number !== null ? `${web}/pull/${d.pull_number}` : null,
        check_run_url: web && d.check_run_id !== null ? `${web}/runs/${d.check_run_id}` : null,
      };
    }),
    deliveries: {
      total: deliveries.total,
      last_received_at: iso(deliveries.last_received_at),
      failed: deliveries.failed.map((d) => deliveryLine(d, hintOf(d.error_code, where))),
      stuck: deliveries.stuck.map((d) => deliveryLine(d, STUCK_ACTION)),
      refused_paused: deliveries.refused_paused.map((d) => deliveryLine(d, hintOf("KILL_SWITCH_ENGAGED"))),
      deferred: deliveries.deferred.map((d) => ({
        ...deliveryLine(d, hintOf("GITHUB_BUDGET_LOW")),
        resumes_at: iso(d.not_before ?? null),
      })),
    },
    intake: intake && {
      last_request_at: iso(intake.last_request_at),
      last_accepted_at: iso(intake.last_accepted_at),
      refused: { ...intake.refused },
      last_refused: intake.last_refused && { ...intake.last_refused, at: new Date(intake.last_refused.at).toISOString() },
    },
    replicas: beats.map((b) => ({ replica_id: b.replica_id, last_health_check: new Date(b.beat_at).toISOString() })),
    redelivery: await redeliverySnapshot(store, now),
    last_sweep: options.lastSweep
      ? {
          at: new Date(options.lastSweep.at).toISOString(),
          report: options.lastSweep.report,
          errors: options.lastSweep.report.errors.map((e) => ({ ...e, action: hintOf(e.code, where) })),
        }
      : null,
  };
}
