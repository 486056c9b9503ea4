import { budgetDay, nextBudgetDay, parseScopeKey, type BudgetPolicy } from "../core/budget.js";
import { hintOf } from "../core/errors.js";
import { utcDate } from "../core/ledger.js";
import { escapeHtml, safeHref } from "../core/markdown.js";
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
  at: string;
}

export interface StatusSnapshot {
  generated_at: string;
  store: string;
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
  const crashes = await recentCrashes(store, now - options.crashBound.windowMs, now - store.heartbeatStaleMs);
  const refusedRuns = await store.runs.recentRefusals(20);
  const verified = await store.runs.recentVerifiedChecks(20);
  const heads = await store.heads.recent(20);
  const auditRuns = await store.envelopePrs.recentAuditRuns(20);
  const envelopePrs = await store.envelopePrs.listEnvelopePrs(20);
  const where = { githubApiUrl: options.githubApiUrl };
  return {
    generated_at: new Date(now).toISOString(),
    store: options.storeLabel,
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
      at: new Date(h.at).toISOString(),
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

/**
 * The one HTML escape of the page: every string from the store (repository names, properties,
 * branches, rows, details, messages, reasons) goes through it; what is not escaped is markup of
 * ours (`Raw`) or a number we computed.
 */
const esc = escapeHtml;

function table(headers: string[], rows: unknown[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${esc(empty)}</p>`;
  return `<table><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${c instanceof Raw ? c.html : esc(c)}</td>`).join("")}</tr>`)
    .join("")}</table>`;
}

class Raw {
  constructor(readonly html: string) {}
}

/** A link to an http(s) address only; anything else is its text. */
const link = (href: string | null, text: string): Raw | string => {
  const safe = safeHref(href);
  return safe ? new Raw(`<a href="${esc(safe)}">${esc(text)}</a>`) : text;
};

const PAGE_HEAD = (title: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
.alert{background:#fdd;border:2px solid #c00;padding:8px;font-weight:bold}.ok{background:#dfd;padding:8px}.overdue{color:#c00;font-weight:bold}.empty{color:#777}code{font-size:12px}</style></head><body>`;

function deliveriesTable(lines: DeliveryLine[], empty: string): string {
  return table(
    ["delivery", "event", "state", "received", "attempts", "code", "message", "what to do"],
    lines.map((d) => [
      new Raw(`<code>${esc(d.delivery_id)}</code>`),
      d.event,
      d.waiting_on === "github" ? `waiting on GitHub (${d.state})` : d.state,
      d.received_at,
      d.attempts,
      d.code ?? "",
      d.message ?? "",
      d.action,
    ]),
    empty,
  );
}

/** Everything on the page that needs a human, counted for the summary at the top. */
function attention(s: StatusSnapshot): string[] {
  const items: string[] = [];
  const n = (count: number, what: string) => count > 0 && items.push(`${count} ${what}`);
  if (s.kill_switch.paused) items.push("the App is PAUSED");
  const waiting = s.deliveries.failed.filter((d) => d.waiting_on === "github").length;
  n(s.deliveries.failed.length - waiting, "failed delivery(ies)");
  n(waiting, `delivery(ies) waiting on GitHub at ${s.github_api_url} (GITHUB_UNAVAILABLE)`);
  n(s.deliveries.stuck.length, "stuck delivery(ies)");
  n(s.deliveries.refused_paused.length, "delivery(ies) held during a pause");
  n(s.last_sweep?.errors.length ?? 0, "sweep error(s)");
  n(s.open_ledger_prs.filter((p) => p.overdue).length, "overdue ledger PR review(s)");
  n(
    s.budget.scopes.filter((b) => b.dispatches_left === 0 || b.minutes_left < s.budget.charged_until_measured_minutes).length,
    "budget(s) exhausted for today",
  );
  n(s.crash_loop.replicas.filter((r) => r.start_refused).length, "replica(s) whose next start is refused (APP_CRASH_LOOP)");
  n(
    s.refused_runs.filter((r) => r.role === "runner_b").length,
    "run(s) that named a dual run but were not the App's dispatch (RUNNER_B_UNVERIFIED)",
  );
  if (!s.redelivery.switch.enabled) items.push("the redelivery sweep is OFF (deliveries GitHub failed to deliver are not asked for again)");
  n(
    s.redelivery.problems.filter((p) => p.state === "exhausted" || p.state === "expired").length,
    "delivery(ies) the redelivery sweep gave up on",
  );
  n(
    s.redelivery.last_pass?.errors.filter((e) => e.code === "REDELIVERY_LIST_REFUSED").length ?? 0,
    "redelivery listing(s) refused by GitHub",
  );
  const dayAgo = Date.parse(s.generated_at) - 86_400_000;
  const lost = s.redelivery.backlog_expired;
  if (lost && Date.parse(lost.found_at) >= dayAgo) {
    items.push(
      `deliveries from ${lost.from} to ${lost.to} can no longer be redelivered: GitHub dropped them before the redelivery sweep listed them (REDELIVERY_BACKLOG_EXPIRED)`,
    );
  }
  n(
    s.refused_ledger_prs.filter((p) => p.at !== null && Date.parse(p.at) >= dayAgo).length,
    "ledger PR(s) refused or closed by the App in the last 24 h (a branch, PR or push it did not make)",
  );
  n(
    s.switch_history.filter((h) => h.kind === "revert" && Date.parse(h.at) >= dayAgo).length,
    "unrecorded switch change(s) reverted by the watchdog in the last 24 h (see the switch history)",
  );
  return items;
}

function intakeSection(s: StatusSnapshot): string {
  const d = s.deliveries;
  const lines = [`Last delivery recorded (any replica): ${esc(d.last_received_at ?? "never")} · ${d.total} recorded in all.`];
  if (s.intake) {
    const refused = Object.entries(s.intake.refused).map(([code, count]) => `${esc(code)} × ${count}`);
    lines.push(
      `This replica: last request to /webhook ${esc(s.intake.last_request_at ?? "never")}, last accepted ${esc(s.intake.last_accepted_at ?? "never")}.`,
    );
    lines.push(`Refused before anything was recorded: ${refused.length > 0 ? refused.join(", ") : "none"}.`);
    if (s.intake.last_refused) {
      const r = s.intake.last_refused;
      lines.push(
        `Last refusal ${esc(r.at)}: ${esc(r.code)} (${esc(r.message)})${r.code === "WEBHOOK_SIGNATURE_INVALID" ? ". If every delivery is refused so, the webhook secret differs from the App's settings on GitHub." : ""}`,
      );
    }
  }
  return lines.map((l) => `<p>${l}</p>`).join("");
}

function redeliverySection(s: StatusSnapshot): string {
  const r = s.redelivery;
  const sw = r.switch.enabled
    ? `<p class="ok">On${r.switch.at ? ` (turned on ${esc(r.switch.at)} by ${esc(r.switch.by)}: ${esc(r.switch.reason)})` : ""}: deliveries GitHub recorded as failed and the App never recorded are asked for again.</p>`
    : `<p class="alert">OFF since ${esc(r.switch.at)} by ${esc(r.switch.by)}: ${esc(r.switch.reason)}. GitHub does not redeliver by itself: turn it on with <code>envelope-gate app redelivery on --reason "…"</code>.</p>`;
  const p = r.last_pass;
  const w = r.walk;
  const walk = w
    ? `<p>Walk in progress since ${esc(w.started_at)}: ${esc(w.pages)} page(s) in ${esc(w.passes)} pass(es), back to ${esc(w.oldest_listed)} of the mark ${esc(r.mark ?? "none yet")}; deliveries newer than ${esc(w.newest)} are the next walk's; ${esc(w.open)} delivery(ies) left open so far.</p>`
    : "";
  const b = r.backlog_expired;
  const lost = b ? `<p class="alert">${esc(b.code)} (found ${esc(b.found_at)}): ${esc(b.message)}. What to do: ${esc(b.action)}</p>` : "";
  const last = p
    ? `<p>Last pass ${esc(p.at)} by ${esc(p.by)}${p.skipped ? ` (skipped: ${esc(p.skipped)})` : ""}: ${esc(p.listed)} attempt(s) listed in ${esc(p.pages)} page(s), ${esc(p.deliveries)} delivery(ies), ${esc(p.failed)} failed on GitHub, ${esc(p.recorded)} of them recorded by the App anyway, ${esc(p.requested.length)} asked again, ${esc(p.pending)} pending, ${esc(p.deferred)} left for the next pass${p.truncated ? ", not back to the mark yet: the next pass resumes the walk where this one stopped" : ""}. Mark: ${esc(r.mark ?? "none yet")}.</p>${walk}${lost}${table(
        ["item", "code", "message", "what to do"],
        p.errors.map((e) => [e.item, e.code, e.message, hintOf(e.code, { githubApiUrl: s.github_api_url })]),
        "No errors.",
      )}`
    : "<p>No pass yet.</p>";
  const c = r.counts;
  return `${sw}${last}<p>Asked again in all: ${esc(c.delivered)} delivered, ${esc(c.requested)} pending, ${esc(c.refused)} refused, ${esc(c.exhausted)} given up, ${esc(c.expired)} older than GitHub keeps.</p>${table(
    ["delivery", "event", "state", "asked", "first failed", "code", "message", "what to do"],
    r.problems.map((x) => [
      new Raw(`<code>${esc(x.guid)}</code>`),
      x.event,
      x.state,
      x.attempts,
      x.first_failed_at,
      x.code ?? "",
      x.message ?? "",
      x.action,
    ]),
    "None given up or refused.",
  )}`;
}

function gitHubBudgetSection(s: StatusSnapshot): string {
  const b = s.github_budget;
  const order = `<p>When an installation's remainder runs low, work waits until the reset, in this order: ${b.order
    .map((t) => `${esc(t.kinds.join(" and ").replaceAll("_", " "))} below ${esc(t.waits_below)}`)
    .join("; then ")}. Deferred work is GITHUB_BUDGET_LOW and resumes by itself after the reset.</p>`;
  const readings = table(
    ["installation", "resource", "remaining / limit", "resets", "read", "secondary limit until", "waiting now"],
    b.installations.map((r) => [
      r.installation_id,
      r.resource,
      new Raw(
        r.remaining === null
          ? "—"
          : `<span class="${r.deferring.length > 0 ? "overdue" : ""}">${esc(r.remaining)} / ${esc(r.limit)}</span>${r.reset_passed ? " (reset since)" : ""}`,
      ),
      r.resets_at ?? "—",
      `${r.observed_at} by ${r.observed_by}`,
      r.retry_after_until ?? "—",
      r.deferring.length > 0 ? r.deferring.join(", ") : "nothing",
    ]),
    "No answer from GitHub read yet.",
  );
  const deferred = table(
    ["delivery", "event", "received", "resumes", "message"],
    s.deliveries.deferred.map((d) => [
      new Raw(`<code>${esc(d.delivery_id)}</code>`),
      d.event,
      d.received_at,
      d.resumes_at ?? "—",
      d.message ?? "",
    ]),
    "No work deferred.",
  );
  return `${order}${readings}<h3>Deferred deliveries (GITHUB_BUDGET_LOW)</h3>${deferred}`;
}

/** The read-only status page. No forms, no actions: operators change state with the CLI. */
export function renderStatusHtml(s: StatusSnapshot): string {
  const kill = s.kill_switch.paused
    ? `<p class="alert">PAUSED since ${esc(s.kill_switch.changed_at)} by ${esc(s.kill_switch.changed_by)}: ${esc(s.kill_switch.reason)}. No dispatch, PR, comment or check is sent. Resume with <code>envelope-gate app resume</code>.</p>`
    : `<p class="ok">Running (kill switch off${s.kill_switch.changed_at ? `, last changed ${esc(s.kill_switch.changed_at)} by ${esc(s.kill_switch.changed_by)}` : ""}).</p>`;
  const todo = attention(s);
  const summary =
    todo.length > 0
      ? `<p class="alert" id="attention">Needs attention: ${todo.map(esc).join("; ")}.</p>`
      : `<p class="ok" id="attention">Nothing needs attention.</p>`;
  const sweep = s.last_sweep
    ? `<p>${esc(s.last_sweep.at)}: ${s.last_sweep.errors.length} error(s).</p>${table(
        ["item", "code", "message", "what to do"],
        s.last_sweep.errors.map((e) => [e.item, e.code, e.message, e.action]),
        "No errors.",
      )}`
    : "<p>Not yet run on this replica.</p>";
  return `${PAGE_HEAD("envelope-gate App status")}
<h1>envelope-gate App</h1><p>Generated ${esc(s.generated_at)} · store: ${esc(s.store)} · <a href="/status.json">JSON</a></p>
${summary}
<h2>Kill switch</h2>${kill}
<h2>Runner B's budget today (${esc(s.budget.day)}, resets ${esc(s.budget.resets_at)})</h2>
<p>Each dispatch is charged ${s.budget.charged_until_measured_minutes} minutes until GitHub's timing of its run is read; a reading is trusted ${s.budget.measurement_trusted_minutes} minutes. Configured caps: installation ${s.budget.defaults.installation.dispatchesPerDay} dispatches / ${s.budget.defaults.installation.minutesPerDay} minutes, repository ${s.budget.defaults.repository.dispatchesPerDay} / ${s.budget.defaults.repository.minutesPerDay}.</p>
${table(
  ["scope", "dispatches used", "dispatches left", "minutes charged", "minutes left", "measured", "override"],
  s.budget.scopes.map((b) => [
    b.scope,
    `${b.dispatches_used} of ${b.dispatches_cap}`,
    new Raw(b.dispatches_left === 0 ? `<span class="overdue">0</span>` : String(b.dispatches_left)),
    `${b.minutes_charged} of ${b.minutes_cap}`,
    b.minutes_left,
    `${b.measured} of ${b.dispatches_used}`,
    b.override ? `by ${b.override.by} at ${b.override.at}: ${b.override.reason}` : "—",
  ]),
  "No runner-B dispatch reserved today.",
)}
<h3>Last budget refusals</h3>${table(
    ["decided", "dual run", "repository", "code", "detail"],
    s.budget.refusals.map((r) => [r.at ?? "—", r.dual_run, r.repository, r.code ?? "", r.detail ?? ""]),
    "None.",
  )}
<h2>Switch history</h2>${table(
    ["#", "at", "switch", "state", "kind", "by", "reason"],
    s.switch_history.map((h) => [
      h.seq,
      h.at,
      h.switch,
      new Raw(`<code>${esc(h.state)}</code>`),
      new Raw(h.kind === "revert" ? `<span class="overdue">revert</span>` : esc(h.kind)),
      h.actor,
      h.reason,
    ]),
    "No change recorded.",
  )}
<h2>Webhooks arriving</h2>${intakeSection(s)}
<h2>Failed deliveries</h2>${deliveriesTable(s.deliveries.failed, "None.")}
<h2>Stuck deliveries</h2>${deliveriesTable(s.deliveries.stuck, "None.")}
<h2>Deliveries held during a pause</h2>${deliveriesTable(s.deliveries.refused_paused, "None.")}
<h2>GitHub API budget</h2>${gitHubBudgetSection(s)}
<h2>Redelivery sweep</h2>${redeliverySection(s)}
<h2>Installations</h2>${table(
    ["installation", "account", "mode", "promoted"],
    s.installations.map((i) => [i.installation_id, i.account, i.mode, i.promoted_at ?? "—"]),
    "No installation has sent a webhook yet.",
  )}
<h2>Dual runs in flight</h2>${table(
    ["dual run", "repository", "head", "state", "failing properties", "deadline", "minutes left"],
    s.dual_runs_in_flight.map((d) => [
      d.id,
      d.repository,
      d.head_sha.slice(0, 12),
      d.state,
      d.properties.join(", "),
      d.deadline_at,
      d.minutes_left,
    ]),
    "None.",
  )}
<h2>Open ledger PRs</h2>${table(
    ["freeze", "repository", "property", "PR", "waiting for review", "expires"],
    s.open_ledger_prs.map((p) => [
      p.freeze_id,
      p.repository,
      p.property,
      link(p.pr_url, p.pr_url ?? "—"),
      new Raw(
        p.reviewed ? "reviewed" : `<span class="${p.overdue ? "overdue" : ""}">${p.waiting_hours} h${p.overdue ? " — OVERDUE" : ""}</span>`,
      ),
      p.expires_on,
    ]),
    "None.",
  )}
<h2>Ledger PRs refused or closed by the App</h2>${table(
    ["freeze", "repository", "property", "branch", "PR", "state", "code", "detail", "at"],
    s.refused_ledger_prs.map((p) => [
      p.freeze_id,
      p.repository,
      p.property,
      p.branch,
      link(p.pr_url, p.pr_url ?? "—"),
      p.state,
      p.code,
      p.detail ?? "",
      p.at ?? "",
    ]),
    "None.",
  )}
<h2>Freezes expiring within 3 days</h2>${table(
    ["freeze", "repository", "property", "expires", "state", "days left"],
    s.freezes_expiring_soon.map((f) => [f.freeze_id, f.repository, f.property, f.expires_on, f.state, f.days_left]),
    "None.",
  )}
<h2>Shadow proposals (would have opened)</h2>${table(
    ["freeze", "repository", "property", "branch", "expires", "row"],
    s.shadow_proposals.map((p) => [p.freeze_id, p.repository, p.property, p.branch, p.expires_on, new Raw(`<code>${esc(p.row)}</code>`)]),
    "None.",
  )}
<h2>Runs refused as runner A or B</h2><p>Gate workflow runs GitHub's API did not show to be runner A (a pull_request or pull_request_review run of the base's workflow file on the pull request's current head) or runner B (the App's own dispatch). None of them starts or decides a dual run.</p>${table(
    ["refused", "repository", "run", "as", "event", "commit", "dual run", "code", "reason"],
    s.refused_runs.map((r) => [
      r.at,
      r.repository,
      `${r.run_id} (attempt ${r.run_attempt})`,
      r.role === "runner_a" ? "runner A" : "runner B",
      r.event ?? "—",
      (r.head_sha ?? "").slice(0, 12) || "—",
      r.dual_run ?? "—",
      r.code,
      r.reason,
    ]),
    "None.",
  )}
<h2>Envelope PRs from audit runs</h2><p>One per repository, proposed from the default branch's latest verified audit runs; it only ever adds entries. Closed with a code: the App refused or closed it (a foreign branch or PR, a push to its branch, a retarget).</p>${table(
    ["updated", "repository", "branch", "onto", "state", "mode", "pull request", "commit", "runs", "code", "detail"],
    s.envelope_prs.map((e) => [
      e.updated_at,
      e.repository,
      e.branch,
      e.base,
      e.state,
      e.mode,
      link(e.url, e.pull === null ? "—" : `#${e.pull}`),
      (e.commit ?? "").slice(0, 12) || "—",
      e.runs,
      e.code ?? "—",
      e.detail ?? "",
    ]),
    "None.",
  )}
