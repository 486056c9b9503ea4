import { hintOf } from "../core/errors.js";
import type { HookDelivery } from "../github/app-client.js";
import type { Store } from "../store/index.js";
import {
  finishRedeliveryPass,
  lastRedeliveryPass,
  recordedDeliveries,
  recordRedeliveryRequest,
  redeliveriesOf,
  redeliveryOverview,
  redeliverySwitch,
  settleRedelivery,
  stillOpen,
  takeRedeliveryPass,
  type BacklogExpired,
  type OpenDelivery,
  type PassOutcome,
  type RedeliveryRow,
  type RedeliveryState,
} from "../store/redelivery.js";
import type { RedeliveryPolicy } from "./config.js";
import { codeOf, type Clock, type Logger } from "./context.js";

/**
 * The redelivery sweep. GitHub never redelivers a failed delivery by itself ("Handling failed
 * webhook deliveries"): a delivery the App could not record (the store down, a crash before
 * the claim, a drain before this version) would be lost. So, on a schedule, one replica at a
 * time lists the App's deliveries back to its mark with the App's JWT, finds those GitHub
 * recorded as failed (no attempt with status "OK") whose guid the store never recorded, and
 * asks GitHub for one redelivery each, bounded per pass and per delivery.
 *
 * A walk back to the mark may take several passes: a pass lists at most MAX_PAGES pages and,
 * when it stops short of the mark, keeps its place (GitHub's cursor for the next page, the
 * newest attempt the walk listed first, the deliveries it left open) for the next pass, which
 * resumes there. Deliveries newer than the walk's first page are the next walk's. So any number
 * of deliveries after a failure is walked in ceil(pages / MAX_PAGES) passes, each page listed once.
 */

/** GitHub keeps deliveries, and redelivers them, for 3 days. */
const GITHUB_KEEPS_MS = 3 * 86_400_000;
/** A request whose new attempt GitHub has not listed after this long is taken as lost and may be asked again. */
const PENDING_MS = 10 * 60_000;
/** The first pass (no mark yet) looks back this far. */
const FIRST_LOOKBACK_MS = 3_600_000;
/** Listed again on every pass: an attempt that started before the newest listed one may be listed after it (GitHub waits 10 s). */
const MARK_OVERLAP_MS = 60_000;
/** Pages of 100 one pass lists at most; past that the walk is kept and the next pass resumes it. */
export const MAX_PAGES = 20;
/** How long a pass holds the lease before another replica may take it. */
const PASS_HOLD_MS = 5 * 60_000;

interface HookDeliveries {
  listHookDeliveries(cursor: string | null, perPage?: number): Promise<{ deliveries: HookDelivery[]; next: string | null }>;
  redeliverHook(deliveryId: number): Promise<void>;
}

export interface RedeliveryReport {
  at: string;
  by: string;
  /** Why the pass did nothing: `off` (the switch), `paused` (the kill switch), `busy` (another replica's pass). */
  skipped: "off" | "paused" | "busy" | null;
  pages: number;
  /** Delivery attempts listed, and the distinct deliveries among them. */
  listed: number;
  deliveries: number;
  /** Deliveries GitHub recorded as failed (no attempt "OK"). */
  failed: number;
  /** Of those, recorded by the App anyway (its sweeper or an operator has them): not asked for. */
  recorded: number;
  /** Asked to be redelivered on this pass (guids). */
  requested: string[];
  /** Asked before, GitHub's new attempt not listed yet: not asked again. */
  pending: number;
  /** Left for the next pass by the per-pass bound. */
  deferred: number;
  /** The listing stopped at MAX_PAGES before reaching the mark: the next pass resumes the walk from GitHub's cursor. */
  truncated: boolean;
  /** This pass resumed a walk an earlier pass could not finish. */
  resumed: boolean;
  /** The walk this pass belongs to: when it began, its passes and pages so far, the oldest attempt it listed. */
  walk: { started_at: string; passes: number; pages: number; oldest_listed: string | null } | null;
  mark_before: string | null;
  mark_after: string | null;
  errors: { item: string; code: string; message: string }[];
}

