import { describe, expect, it } from "vitest";
import { count, relativeTime, utcText } from "../../src/core/human.js";

const NOW = Date.parse("2026-12-05T12:00:00.000Z");

describe("counts with their noun in the right number", () => {
  it("one is singular; zero and many are plural, regular or given", () => {
    expect(count(1, "delivery", "deliveries")).toBe("1 delivery");
    expect(count(2, "delivery", "deliveries")).toBe("2 deliveries");
    expect(count(0, "delivery", "deliveries")).toBe("0 deliveries");
    expect(count(1, "error")).toBe("1 error");
    expect(count(3, "error")).toBe("3 errors");
    expect(count(12_500, "call")).toBe("12,500 calls");
  });
});

describe("times relative to an injected now", () => {
  it("past, in the largest unit that fits, truncated", () => {
    expect(relativeTime(NOW, NOW)).toBe("just now");
    expect(relativeTime(NOW - 59_000, NOW)).toBe("just now");
    expect(relativeTime(NOW - 3 * 60_000, NOW)).toBe("3 min ago");
    expect(relativeTime(NOW - 59 * 60_000 - 59_000, NOW)).toBe("59 min ago");
    expect(relativeTime(NOW - 2 * 3_600_000 - 1, NOW)).toBe("2 h ago");
    expect(relativeTime(NOW - 86_400_000, NOW)).toBe("1 day ago");
    expect(relativeTime(NOW - 40 * 86_400_000, NOW)).toBe("40 days ago");
  });

  it("future: a reset or a deadline ahead", () => {
    expect(relativeTime(NOW + 20 * 60_000, NOW)).toBe("in 20 min");
    expect(relativeTime(NOW + 3 * 86_400_000, NOW)).toBe("in 3 days");
  });

  it("the exact UTC time, to the second", () => {
    expect(utcText(Date.parse("2026-12-05T06:02:38.123Z"))).toBe("2026-12-05 06:02:38 UTC");
  });
});
