/**
 * Runner B's budget, as data and pure rules. Every runner-B dispatch spends CI minutes on a
 * second machine; before one is sent, it reserves against a daily cap per installation and
 * per repository (src/store reserves in one statement). Here: the day a reservation counts
 * in, what a finished run is charged, which cap a refusal names, and how limits are written.
 */

export interface BudgetLimit {
  dispatchesPerDay: number;
  minutesPerDay: number;
}

/** The caps one dispatch reserves against, and what a dispatch is charged before it is measured. */
export interface BudgetPolicy {
  installation: BudgetLimit;
  repository: BudgetLimit;
  /** Minutes a dispatch is charged until its real duration is read, and whenever that reading is stale. */
  maxRunMinutes: number;
  /** A measured duration is trusted for this long after it was read from GitHub. */
  freshMs: number;
}

/** One scope's usage for a day: dispatches reserved and minutes charged. */
export interface BudgetUsage {
  dispatches: number;
  minutes: number;
}

type BudgetScope = { kind: "installation"; id: number } | { kind: "repository"; name: string };

/** Of two caps, the lower of each figure. */
export function tighter(a: BudgetLimit, b: BudgetLimit): BudgetLimit {
  return { dispatchesPerDay: Math.min(a.dispatchesPerDay, b.dispatchesPerDay), minutesPerDay: Math.min(a.minutesPerDay, b.minutesPerDay) };
}

/** The store key of a scope's limit override. */
export function scopeKey(scope: BudgetScope): string {
  return scope.kind === "installation" ? `installation:${scope.id}` : `repository:${scope.name.toLowerCase()}`;
}

export function parseScopeKey(key: string): BudgetScope | null {
  const inst = /^installation:(\d+)$/.exec(key);
  if (inst) return { kind: "installation", id: Number(inst[1]) };
  const repo = /^repository:([^/\s]+\/[^/\s]+)$/.exec(key);
  if (repo) return { kind: "repository", name: (repo[1] as string).toLowerCase() };
  return null;
}

/** The budget day a moment falls in: its UTC date, `YYYY-MM-DD`. Caps reset at 00:00 UTC. */
export function budgetDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The start of the next budget day, for "resets at" in messages and the status page. */
export function nextBudgetDay(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

/**
 * The minutes a finished run is charged, from GitHub's timing of the run: the time from its
 * start (`run_started_at`, the latest attempt's) to its last update, rounded up to a whole
 * minute as GitHub bills. A re-run's earlier attempts are not in that timing, so each counts
 * at `maxRunMinutes` (what runner B's job timeout bounds it to). Null when the run has not
 * completed or its timing is missing or inconsistent: then the dispatch stays charged at its
 * maximum.
 */
export function measuredMinutes(
  run: {
    status?: string | null;
    run_started_at?: string | null;
    updated_at?: string | null;
    run_attempt?: number | null;
  },
  maxRunMinutes: number,
): number | null {
  if (run.status !== "completed" || !run.run_started_at || !run.updated_at) return null;
  const started = Date.parse(run.run_started_at);
  const ended = Date.parse(run.updated_at);
  if (!Number.isFinite(started) || !Number.isFinite(ended) || ended < started) return null;
  const attempt = run.run_attempt ?? 1;
  if (!Number.isInteger(attempt) || attempt < 1) return null;
  return (attempt - 1) * maxRunMinutes + Math.max(1, Math.ceil((ended - started) / 60_000));
}

/** Why a reservation was refused: the first cap that the dispatch would pass, named. */
export function refusalDetail(
  policy: BudgetPolicy,
  limits: { installation: BudgetLimit; repository: BudgetLimit },
  usage: { installation: BudgetUsage; repository: BudgetUsage },
  names: { installation: number; repository: string },
  now: number,
): string | null {
  const resets = new Date(nextBudgetDay(now)).toISOString();
  const checks: [string, BudgetLimit, BudgetUsage][] = [
    [`installation ${names.installation}`, limits.installation, usage.installation],
    [`repository ${names.repository}`, limits.repository, usage.repository],
  ];
  for (const [who, limit, used] of checks) {
    if (used.dispatches + 1 > limit.dispatchesPerDay) {
      return `${who} has used ${used.dispatches} of its ${limit.dispatchesPerDay} runner-B dispatches today (UTC); the cap resets at ${resets}`;
    }
    if (used.minutes + policy.maxRunMinutes > limit.minutesPerDay) {
      return `${who} has ${used.minutes} of its ${limit.minutesPerDay} runner-B minutes charged today (UTC); one more dispatch is charged ${policy.maxRunMinutes} minutes until it is measured; the cap resets at ${resets}`;
    }
  }
  return null;
}
