import type { BudgetLimit } from "../core/budget.js";
import { errnoOf, Refusal, isRefusal } from "../core/errors.js";
import type { SqlDb } from "./db.js";

/**
 * The App's switches (the kill switch, per-scope budget limits) and their append-only history.
 * Every change is written to the history first, then applied; the watchdog compares each
 * switch with its latest history entry on every sweep. The history table has no UPDATE or
 * DELETE anywhere in the code.
 */

type SwitchKind = "change" | "revert" | "configured";

/** A switch's recorded state: the pause flag, or a scope's limit (null: no override, the defaults apply). */
type SwitchState = { paused: boolean } | { limit: BudgetLimit | null } | { enabled: boolean };

interface SwitchEntry {
  seq: number;
  /** `pause`, or `budget:<scope>` (scope: `installation:<id>` or `repository:<owner/name>`). */
  switch: string;
  state: SwitchState;
  kind: SwitchKind;
  actor: string;
  reason: string;
  at: number;
}

/** What the watchdog found: a switch whose state differs from its latest history entry. */
interface SwitchDrift {
  switch: string;
  recorded: SwitchState;
  found: SwitchState;
  /** True when the unrecorded change loosens (clears a pause, raises or removes a limit): it is reverted. */
  loosens: boolean;
  /** The sequence number of the latest recorded change the watchdog compared with (0: none). */
  recordedSeq: number;
}

const PAUSE_SWITCH = "pause";
const WATCHDOG_ACTOR = "watchdog";

function budgetSwitch(scope: string): string {
  return `budget:${scope}`;
}

function limitLooser(found: BudgetLimit | null, recorded: BudgetLimit | null, defaults: BudgetLimit): boolean {
  const f = found ?? defaults;
  const r = recorded ?? defaults;
  return f.dispatchesPerDay > r.dispatchesPerDay || f.minutesPerDay > r.minutesPerDay;
}

function sameLimit(a: BudgetLimit | null, b: BudgetLimit | null): boolean {
  return a === null || b === null ? a === b : a.dispatchesPerDay === b.dispatchesPerDay && a.minutesPerDay === b.minutesPerDay;
}

