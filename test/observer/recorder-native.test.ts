/**
 * The eBPF recorder's table of calls (native/recorder/syscalls.h) against the TypeScript side's:
 * every call the strace recorder traces is either printed by the eBPF recorder or handled by it
 * another way, and every call the jail forbids is printed as forbidden, by the same number.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forbiddenNumbers } from "../../src/observer/seccomp.js";
import { TRACED_SYSCALLS } from "../../src/observer/strace.js";
import { ROOT } from "./harness.js";

const header = readFileSync(join(ROOT, "native/recorder/syscalls.h"), "utf8");
const table = [...header.matchAll(/X\((\d+), (\w+), (C_\w+)\)/g)].map((m) => ({
  nr: Number(m[1]),
  name: m[2] as string,
  cls: m[3] as string,
}));

/** Traced by strace, and recorded by the eBPF recorder from the scheduler's tracepoints (fork, exec). */
const BY_TRACEPOINT = new Set(["execve", "execveat", "fork", "vfork", "clone3"]);

describe("the eBPF recorder's call table", () => {
  it("reads the table", () => {
    expect(table.length).toBeGreaterThan(60);
    expect(new Set(table.map((t) => t.nr)).size).toBe(table.length);
  });

  it("prints every call the strace recorder traces, but those recorded from the scheduler", () => {
    const printed = new Set(table.map((t) => t.name));
    const missing = TRACED_SYSCALLS.filter((name) => !printed.has(name) && !BY_TRACEPOINT.has(name));
    expect(missing).toEqual([]);
  });

  it("prints every forbidden call as forbidden, by its x86_64 number", () => {
    const forbidden = [...forbiddenNumbers("x86_64").entries()].map(([nr, name]) => ({ nr, name, cls: "C_FORBIDDEN" }));
    const native = table.filter((t) => t.cls === "C_FORBIDDEN");
    expect(native.sort((a, b) => a.nr - b.nr)).toEqual(forbidden.sort((a, b) => a.nr - b.nr));
  });
});
