import { createHash } from "node:crypto";
import { hintOf } from "../core/errors.js";
import { count, relativeTime, utcText } from "../core/human.js";
import { escapeHtml, safeHref } from "../core/markdown.js";
import { PRODUCT } from "../core/version.js";
import type { StatusSnapshot } from "./status.js";

/**
 * The status page's HTML: server-rendered, no script, no external resource (the App may run with
 * no egress), its one inline style allowed by hash in its Content-Security-Policy.
 */

/**
 * The one HTML escape of the page: every string from the store (repository names, properties,
 * branches, rows, details, messages, reasons) goes through it; what is not escaped is markup of
 * ours (`Raw`) or a number we computed.
 */
const esc = escapeHtml;

class Raw {
  constructor(readonly html: string) {}
}

type DeliveryLine = StatusSnapshot["deliveries"]["failed"][number];

/** A time as "3 min ago (2026-12-05 06:02:38 UTC)"; hovering shows the exact ISO value. */
type When = (isoTime: string | null, none?: string) => Raw;

function whenAt(now: number): When {
  return (isoTime, none = "—") => {
    const at = isoTime === null ? NaN : Date.parse(isoTime);
    if (Number.isNaN(at)) return new Raw(esc(none));
    return new Raw(
      `<time datetime="${esc(isoTime)}" title="${esc(isoTime)}">${esc(relativeTime(at, now))}</time> <span class="utc">(${esc(utcText(at))})</span>`,
    );
  };
}

const html = (c: unknown): string => (c instanceof Raw ? c.html : esc(c));

/** A table in its own horizontal scroller: a wide table scrolls, the page does not. */
function table(headers: string[], rows: unknown[][], empty: string): string {
  if (rows.length === 0) return `<p class="empty">${esc(empty)}</p>`;
  return `<div class="scroll"><table><tr>${headers.map((h) => `<th>${esc(h)}</th>`).join("")}</tr>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${html(c)}</td>`).join("")}</tr>`)
    .join("")}</table></div>`;
}

