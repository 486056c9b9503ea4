import { describe, expect, it } from "vitest";
import { parseShebang } from "../../src/observer/shebang.js";

const line = (text: string): ReturnType<typeof parseShebang> => parseShebang(Buffer.from(text, "latin1"));

describe("a `#!` line as binfmt_script reads it", () => {
  it("the name, and one optional argument: the rest of the line, its trailing blanks cut", () => {
    expect(line("#!/bin/sh\necho")).toEqual({ name: "/bin/sh", arg: null });
    expect(line("#! \t/usr/bin/env node\n")).toEqual({ name: "/usr/bin/env", arg: "node" });
    expect(line("#!/usr/bin/env -S node --flag  \t\n")).toEqual({ name: "/usr/bin/env", arg: "-S node --flag" });
    expect(line("#!relative/interp\n")).toEqual({ name: "relative/interp", arg: null });
    expect(line("#!/bin/sh")).toEqual({ name: "/bin/sh", arg: null });
  });

  it("no `#!`, no name, or a name the buffer cuts: not a script the kernel runs", () => {
    expect(line("\x7fELF")).toBeNull();
    expect(line("#")).toBeNull();
    expect(line("#!   \n")).toBeNull();
    expect(line(`#!/${"a".repeat(300)}`)).toBeNull();
  });

  it("a line longer than the buffer keeps the name when a blank follows it; a NUL ends the name", () => {
    expect(line(`#!/bin/sh ${"x".repeat(300)}`)).toEqual({ name: "/bin/sh", arg: "x".repeat(256 - 1 - 10) });
    expect(line("#!/bin/sh\0 ignored\n")).toEqual({ name: "/bin/sh", arg: null });
  });
});