<h2>Audit runs</h2><p>Push runs of the gate workflow, judged for envelope PRs: verified (an audit bundle of a run on the default branch), ignored (not an audit bundle) or refused, with the code.</p>${table(
    ["recorded", "repository", "run", "branch", "commit", "state", "code", "reason"],
    s.audit_runs.map((a) => [
      a.at,
      a.repository,
      `${a.run_id} (attempt ${a.run_attempt})`,
      a.branch ?? "—",
      (a.head_sha ?? "").slice(0, 12) || "—",
      a.state,
      a.code ?? "—",
      a.reason ?? "",
    ]),
    "None.",
  )}
<h2>Verified checks</h2>${table(
    ["repository", "run", "commit", "state", "conclusion", "code"],
    s.verified_checks.map((c) => [
      c.repository,
      `${c.run_id} (attempt ${c.run_attempt})`,
      c.head_sha.slice(0, 12),
      c.state,
      c.conclusion ?? "—",
      c.code ?? "",
    ]),
    "None yet.",
  )}
<h2>Verified commits</h2><p>The verified check per commit: the conjunction of its open pull requests, each against its current base. A check of the same name another source posted (a job token's) is listed here and never counted.</p>${table(
    ["repository", "commit", "conclusion", "code", "pull requests", "checks of the same name from another source"],
    s.verified_heads.map((h) => [
      h.repository,
      h.head_sha.slice(0, 12),
      h.conclusion ?? "—",
      h.code ?? "",
      h.pulls.map((p) => `#${p.number} into ${p.base_ref}: ${p.conclusion}`).join("; ") || "none open",
      h.foreign_checks
        .map((f) => `check run ${f.id} by ${f.app_slug ?? "?"} (app ${f.app_id ?? "?"}): ${f.conclusion ?? "pending"}`)
        .join("; "),
    ]),
    "None yet.",
  )}