function raceLost(err: unknown): boolean {
  const code = errnoOf(isRefusal(err) ? err.cause : err) ?? "";
  return code === "23505" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

export class Switches {
  constructor(private readonly db: SqlDb) {}

  /**
   * Appends one history entry; its sequence number is the next one (a lost race tries again).
   * With `ifLatest`, only while the switch's latest entry is still that sequence number (0:
   * none): resolves null, appending nothing, when another change was recorded meanwhile.
   */
  async append(entry: Omit<SwitchEntry, "seq">): Promise<number>;
  async append(entry: Omit<SwitchEntry, "seq">, ifLatest: number): Promise<number | null>;
  async append(entry: Omit<SwitchEntry, "seq">, ifLatest?: number): Promise<number | null> {
    const condition = ifLatest === undefined ? "" : "WHERE COALESCE((SELECT MAX(seq) FROM switch_history x WHERE x.switch = ?), 0) = ?";
    const params = [entry.switch, JSON.stringify(entry.state), entry.kind, entry.actor, entry.reason, entry.at];
    if (ifLatest !== undefined) params.push(entry.switch, ifLatest);
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        const rows = await this.db.all<{ seq: unknown }>(
          `INSERT INTO switch_history (seq, switch, state, kind, actor, reason, at)
           SELECT n.next, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT)
           FROM (SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM switch_history) n ${condition} RETURNING seq`,
          params,
        );
        if (!rows[0]) return null;
        return Number(rows[0].seq);
      } catch (err) {
        if (!raceLost(err)) throw err;
      }
    }
    throw new Refusal("STORE_UNAVAILABLE", "the switch history could not be appended to: 50 attempts lost a race");
  }

  async history(limit: number): Promise<SwitchEntry[]> {
    const rows = await this.db.all<Record<string, unknown>>("SELECT * FROM switch_history ORDER BY seq DESC LIMIT ?", [limit]);
    return rows.map(entryOf);
  }

  /** The latest entry of every switch. */
  async latest(): Promise<Map<string, SwitchEntry>> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT h.* FROM switch_history h
       WHERE h.seq = (SELECT MAX(seq) FROM switch_history x WHERE x.switch = h.switch)`,
    );
    return new Map(rows.map(entryOf).map((e) => [e.switch, e]));
  }

  /**
   * Pauses or resumes, recorded first. Resolves false (and records nothing) when the switch is
   * already in that state.
   */
  async setPause(paused: boolean, actor: string, reason: string, now: number): Promise<boolean> {
    const row = await this.db.all<{ paused: unknown }>("SELECT paused FROM kill_switch WHERE id = 1");
    const recorded = (await this.latest()).get(PAUSE_SWITCH);
    const recordedPaused = recorded && "paused" in recorded.state ? recorded.state.paused : false;
    if (row[0] && Number(row[0].paused) === (paused ? 1 : 0) && recordedPaused === paused) return false;
    await this.append({ switch: PAUSE_SWITCH, state: { paused }, kind: "change", actor, reason, at: now });
    await this.db.run("UPDATE kill_switch SET paused = ?, reason = ?, changed_by = ?, changed_at = ? WHERE id = 1", [
      paused ? 1 : 0,
      paused ? reason : null,
      actor,
      now,
    ]);
    return true;
  }

  /** Sets (or, with null, removes) a scope's limit override, recorded first. */
  async setLimit(scope: string, limit: BudgetLimit | null, actor: string, reason: string, now: number): Promise<void> {
    await this.append({ switch: budgetSwitch(scope), state: { limit }, kind: "change", actor, reason, at: now });
    if (limit === null) {
      await this.db.run("DELETE FROM budget_limits WHERE scope = ?", [scope]);
      return;
    }
    await this.db.run(
      `INSERT INTO budget_limits (scope, dispatches_per_day, minutes_per_day, changed_by, reason, changed_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (scope) DO UPDATE SET dispatches_per_day = excluded.dispatches_per_day, minutes_per_day = excluded.minutes_per_day,
         changed_by = excluded.changed_by, reason = excluded.reason, changed_at = excluded.changed_at`,
      [scope, limit.dispatchesPerDay, limit.minutesPerDay, actor, reason, now],
    );
  }

  /** Every switch whose state differs from its latest history entry. `defaults` are the configured caps per scope kind. */
  async drift(defaults: (scope: string) => BudgetLimit): Promise<SwitchDrift[]> {
    const latest = await this.latest();
    const out: SwitchDrift[] = [];
    const kill = await this.db.all<{ paused: unknown }>("SELECT paused FROM kill_switch WHERE id = 1");
    if (!kill[0]) throw new Refusal("STORE_UNAVAILABLE", "the kill switch row is missing from the store");
    const paused = Number(kill[0].paused) === 1;
    const pause = latest.get(PAUSE_SWITCH);
    const recordedPaused = pause && "paused" in pause.state ? pause.state.paused : false;
    if (recordedPaused !== paused) {
      out.push({
        switch: PAUSE_SWITCH,
        recorded: { paused: recordedPaused },
        found: { paused },
        loosens: recordedPaused && !paused,
        recordedSeq: pause?.seq ?? 0,
      });
    }
    const rows = await this.db.all<Record<string, unknown>>("SELECT scope, dispatches_per_day, minutes_per_day FROM budget_limits");
    const found = new Map<string, BudgetLimit>(
      rows.map((r) => [String(r.scope), { dispatchesPerDay: Number(r.dispatches_per_day), minutesPerDay: Number(r.minutes_per_day) }]),
    );
    const scopes = new Set([...found.keys(), ...[...latest.keys()].filter((k) => k.startsWith("budget:")).map((k) => k.slice(7))]);
    for (const scope of [...scopes].sort()) {
      const entry = latest.get(budgetSwitch(scope));
      const recorded = entry && "limit" in entry.state ? entry.state.limit : null;
      const now = found.get(scope) ?? null;
      if (sameLimit(recorded, now)) continue;
      out.push({
        switch: budgetSwitch(scope),
        recorded: { limit: recorded },
        found: { limit: now },
        loosens: limitLooser(now, recorded, defaults(scope)),
        recordedSeq: entry?.seq ?? 0,
      });
    }
    return out;
  }

  /**
   * The watchdog's answer to one drift. A loosening change is reverted to the recorded state
   * (conditionally on the state it found, so two replicas revert once); a tightening one is
   * kept and recorded, since a stop is never undone by automation. Both are conditional on
   * the latest recorded change being still the one compared with: a change recorded meanwhile
   * (an operator's command) is never adopted over or reverted. Resolves to what it did, or
   * null when the state moved again meanwhile.
   */
  async answer(drift: SwitchDrift, now: number): Promise<"reverted" | "adopted" | null> {
    const describe = `found ${JSON.stringify(drift.found)}, recorded ${JSON.stringify(drift.recorded)}`;
    const unchanged = "COALESCE((SELECT MAX(seq) FROM switch_history x WHERE x.switch = ?), 0) = ?";
    if (!drift.loosens) {
      const seq = await this.append(
        {
          switch: drift.switch,
          state: drift.found,
          kind: "change",
          actor: "unrecorded",
          reason: `a change made outside the App's commands, kept because it only tightens (${describe})`,
          at: now,
        },
        drift.recordedSeq,
      );
      return seq === null ? null : "adopted";
    }
    let changed: number;
    if (drift.switch === PAUSE_SWITCH) {
      const pause = (await this.latest()).get(PAUSE_SWITCH);
      changed = await this.db.run(
        `UPDATE kill_switch SET paused = 1, reason = ?, changed_by = ?, changed_at = ? WHERE id = 1 AND paused = 0 AND ${unchanged}`,
        [pause?.reason ?? "restored by the watchdog", WATCHDOG_ACTOR, now, drift.switch, drift.recordedSeq],
      );
    } else {
      const scope = drift.switch.slice("budget:".length);
      const recorded = "limit" in drift.recorded ? drift.recorded.limit : null;
      const found = "limit" in drift.found ? drift.found.limit : null;
      if (recorded === null) {
        changed = await this.db.run(
          `DELETE FROM budget_limits WHERE scope = ? AND dispatches_per_day = ? AND minutes_per_day = ? AND ${unchanged}`,
          [scope, found?.dispatchesPerDay, found?.minutesPerDay, drift.switch, drift.recordedSeq],
        );
      } else if (found === null) {
        changed = await this.db.run(
          `INSERT INTO budget_limits (scope, dispatches_per_day, minutes_per_day, changed_by, reason, changed_at)
           SELECT CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT)
           WHERE ${unchanged}
           ON CONFLICT (scope) DO NOTHING`,
          [
            scope,
            recorded.dispatchesPerDay,
            recorded.minutesPerDay,
            WATCHDOG_ACTOR,
            "restored by the watchdog",
            now,
            drift.switch,
            drift.recordedSeq,
          ],
        );
      } else {
        changed = await this.db.run(
          `UPDATE budget_limits SET dispatches_per_day = ?, minutes_per_day = ?, changed_by = ?, reason = ?, changed_at = ?
           WHERE scope = ? AND dispatches_per_day = ? AND minutes_per_day = ? AND ${unchanged}`,
          [
            recorded.dispatchesPerDay,
            recorded.minutesPerDay,
            WATCHDOG_ACTOR,
            "restored by the watchdog",
            now,
            scope,
            found.dispatchesPerDay,
            found.minutesPerDay,
            drift.switch,
            drift.recordedSeq,
          ],
        );
      }
    }
    if (changed !== 1) return null;
    // Recorded only if no command was recorded since: a command's own apply follows its entry.
    await this.append(
      {
        switch: drift.switch,
        state: drift.recorded,
        kind: "revert",
        actor: WATCHDOG_ACTOR,
        reason: `SWITCH_UNRECORDED_CHANGE: reverted a change no command recorded (${describe})`,
        at: now,
      },
      drift.recordedSeq,
    );
    return "reverted";
  }
}

function entryOf(r: Record<string, unknown>): SwitchEntry {
  return {
    seq: Number(r.seq),
    switch: String(r.switch),
    state: JSON.parse(String(r.state)) as SwitchState,
    kind: String(r.kind) as SwitchKind,
    actor: String(r.actor),
    reason: String(r.reason),
    at: Number(r.at),
  };
}
