/**
 * Words for people reading the App's pages: counts with their noun in the right number, and
 * times as "3 min ago" beside the exact UTC time. Pure: the caller passes the clock's now.
 */

/** "1 delivery", "2 deliveries", "0 deliveries": `many` when the plural is not the noun plus "s". */
export function count(n: number, one: string, many: string = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How long ago (or how far ahead) `at` is from `now`, in the largest unit that fits: "just now"
 * under a minute, then minutes, hours, days. Truncated, never rounded up: 59 s is "just now".
 */
export function relativeTime(at: number, now: number): string {
  const delta = now - at;
  const span = Math.abs(delta);
  if (span < MINUTE) return "just now";
  const words =
    span < HOUR ? `${Math.floor(span / MINUTE)} min` : span < DAY ? `${Math.floor(span / HOUR)} h` : count(Math.floor(span / DAY), "day");
  return delta > 0 ? `${words} ago` : `in ${words}`;
}

/** The exact time in UTC as people write it: "2026-12-05 06:02:38 UTC" (no milliseconds). */
export function utcText(at: number): string {
  return `${new Date(at).toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