<h2>Recent decisions</h2>${table(
    ["decided", "dual run", "repository", "commit", "pull request", "check run", "outcome", "code", "detail"],
    s.recent_decisions.map((d) => [
      d.decided_at ?? "—",
      d.id,
      d.repository,
      link(d.commit_url, d.head_sha.slice(0, 12)),
      d.pull_url ? link(d.pull_url, `#${d.pull_url.split("/").pop()}`) : "—",
      link(d.check_run_url, d.check_run_url ? "check run" : "—"),
      d.outcome,
      d.code ?? "",
      d.detail,
    ]),
    "None yet.",
  )}
<h2>Last sweep</h2>${sweep}
<h2>Crash-loop bound</h2><p>A replica id whose processes crashed ${s.crash_loop.limit} times within ${s.crash_loop.window_minutes} minutes does not serve until <code>envelope-gate app reset-crashes --replica ID --reason "…"</code> (or the crashes leave the window).</p>${table(
    ["replica", "crashes in the window", "last seen alive", "next start"],
    s.crash_loop.replicas.map((r) => [
      r.replica,
      r.crashes,
      r.last_crash_at,
      new Raw(r.start_refused ? `<span class="overdue">refused (APP_CRASH_LOOP)</span>` : "allowed"),
    ]),
    "No crash within the window.",
  )}