/** A link to an http(s) address only; anything else is its text. */
const link = (href: string | null, text: string): Raw | string => {
  const safe = safeHref(href);
  return safe ? new Raw(`<a href="${esc(safe)}">${esc(text)}</a>`) : text;
};

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;padding:8px 16px;max-width:1200px}
h1{font-size:1.5em;margin:.4em 0}h2{font-size:1.25em;margin:1.2em 0 .4em}p,li,dd{overflow-wrap:anywhere}
.scroll{overflow-x:auto;margin:.5em 0 1.5em;max-width:100%}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}td{overflow-wrap:break-word;min-width:8em;max-width:32em}
.alert{background:#fdd;border:2px solid #c00;padding:8px;font-weight:bold}.ok{background:#dfd;padding:8px}.overdue{color:#c00;font-weight:bold}
.empty{color:#777}code{font-size:12px;overflow-wrap:anywhere}.utc{color:#555;white-space:nowrap}
.summary{list-style:none;padding:0;margin:.5em 0}.summary li{padding:4px 0;border-bottom:1px solid #eee}nav{margin:1em 0}
section{scroll-margin-top:8px}`;

/**
 * The page's Content-Security-Policy: nothing loads (no script, image, font or frame) and the one
 * inline style is allowed by its hash, so an escape bug could not run or fetch anything either.
 */
export const STATUS_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const PAGE_HEAD = (title: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body>`;

/** The page header: what serves it, when, from which store. */
const header = (when: When, generatedAt: string, store: string, json: boolean) =>
  `<header><h1>envelope-gate App status</h1><p>${esc(PRODUCT)} · generated ${when(generatedAt).html} · store: ${esc(store)}${
    json ? ` · <a href="/status.json">JSON</a>` : ""
  }</p></header>`;

function deliveriesTable(lines: DeliveryLine[], empty: string, when: When): string {
  return table(
    ["delivery", "event", "state", "received", "attempts", "code", "message", "what to do"],
    lines.map((d) => [
      new Raw(`<code>${esc(d.delivery_id)}</code>`),
      d.event,
      d.waiting_on === "github" ? `waiting on GitHub (${d.state})` : d.state,
      when(d.received_at),
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
  const n = (number: number, one: string, many: string, tail = "") => number > 0 && items.push(`${count(number, one, many)}${tail}`);
  if (s.kill_switch.paused) items.push("the App is PAUSED");
  const waiting = s.deliveries.failed.filter((d) => d.waiting_on === "github").length;
  n(s.deliveries.failed.length - waiting, "failed delivery", "failed deliveries");
  n(waiting, "delivery", "deliveries", ` waiting on GitHub at ${s.github_api_url} (GITHUB_UNAVAILABLE)`);
  n(s.deliveries.stuck.length, "stuck delivery", "stuck deliveries");
  n(s.deliveries.refused_paused.length, "delivery", "deliveries", " held during a pause");
  n(s.last_sweep?.errors.length ?? 0, "sweep error", "sweep errors");
  n(s.open_ledger_prs.filter((p) => p.overdue).length, "overdue ledger PR review", "overdue ledger PR reviews");
  n(
    s.budget.scopes.filter((b) => b.dispatches_left === 0 || b.minutes_left < s.budget.charged_until_measured_minutes).length,
    "budget",
    "budgets",
    " exhausted for today",
  );
  n(s.crash_loop.replicas.filter((r) => r.start_refused).length, "replica", "replicas", " whose next start is refused (APP_CRASH_LOOP)");
  n(
    s.refused_runs.filter((r) => r.role === "runner_b").length,
    "run",
    "runs",
    " that named a dual run but were not the App's dispatch (RUNNER_B_UNVERIFIED)",
  );
  if (!s.redelivery.switch.enabled) items.push("the redelivery sweep is OFF (deliveries GitHub failed to deliver are not asked for again)");
  n(
    s.redelivery.problems.filter((p) => p.state === "exhausted" || p.state === "expired").length,
    "delivery",
    "deliveries",
    " the redelivery sweep gave up on",
  );
  n(
    s.redelivery.last_pass?.errors.filter((e) => e.code === "REDELIVERY_LIST_REFUSED").length ?? 0,
    "redelivery listing",
    "redelivery listings",
    " refused by GitHub",
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
    "ledger PR",
    "ledger PRs",
    " refused or closed by the App in the last 24 h (a branch, PR or push it did not make)",
  );
  n(
    s.switch_history.filter((h) => h.kind === "revert" && h.at !== null && Date.parse(h.at) >= dayAgo).length,
    "unrecorded switch change",
    "unrecorded switch changes",
    " reverted by the watchdog in the last 24 h (see the switch history)",
  );
  return items;
}

/** The installation with the least of its GitHub API budget left: the one that waits first. */
function lowestRateLimit(s: StatusSnapshot) {
  const read = s.github_budget.installations.filter((r) => r.resource === "core" && r.remaining !== null && r.limit !== null);
  return read.sort((a, b) => (a.remaining as number) / (a.limit as number) - (b.remaining as number) / (b.limit as number))[0] ?? null;
}

/** The first thing on the page: one line per question an operator comes with, each linking to its section. */
function summary(s: StatusSnapshot, when: When, todo: string[]): string {
  const item = (href: string, label: string, body: string) => `<li><a href="#${href}">${esc(label)}</a>: ${body}</li>`;
  const k = s.kill_switch;
  const kill = k.paused
    ? `<span class="overdue">PAUSED</span> since ${when(k.changed_at, "an unrecorded time").html}`
    : "running (kill switch off)";
  const d = s.delivery_counts;
  const failing = s.deliveries.failed.length + s.deliveries.stuck.length;
  const deliveries = `${esc(`${d.received} received: ${d.processed} processed, ${d.failed} failed, ${d.in_progress} in progress`)}`;
  const v = s.verdicts;
  const rate = lowestRateLimit(s);
  const rateText = rate
    ? `${esc(`${(rate.remaining as number).toLocaleString("en-US")} of ${(rate.limit as number).toLocaleString("en-US")} calls left (${((rate.limit as number) - (rate.remaining as number)).toLocaleString("en-US")} spent)`)}${
        s.github_budget.installations.length > 1 ? ` on installation ${esc(rate.installation_id)}, the lowest` : ""
      }, resets ${when(rate.resets_at, "at an unknown time").html}${rate.reset_passed ? " (reset since)" : ""}`
    : "no answer from GitHub read yet";
  const attentionText = todo.length === 0 ? "nothing" : `<span class="overdue">${esc(count(todo.length, "item", "items"))}</span>`;
  return `<ul class="summary">
${item("attention", "Needs attention", attentionText)}
${item("kill-switch", "Kill switch", kill)}
${item("webhooks", `Deliveries in the last ${s.window.hours} hours`, deliveries)}
${item("failed-deliveries", "Failures needing attention", esc(failing === 0 ? "none" : `${count(s.deliveries.failed.length, "failed delivery", "failed deliveries")}, ${s.deliveries.stuck.length} stuck`))}
${item("verified-checks", `Verdicts in the last ${s.window.hours} hours`, esc(`${v.pass} pass, ${v.envelope_fail} envelope_fail, ${v.error} error`))}
${item("github-budget", "GitHub API budget", rateText)}
</ul>${
    todo.length > 0
      ? `<p class="alert" id="attention">Needs attention: ${todo.map(esc).join("; ")}.</p>`
      : `<p class="ok" id="attention">Nothing needs attention.</p>`
  }`;
}

function intakeSection(s: StatusSnapshot, when: When): string {
  const d = s.deliveries;
  const lines = [
    `Last delivery recorded (any replica): ${when(d.last_received_at, "never").html} · ${esc(count(d.total, "delivery", "deliveries"))} recorded in all.`,
  ];
  if (s.intake) {
    const refused = Object.entries(s.intake.refused).map(([code, n]) => `${esc(code)} × ${n}`);
    lines.push(
      `This replica: last request to /webhook ${when(s.intake.last_request_at, "never").html}, last accepted ${when(s.intake.last_accepted_at, "never").html}.`,
    );
    lines.push(`Refused before anything was recorded: ${refused.length > 0 ? refused.join(", ") : "none"}.`);
    if (s.intake.last_refused) {
      const r = s.intake.last_refused;
      lines.push(
        `Last refusal ${when(r.at).html}: ${esc(r.code)} (${esc(r.message)})${r.code === "WEBHOOK_SIGNATURE_INVALID" ? ". If every delivery is refused so, the webhook secret differs from the App's settings on GitHub." : ""}`,
      );
    }
  }
  return lines.map((l) => `<p>${l}</p>`).join("");
}

function redeliverySection(s: StatusSnapshot, when: When): string {
  const r = s.redelivery;
  const sw = r.switch.enabled
    ? `<p class="ok">On${r.switch.at ? ` (turned on ${when(r.switch.at).html} by ${esc(r.switch.by)}: ${esc(r.switch.reason)})` : ""}: deliveries GitHub recorded as failed and the App never recorded are asked for again.</p>`
    : `<p class="alert">OFF since ${when(r.switch.at, "an unrecorded time").html} by ${esc(r.switch.by)}: ${esc(r.switch.reason)}. GitHub does not redeliver by itself: turn it on with <code>envelope-gate app redelivery on --reason "…"</code>.</p>`;
  const mark = r.mark === null ? "none yet" : when(r.mark).html;
  const p = r.last_pass;
  const w = r.walk;
  const walk = w
    ? `<p>Walk in progress since ${when(w.started_at).html}: ${esc(count(w.pages, "page"))} in ${esc(count(w.passes, "pass", "passes"))}, back to ${when(w.oldest_listed).html} of the mark ${mark}; deliveries newer than ${when(w.newest).html} are the next walk's; ${esc(count(w.open, "delivery", "deliveries"))} left open so far.</p>`
    : "";
  const b = r.backlog_expired;
  const lost = b
    ? `<p class="alert">${esc(b.code)} (found ${when(b.found_at).html}): ${esc(b.message)}. What to do: ${esc(b.action)}</p>`
    : "";
  const last = p
    ? `<p>Last pass ${when(p.at).html} by ${esc(p.by)}${p.skipped ? ` (skipped: ${esc(p.skipped)})` : ""}: ${esc(count(p.listed, "attempt"))} listed in ${esc(count(p.pages, "page"))}, ${esc(count(p.deliveries, "delivery", "deliveries"))}, ${esc(p.failed)} failed on GitHub, ${esc(p.recorded)} of them recorded by the App anyway, ${esc(p.requested.length)} asked again, ${esc(p.pending)} pending, ${esc(p.deferred)} left for the next pass${p.truncated ? ", not back to the mark yet: the next pass resumes the walk where this one stopped" : ""}. Mark: ${mark}.</p>${walk}${lost}${table(
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
      when(x.first_failed_at),
      x.code ?? "",
      x.message ?? "",
      x.action,
    ]),
    "None given up or refused.",
  )}`;
}

function gitHubBudgetSection(s: StatusSnapshot, when: When): string {
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
      when(r.resets_at),
      new Raw(`${when(r.observed_at).html} by ${esc(r.observed_by)}`),
      when(r.retry_after_until),
      r.deferring.length > 0 ? r.deferring.join(", ") : "nothing",
    ]),
    "No answer from GitHub read yet.",
  );
  const deferred = table(
    ["delivery", "event", "received", "resumes", "message"],
    s.deliveries.deferred.map((d) => [
      new Raw(`<code>${esc(d.delivery_id)}</code>`),
      d.event,
      when(d.received_at),
      when(d.resumes_at ?? null),
      d.message ?? "",
    ]),
    "No work deferred.",
  );
  return `${order}${readings}<h3>Deferred deliveries (GITHUB_BUDGET_LOW)</h3>${deferred}`;
}

interface Section {
  id: string;
  title: string;
  body: string;
}

/** Every section below the summary, in page order; each has an anchor and a line in the contents. */
function sections(s: StatusSnapshot, when: When): Section[] {
  const k = s.kill_switch;
  const kill = k.paused
    ? `<p class="alert">PAUSED since ${when(k.changed_at, "an unrecorded time").html} by ${esc(k.changed_by)}: ${esc(k.reason)}. No dispatch, PR, comment or check is sent. Resume with <code>envelope-gate app resume</code>.</p>`
    : `<p class="ok">Running (kill switch off${k.changed_at ? `, last changed ${when(k.changed_at).html} by ${esc(k.changed_by)}` : ""}).</p>`;
  const sweep = s.last_sweep
    ? `<p>${when(s.last_sweep.at).html}: ${esc(count(s.last_sweep.errors.length, "error"))}.</p>${table(
        ["item", "code", "message", "what to do"],
        s.last_sweep.errors.map((e) => [e.item, e.code, e.message, e.action]),
        "No errors.",
      )}`
    : "<p>Not yet run on this replica.</p>";
  const budget = s.budget;
  return [
    { id: "kill-switch", title: "Kill switch", body: kill },
    {
      id: "runner-b-budget",
      title: "Runner B's budget today",
      body: `<p>Day ${esc(budget.day)} (UTC), resets ${when(budget.resets_at).html}. Each dispatch is charged ${esc(count(budget.charged_until_measured_minutes, "minute"))} until GitHub's timing of its run is read; a reading is trusted ${esc(count(budget.measurement_trusted_minutes, "minute"))}. Configured caps: installation ${esc(count(budget.defaults.installation.dispatchesPerDay, "dispatch", "dispatches"))} / ${esc(count(budget.defaults.installation.minutesPerDay, "minute"))}, repository ${esc(budget.defaults.repository.dispatchesPerDay)} / ${esc(budget.defaults.repository.minutesPerDay)}.</p>
${table(
  ["scope", "dispatches used", "dispatches left", "minutes charged", "minutes left", "measured", "override"],
  budget.scopes.map((b) => [
    b.scope,
    `${b.dispatches_used} of ${b.dispatches_cap}`,
    new Raw(b.dispatches_left === 0 ? `<span class="overdue">0</span>` : String(b.dispatches_left)),
    `${b.minutes_charged} of ${b.minutes_cap}`,
    b.minutes_left,
    `${b.measured} of ${b.dispatches_used}`,
    b.override ? new Raw(`by ${esc(b.override.by)} ${when(b.override.at).html}: ${esc(b.override.reason)}`) : "—",
  ]),
  "No runner-B dispatch reserved today.",
)}
<h3>Last budget refusals</h3>${table(
        ["decided", "dual run", "repository", "code", "detail"],
        budget.refusals.map((r) => [when(r.at), r.dual_run, r.repository, r.code ?? "", r.detail ?? ""]),
        "None.",
      )}`,
    },
    {
      id: "switch-history",
      title: "Switch history",
      body: table(
        ["#", "at", "switch", "state", "kind", "by", "reason"],
        s.switch_history.map((h) => [
          h.seq,
          when(h.at, "not recorded"),
          h.switch,
          new Raw(`<code>${esc(h.state)}</code>`),
          new Raw(h.kind === "revert" ? `<span class="overdue">revert</span>` : esc(h.kind)),
          h.actor,
          h.reason,
        ]),
        "No change recorded.",
      ),
    },
    { id: "webhooks", title: "Webhooks arriving", body: intakeSection(s, when) },
    { id: "failed-deliveries", title: "Failed deliveries", body: deliveriesTable(s.deliveries.failed, "None.", when) },
    { id: "stuck-deliveries", title: "Stuck deliveries", body: deliveriesTable(s.deliveries.stuck, "None.", when) },
    { id: "held-deliveries", title: "Deliveries held during a pause", body: deliveriesTable(s.deliveries.refused_paused, "None.", when) },
    { id: "github-budget", title: "GitHub API budget", body: gitHubBudgetSection(s, when) },
    { id: "redelivery", title: "Redelivery sweep", body: redeliverySection(s, when) },
    {
      id: "installations",
      title: "Installations",
      body: table(
        ["installation", "account", "mode", "promoted"],
        s.installations.map((i) => [i.installation_id, i.account, i.mode, when(i.promoted_at)]),
        "No installation has sent a webhook yet.",
      ),
    },
    {
      id: "dual-runs",
      title: "Dual runs in flight",
      body: table(
        ["dual run", "repository", "head", "state", "failing properties", "deadline", "minutes left"],
        s.dual_runs_in_flight.map((d) => [
          d.id,
          d.repository,
          d.head_sha.slice(0, 12),
          d.state,
          d.properties.join(", "),
          when(d.deadline_at),
          d.minutes_left,
        ]),
        "None.",
      ),
    },
    {
      id: "open-ledger-prs",
      title: "Open ledger PRs",
      body: table(
        ["freeze", "repository", "property", "PR", "waiting for review", "expires"],
        s.open_ledger_prs.map((p) => [
          p.freeze_id,
          p.repository,
          p.property,
          link(p.pr_url, p.pr_url ?? "—"),
          new Raw(
            p.reviewed
              ? "reviewed"
              : `<span class="${p.overdue ? "overdue" : ""}">${p.waiting_hours} h${p.overdue ? " — OVERDUE" : ""}</span>`,
          ),
          p.expires_on,
        ]),
        "None.",
      ),
    },
    {
      id: "refused-ledger-prs",
      title: "Ledger PRs refused or closed by the App",
      body: table(
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
          when(p.at, ""),
        ]),
        "None.",
      ),
    },
    {
      id: "expiring-freezes",
      title: "Freezes expiring within 3 days",
      body: table(
        ["freeze", "repository", "property", "expires", "state", "days left"],
        s.freezes_expiring_soon.map((f) => [f.freeze_id, f.repository, f.property, f.expires_on, f.state, f.days_left]),
        "None.",
      ),
    },
    {
      id: "shadow-proposals",
      title: "Shadow proposals (would have opened)",
      body: table(
        ["freeze", "repository", "property", "branch", "expires", "row"],
        s.shadow_proposals.map((p) => [
          p.freeze_id,
          p.repository,
          p.property,
          p.branch,
          p.expires_on,
          new Raw(`<code>${esc(p.row)}</code>`),
        ]),
        "None.",
      ),
    },
    {
      id: "refused-runs",
      title: "Runs refused as runner A or B",
      body: `<p>Gate workflow runs GitHub's API did not show to be runner A (a pull_request or pull_request_review run of the base's workflow file on the pull request's current head) or runner B (the App's own dispatch). None of them starts or decides a dual run.</p>${table(
        ["refused", "repository", "run", "as", "event", "commit", "dual run", "code", "reason"],
        s.refused_runs.map((r) => [
          when(r.at),
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
      )}`,
    },
    {
      id: "envelope-prs",
      title: "Envelope PRs from audit runs",
      body: `<p>One per repository, proposed from the default branch's latest verified audit runs; it only ever adds entries. Closed with a code: the App refused or closed it (a foreign branch or PR, a push to its branch, a retarget).</p>${table(
        ["updated", "repository", "branch", "onto", "state", "mode", "pull request", "commit", "runs", "code", "detail"],
        s.envelope_prs.map((e) => [
          when(e.updated_at),
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
      )}`,
    },
    {
      id: "org-envelopes",
      title: "Organisation envelopes",
      body: `<p>Each owner's organisation envelope, read from its <code>.github</code> repository's default branch at every verified check: its digest, the commit it came from, and when it last changed. A change applies only once merged there.</p>${table(
        ["owner", "state", "envelope", "digest", ".github commit", "changed", "read", "exceptions", "detail"],
        s.org_envelopes.map((o) => [
          o.owner,
          o.state,
          o.ceiling_id ?? "—",
          o.digest ?? "—",
          (o.source_sha ?? "").slice(0, 12) || "—",
          when(o.changed_at),
          when(o.read_at),
          o.exceptions.join("; ") || "—",
          o.detail,
        ]),
        "None read yet.",
      )}${table(
        ["repository", "result", "outside", "judged under", "widenings or reason", "exceptions", "touched beyond the baseline", "checked"],
        s.ceiling_results.map((c) => [
          c.repository,
          c.outcome,
          c.outside ? "OUTSIDE" : "—",
          `${c.digest ?? "—"}${c.current ? "" : " (an earlier organisation envelope)"}`,
          c.detail.join("; ") || "—",
          c.exceptions.join("; ") || "—",
          c.footprint === null
            ? "—"
            : [
                ...c.footprint.hosts.map((h) => `host ${h}`),
                ...c.footprint.env.map((k) => `key ${k}`),
                ...c.footprint.commands.map((x) => `command ${x}`),
              ].join(", ") || "nothing",
          when(c.checked_at),
        ]),
        "No repository judged yet.",
      )}`,
    },
    {
      id: "audit-runs",
      title: "Audit runs",
      body: `<p>Push runs of the gate workflow, judged for envelope PRs: verified (an audit bundle of a run on the default branch), ignored (not an audit bundle) or refused, with the code.</p>${table(
        ["recorded", "repository", "run", "branch", "commit", "state", "code", "reason"],
        s.audit_runs.map((a) => [
          when(a.at),
          a.repository,
          `${a.run_id} (attempt ${a.run_attempt})`,
          a.branch ?? "—",
          (a.head_sha ?? "").slice(0, 12) || "—",
          a.state,
          a.code ?? "—",
          a.reason ?? "",
        ]),
        "None.",
      )}`,
    },
    {
      id: "verified-checks",
      title: "Verified checks",
      body: table(
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
      ),
    },
    {
      id: "verified-commits",
      title: "Verified commits",
      body: `<p>The verified check per commit: the conjunction of its open pull requests, each against its current base. A check of the same name another source posted (a job token's) is listed here and never counted.</p>${table(
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
      )}`,
    },
    {
      id: "decisions",
      title: "Recent decisions",
      body: table(
        ["decided", "dual run", "repository", "commit", "pull request", "check run", "outcome", "code", "detail"],
        s.recent_decisions.map((d) => [
          when(d.decided_at),
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
      ),
    },
    { id: "last-sweep", title: "Last sweep", body: sweep },
    {
      id: "crash-loop",
      title: "Crash-loop bound",
      body: `<p>A replica id whose processes crashed ${esc(count(s.crash_loop.limit, "time"))} within ${esc(count(s.crash_loop.window_minutes, "minute"))} does not serve until <code>envelope-gate app reset-crashes --replica ID --reason "…"</code> (or the crashes leave the window).</p>${table(
        ["replica", "crashes in the window", "last seen alive", "next start"],
        s.crash_loop.replicas.map((r) => [
          r.replica,
          r.crashes,
          when(r.last_crash_at),
          new Raw(r.start_refused ? `<span class="overdue">refused (APP_CRASH_LOOP)</span>` : "allowed"),
        ]),
        "No crash within the window.",
      )}`,
    },
    {
      id: "replicas",
      title: "Replicas",
      body: table(
        ["replica", "last health check"],
        s.replicas.map((r) => [r.replica_id, when(r.last_health_check)]),
        "No replica has answered /healthz yet.",
      ),
    },
  ];
}

/**
 * The read-only status page. No forms, no actions: operators change state with the CLI. Times
 * are said relative to `now` (the App's clock when the page is rendered) beside their exact UTC.
 */
export function renderStatusHtml(s: StatusSnapshot, now: number): string {
  const when = whenAt(now);
  const parts = sections(s, when);
  const contents = parts.map((p) => `<a href="#${p.id}">${esc(p.title)}</a>`).join(" · ");
  return `${PAGE_HEAD("envelope-gate App status")}
${header(when, s.generated_at, s.store, true)}
<main>
<section id="summary"><h2>Summary</h2>${summary(s, when, attention(s))}</section>
<nav aria-label="Sections">Sections: ${contents}</nav>
${parts.map((p) => `<section id="${p.id}"><h2>${esc(p.title)}</h2>${p.body}</section>`).join("\n")}
</main>
</body></html>`;
}

/** The page served when the status could not be built: a store outage, or (any other code) a bug, said as such. */
export function renderStoreDownHtml(now: number, storeLabel: string, error: { code: string; message: string }): string {
  const top = header(whenAt(now), new Date(now).toISOString(), storeLabel, false);
  if (error.code !== "STORE_UNAVAILABLE") {
    return `${PAGE_HEAD("envelope-gate App status: not built")}
${top}
<p class="alert" id="attention">The status page could not be built (${esc(error.code)}): ${esc(error.message)}</p>
<p>What to do: ${esc(hintOf(error.code))}</p>
</body></html>`;
  }
  return `${PAGE_HEAD("envelope-gate App status: store unavailable")}
${top}
<p class="alert" id="attention">The store is unavailable (${esc(error.code)}): ${esc(error.message)}</p>
<p>While the store is down nothing is decided or sent: webhooks are answered 503 (GitHub shows them as failed; once the store is back,
the App's redelivery sweep asks GitHub to deliver them again), and every request to GitHub is refused because the kill switch cannot be read.</p>
<p>What to do: check the database named above is running and reachable from this host, and <a href="/healthz">/healthz</a>, which says
which check fails. This page shows the App's state again as soon as the store answers.</p>
</body></html>`;
}
