import { utcDate } from "../core/ledger.js";
import type { Store } from "../store/index.js";
import { reviewOverdue } from "./freeze.js";
import type { SweepReport } from "./sweep.js";

export interface StatusSnapshot {
  generated_at: string;
  store: string;
  kill_switch: { paused: boolean; reason: string | null; changed_by: string | null; changed_at: string | null };
  installations: { installation_id: number; account: string | null; mode: string; promoted_at: string | null }[];
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
  recent_decisions: { id: string; repository: string; outcome: string | null; code: string | null; detail: string | null }[];
  last_sweep: { at: string; report: SweepReport } | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export async function statusSnapshot(
  store: Store,
  now: number,
  options: { storeLabel: string; reviewAlertMs: number; lastSweep: { at: number; report: SweepReport } | null },
): Promise<StatusSnapshot> {
  const kill = await store.killSwitch();
  const installations = await store.listInstallations();
  const inFlight = await store.listDualRuns(["pending", "dispatching", "waiting", "comparing", "decided", "reporting"]);
  const opened = await store.listLedgerPrs(["opened"]);
  const shadowed = await store.listLedgerPrs(["shadowed"]);
  const standing = await store.listLedgerPrs(["opened", "merged"]);
  const today = utcDate(new Date(now));
  const soon = utcDate(new Date(now + 3 * 86_400_000));
  const recent = (await store.recentDualRuns(20)).filter((d) => d.state === "done");
  return {
    generated_at: new Date(now).toISOString(),
    store: options.storeLabel,
    kill_switch: { paused: kill.paused, reason: kill.reason, changed_by: kill.changed_by, changed_at: iso(kill.changed_at) },
    installations: installations.map((i) => ({
      installation_id: i.installation_id,
      account: i.account,
      mode: i.mode,
      promoted_at: iso(i.promoted_at === null ? null : Number(i.promoted_at)),
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
    recent_decisions: recent.map((d) => ({
      id: d.id,
      repository: d.repository,
      outcome: d.outcome,
      code: d.outcome_code,
      detail: d.outcome_detail,
    })),
    last_sweep: options.lastSweep ? { at: new Date(options.lastSweep.at).toISOString(), report: options.lastSweep.report } : null,
  };
}

function esc(v: unknown): string {
  return String(v ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function table(headers: string[], rows: unknown[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${esc(empty)}</p>`;
  return `<table><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${c instanceof Raw ? c.html : esc(c)}</td>`).join("")}</tr>`)
    .join("")}</table>`;
}

class Raw {
  constructor(readonly html: string) {}
}

/** The read-only status page. No forms, no actions: operators change state with the CLI. */
export function renderStatusHtml(s: StatusSnapshot): string {
  const kill = s.kill_switch.paused
    ? `<p class="alert">PAUSED since ${esc(s.kill_switch.changed_at)} by ${esc(s.kill_switch.changed_by)}: ${esc(s.kill_switch.reason)}. No dispatch, PR, comment or check is sent.</p>`
    : `<p class="ok">Running (kill switch off${s.kill_switch.changed_at ? `, last changed ${esc(s.kill_switch.changed_at)} by ${esc(s.kill_switch.changed_by)}` : ""}).</p>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>envelope-gate App status</title>
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
.alert{background:#fdd;border:2px solid #c00;padding:8px;font-weight:bold}.ok{background:#dfd;padding:8px}.overdue{color:#c00;font-weight:bold}.empty{color:#777}code{font-size:12px}</style></head><body>
<h1>envelope-gate App</h1><p>Generated ${esc(s.generated_at)} · store: ${esc(s.store)} · <a href="/status.json">JSON</a></p>
<h2>Kill switch</h2>${kill}
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
      p.pr_url ? new Raw(`<a href="${esc(p.pr_url)}">${esc(p.pr_url)}</a>`) : "—",
      new Raw(
        p.reviewed ? "reviewed" : `<span class="${p.overdue ? "overdue" : ""}">${p.waiting_hours} h${p.overdue ? " — OVERDUE" : ""}</span>`,
      ),
      p.expires_on,
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
<h2>Recent decisions</h2>${table(
    ["dual run", "repository", "outcome", "code", "detail"],
    s.recent_decisions.map((d) => [d.id, d.repository, d.outcome, d.code ?? "", d.detail]),
    "None yet.",
  )}
<h2>Last sweep</h2><p>${s.last_sweep ? `${esc(s.last_sweep.at)} — ${s.last_sweep.report.errors.length} error(s)` : "not yet"}</p>
</body></html>`;
}