<h2>Replicas</h2>${table(
    ["replica", "last health check"],
    s.replicas.map((r) => [r.replica_id, r.last_health_check]),
    "No replica has answered /healthz yet.",
  )}
</body></html>`;
}

/** The page served when the store cannot be read: what failed and what to do, never a raw JSON body. */
/** The page served when the status could not be built: a store outage, or (any other code) a bug, said as such. */
export function renderStoreDownHtml(generatedAt: string, storeLabel: string, error: { code: string; message: string }): string {
  if (error.code !== "STORE_UNAVAILABLE") {
    return `${PAGE_HEAD("envelope-gate App status: not built")}
<h1>envelope-gate App</h1><p>Generated ${esc(generatedAt)} · store: ${esc(storeLabel)}</p>
<p class="alert" id="attention">The status page could not be built (${esc(error.code)}): ${esc(error.message)}</p>
<p>What to do: ${esc(hintOf(error.code))}</p>
</body></html>`;
  }
  return `${PAGE_HEAD("envelope-gate App status: store unavailable")}
<h1>envelope-gate App</h1><p>Generated ${esc(generatedAt)} · store: ${esc(storeLabel)}</p>
<p class="alert" id="attention">The store is unavailable (${esc(error.code)}): ${esc(error.message)}</p>
<p>While the store is down nothing is decided or sent: webhooks are answered 503 (GitHub shows them as failed; once the store is back,
the App's redelivery sweep asks GitHub to deliver them again), and every request to GitHub is refused because the kill switch cannot be read.</p>
<p>What to do: check the database named above is running and reachable from this host, and <a href="/healthz">/healthz</a>, which says
which check fails. This page shows the App's state again as soon as the store answers.</p>
</body></html>`;
}