interface RedeliveryContext {
  store: Store;
  hooks: HookDeliveries;
  clock: Clock;
  log: Logger;
  owner: string;
  policy: RedeliveryPolicy;
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** One redelivery pass; errors are per item (the pass goes on) or of the listing (the mark stays). */
export async function redeliveryPass(ctx: RedeliveryContext): Promise<RedeliveryReport> {
  const now = ctx.clock.now();
  const report: RedeliveryReport = {
    at: new Date(now).toISOString(),
    by: ctx.owner,
    skipped: null,
    pages: 0,
    listed: 0,
    deliveries: 0,
    failed: 0,
    recorded: 0,
    requested: [],
    pending: 0,
    deferred: 0,
    truncated: false,
    resumed: false,
    walk: null,
    mark_before: null,
    mark_after: null,
    errors: [],
  };
  if (!(await redeliverySwitch(ctx.store)).enabled) return { ...report, skipped: "off" };
  if ((await ctx.store.killSwitch()).paused) return { ...report, skipped: "paused" };
  const lease = await takeRedeliveryPass(ctx.store, ctx.owner, now, PASS_HOLD_MS);
  if (lease === null) return { ...report, skipped: "busy" };
  let mark = lease.mark ?? now - FIRST_LOOKBACK_MS;
  report.mark_before = new Date(mark).toISOString();
  // Kept as it was unless the pass decides otherwise: an error keeps the walk and the mark.
  const outcome: PassOutcome = { mark: null, walk: lease.walk, waits: lease.waits };
  try {
    if (lease.walk === null && lease.waits !== null) {
      // A new walk: first let the mark pass what the last walk left open and is settled now.
      const open = await stillOpen(ctx.store, lease.waits.open);
      const moved = Math.max(mark, Math.min(lease.waits.caught_up, ...open.map((o) => o.first)));
      outcome.mark = moved;
      outcome.waits = open.length > 0 ? { open, caught_up: lease.waits.caught_up } : null;
      mark = moved;
    }
    await pass(ctx, report, outcome, mark, now);
  } catch (err) {
    report.errors.push({ item: "redelivery pass", code: codeOf(err), message: (err as Error).message });
  } finally {
    report.mark_after = new Date(outcome.mark ?? mark).toISOString();
    for (const e of report.errors) ctx.log("error", "redelivery.item_failed", { ...e, hint: hintOf(e.code) });
    if (report.requested.length > 0) ctx.log("info", "redelivery.requested", { deliveries: report.requested });
    await finishRedeliveryPass(ctx.store, ctx.owner, outcome, report);
  }
  return report;
}

/**
 * Lists this pass's pages of the walk (resumed from `outcome.walk`, else from the newest page),
 * decides and asks; sets in `outcome` the walk to resume, or, once the walk reached the mark,
 * the new mark and what it waits on. A listing error leaves the walk as it was.
 */
async function pass(ctx: RedeliveryContext, report: RedeliveryReport, outcome: PassOutcome, mark: number, now: number): Promise<void> {
  const resumed = outcome.walk;
  report.resumed = resumed !== null;
  const attempts = new Map<string, HookDelivery[]>();
  let cursor: string | null = resumed?.cursor ?? null;
  let reachedMark = false;
  let listingEnded = false;
  let newest: number | null = null;
  let oldest: number | null = null;
  while (report.pages < MAX_PAGES) {
    let page: { deliveries: HookDelivery[]; next: string | null };
    try {
      page = await ctx.hooks.listHookDeliveries(cursor);
    } catch (err) {
      const code = codeOf(err);
      report.errors.push({ item: "GET /app/hook/deliveries", code, message: (err as Error).message });
      // A cursor GitHub no longer takes: the next pass walks again from the newest page (the mark has not moved: nothing is skipped).
      if (code === "REDELIVERY_LIST_REFUSED" && cursor !== null) outcome.walk = null;
      return;
    }
    report.pages++;
    for (const d of page.deliveries) {
      report.listed++;
      const at = Date.parse(d.delivered_at);
      newest = newest === null ? at : Math.max(newest, at);
      oldest = oldest === null ? at : Math.min(oldest, at);
      const list = attempts.get(d.guid) ?? [];
      list.push(d);
      attempts.set(d.guid, list);
    }
    if (page.deliveries.some((d) => Date.parse(d.delivered_at) < mark)) {
      reachedMark = true;
      break;
    }
    if (page.next === null) {
      listingEnded = true;
      break;
    }
    cursor = page.next;
  }
  report.truncated = !reachedMark && !listingEnded;
  report.deliveries = attempts.size;
  const unresolved = await decide(ctx, report, attempts, mark, now);

  const walkNewest = resumed?.newest ?? newest;
  const walkOldest = resumed === null ? oldest : oldest === null ? resumed.oldest : Math.min(resumed.oldest, oldest);
  const open = mergeOpen(resumed?.open ?? [], unresolved);
  const passes = (resumed?.passes ?? 0) + 1;
  const pages = (resumed?.pages ?? 0) + report.pages;
  const startedAt = resumed?.started_at ?? now;
  report.walk = { started_at: new Date(startedAt).toISOString(), passes, pages, oldest_listed: isoOrNull(walkOldest) };
  if (report.truncated) {
    // Not back to the mark yet: keep the place; the next pass resumes from GitHub's cursor.
    outcome.walk = {
      cursor: cursor as string,
      newest: walkNewest ?? mark,
      oldest: walkOldest ?? mark,
      pages,
      passes,
      started_at: startedAt,
      open,
    };
    return;
  }
  outcome.walk = null;
  if (listingEnded && mark < now - GITHUB_KEEPS_MS) {
    // GitHub listed nothing older than the walk's oldest attempt, and the mark is older than GitHub keeps:
    // what failed between the mark and there was dropped before the sweep listed it.
    const to = Math.min(walkOldest ?? now - GITHUB_KEEPS_MS, now - GITHUB_KEEPS_MS);
    const expired: BacklogExpired = {
      from: mark,
      to,
      found_at: now,
      message: `deliveries from ${new Date(mark).toISOString()} to ${new Date(to).toISOString()} can no longer be redelivered: the sweep's mark is older than GitHub keeps deliveries (3 days) and GitHub lists nothing older than ${isoOrNull(walkOldest) ?? "now"}; a delivery that failed in that window is lost`,
    };
    outcome.backlogExpired = expired;
    report.errors.push({ item: "redelivery backlog", code: "REDELIVERY_BACKLOG_EXPIRED", message: expired.message });
  }
  const caughtUp = walkNewest === null ? null : walkNewest - MARK_OVERLAP_MS;
  const oldestOpen = open.length > 0 ? Math.min(...open.map((o) => o.first)) : null;
  const candidate = oldestOpen === null ? caughtUp : caughtUp === null ? oldestOpen : Math.min(oldestOpen, caughtUp);
  // The mark never moves back past where it was, nor forward past what was listed.
  outcome.mark = candidate === null ? null : Math.max(mark, candidate);
  outcome.waits = open.length > 0 && caughtUp !== null ? { open, caught_up: caughtUp } : null;
}

/** The open deliveries of a walk so far, one per guid, its earliest first attempt. */
function mergeOpen(before: readonly OpenDelivery[], found: readonly OpenDelivery[]): OpenDelivery[] {
  const out = new Map<string, number>();
  for (const o of [...before, ...found]) out.set(o.guid, Math.min(out.get(o.guid) ?? o.first, o.first));
  return [...out.entries()].map(([guid, first]) => ({ guid, first }));
}

/** Decides on each delivery this pass listed and asks for the failed ones; resolves those left open. */
async function decide(
  ctx: RedeliveryContext,
  report: RedeliveryReport,
  attempts: Map<string, HookDelivery[]>,
  mark: number,
  now: number,
): Promise<OpenDelivery[]> {
  const guids = [...attempts.keys()];
  const recorded = await recordedDeliveries(ctx.store, guids);
  const rows = await redeliveriesOf(ctx.store, guids);
  const unresolved: OpenDelivery[] = [];
  let limited = false;
  // Never asked first, then the oldest: a delivery that keeps failing does not starve the others.
  const ordered = [...attempts.entries()]
    .map(([guid, list]) => ({
      guid,
      list,
      first: Math.min(...list.map((d) => Date.parse(d.delivered_at))),
      firstId: Math.min(...list.map((d) => d.id)),
      asked: rows.get(guid)?.attempts ?? 0,
    }))
    .sort((a, b) => a.asked - b.asked || a.first - b.first || a.firstId - b.firstId);
  for (const { guid, list, first } of ordered) {
    // Listed only because its page crossed the mark: an earlier walk saw it.
    if (Math.max(...list.map((d) => Date.parse(d.delivered_at))) < mark) continue;
    const latest = list.reduce((a, b) => (b.id > a.id ? b : a));
    const ref = { guid, event: latest.event, hookDeliveryId: latest.id, firstFailedAt: first };
    const row = rows.get(guid);
    const settle = (state: Exclude<RedeliveryState, "requested">, code: string | null, message: string | null) =>
      settleRedelivery(ctx.store, ref, state, code, message, now);
    if (list.some((d) => d.status === "OK")) {
      if (row && (row.state === "requested" || row.state === "refused")) await settle("delivered", null, null);
      continue;
    }
    report.failed++;
    if (recorded.has(guid)) {
      // The App recorded it (a crash after the claim, before the answer; or a redelivery listed on an earlier page of the walk).
      report.recorded++;
      if (row && (row.state === "requested" || row.state === "refused")) await settle("delivered", null, null);
      continue;
    }
    if (row && (row.state === "exhausted" || row.state === "expired" || row.state === "delivered")) continue;
    if (first < now - GITHUB_KEEPS_MS) {
      const message = `delivery ${guid} (${latest.event}) failed at ${new Date(first).toISOString()}, more than 3 days ago: GitHub no longer redelivers it`;
      await settle("expired", "REDELIVERY_EXPIRED", message);
      report.errors.push({ item: guid, code: "REDELIVERY_EXPIRED", message });
      continue;
    }
    if (pendingRequest(row, latest, now)) {
      report.pending++;
      unresolved.push({ guid, first });
      continue;
    }
    const asked = row?.attempts ?? 0;
    if (asked >= ctx.policy.attemptsPerDelivery) {
      const message = `delivery ${guid} (${latest.event}) was redelivered ${asked} times and every attempt failed (last: ${latest.status}, HTTP ${latest.status_code})`;
      await settle("exhausted", "REDELIVERY_EXHAUSTED", message);
      report.errors.push({ item: guid, code: "REDELIVERY_EXHAUSTED", message });
      continue;
    }
    unresolved.push({ guid, first });
    if (limited || report.requested.length >= ctx.policy.perPass) {
      report.deferred++;
      continue;
    }
    if (!(await recordRedeliveryRequest(ctx.store, ref, asked, now))) continue;
    try {
      await ctx.hooks.redeliverHook(latest.id);
      report.requested.push(guid);
    } catch (err) {
      const code = codeOf(err);
      report.errors.push({ item: guid, code, message: (err as Error).message });
      if (code === "REDELIVERY_RATE_LIMITED") limited = true;
      // A refusal started nothing: recorded, asked again next pass. Any other failure may have
      // reached GitHub: the request stays pending, so it is not asked for twice at once.
      if (code === "REDELIVERY_REFUSED" || code === "REDELIVERY_RATE_LIMITED") await settle("refused", code, (err as Error).message);
    }
  }
  return unresolved;
}

/** Asked before, and GitHub has listed no newer attempt since, within PENDING_MS: still pending. */
function pendingRequest(row: RedeliveryRow | undefined, latest: HookDelivery, now: number): boolean {
  if (!row || row.state !== "requested" || row.requested_at === null) return false;
  return latest.id <= row.hook_delivery_id && now - row.requested_at < PENDING_MS;
}

export interface RedeliverySnapshot {
  switch: { enabled: boolean; by: string | null; reason: string | null; at: string | null };
  mark: string | null;
  running: string | null;
  /** A walk back to the mark that the next pass resumes (its place is GitHub's cursor), or null. */
  walk: { started_at: string; passes: number; pages: number; newest: string; oldest_listed: string; open: number } | null;
  /** The last window of deliveries found older than GitHub keeps before the sweep listed it (REDELIVERY_BACKLOG_EXPIRED). */
  backlog_expired: {
    from: string;
    to: string;
    found_at: string;
    code: "REDELIVERY_BACKLOG_EXPIRED";
    message: string;
    action: string;
  } | null;
  last_pass: RedeliveryReport | null;
  counts: Record<RedeliveryState, number>;
  /** Deliveries the sweep gave up on or GitHub refused to redeliver, newest first, with what to do. */
  problems: {
    guid: string;
    event: string;
    state: RedeliveryState;
    attempts: number;
    first_failed_at: string;
    code: string | null;
    message: string | null;
    action: string;
  }[];
}

/** The sweep's switch, mark, last pass and figures, from the store (status page, `app status`, `app redelivery`). */
export async function redeliverySnapshot(store: Store, _now: number): Promise<RedeliverySnapshot> {
  const sw = await redeliverySwitch(store);
  const { mark, running, last, walk, backlogExpired } = await lastRedeliveryPass(store);
  const { counts, problems } = await redeliveryOverview(store);
  return {
    switch: { enabled: sw.enabled, by: sw.by, reason: sw.reason, at: isoOrNull(sw.at) },
    mark: isoOrNull(mark),
    running,
    walk: walk && {
      started_at: new Date(walk.started_at).toISOString(),
      passes: walk.passes,
      pages: walk.pages,
      newest: new Date(walk.newest).toISOString(),
      oldest_listed: new Date(walk.oldest).toISOString(),
      open: walk.open.length,
    },
    backlog_expired: backlogExpired && {
      from: new Date(backlogExpired.from).toISOString(),
      to: new Date(backlogExpired.to).toISOString(),
      found_at: new Date(backlogExpired.found_at).toISOString(),
      code: "REDELIVERY_BACKLOG_EXPIRED",
      message: backlogExpired.message,
      action: hintOf("REDELIVERY_BACKLOG_EXPIRED"),
    },
    last_pass: (last as RedeliveryReport | null) ?? null,
    counts,
    problems: problems.map((p) => ({
      guid: p.guid,
      event: p.event,
      state: p.state,
      attempts: p.attempts,
      first_failed_at: new Date(p.first_failed_at).toISOString(),
      code: p.code,
      message: p.message,
      action: hintOf(p.code),
    })),
  };
}
