/**
 * Loaded before every test file (vitest.config.ts setupFiles). Fails the test during which a
 * fake GitHub recorded a departure from GitHub's API description (test/support/openapi.ts),
 * naming each request; what a beforeAll provoked fails the file's first test, what an afterAll
 * provoked fails the file.
 */
import { afterAll, afterEach } from "vitest";
import { liveFakes, type Mismatch } from "./fake-github.js";

function unreported(): Mismatch[] {
  const out: Mismatch[] = [];
  for (const fake of liveFakes) {
    out.push(...fake.mismatches.slice(fake.reported));
    fake.reported = fake.mismatches.length;
  }
  return out;
}

export function mismatchReport(mismatches: Mismatch[]): string {
  return [
    `the fake GitHub saw ${mismatches.length} exchange(s) that depart from GitHub's API description:`,
    ...mismatches.map((m) => {
      const shown = m.problems.length > 15 ? [...m.problems.slice(0, 15), `... and ${m.problems.length - 15} more`] : m.problems;
      return `  ${m.request}\n${shown.map((p) => `    - ${p}`).join("\n")}`;
    }),
  ].join("\n");
}

afterEach(() => {
  const found = unreported();
  if (found.length > 0) throw new Error(mismatchReport(found));
});

afterAll(() => {
  const found = unreported();
  liveFakes.clear();
  if (found.length > 0) throw new Error(mismatchReport(found));
});
