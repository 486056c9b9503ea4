import { describe, expect, it } from "vitest";
import { PathView } from "../../src/observer/jail.js";
import { PathResolver } from "../../src/observer/path-resolver.js";
import { ProcessTree, lastNsPid } from "../../src/observer/process-tree.js";
import { TableFacts } from "./table-facts.js";

const tree = (facts: TableFacts, jailed = false, ebpf = false): ProcessTree => new ProcessTree(facts, { cwd: "/start", jailed, ebpf });

describe("process tree", () => {
  it("maps a thread first seen before its clone line to its process, asking the kernel once", () => {
    const facts = new TableFacts().process(201, { tgid: 200 });
    const t = tree(facts);
    expect(t.tgid(201)).toBe(200);
    expect(t.tgid(201)).toBe(200);
    expect(facts.asked).toEqual(["status 201"]);
    expect(t.root).toBe(200);
  });

  it("takes a gone thread for a process of its own, and the first one seen for the root", () => {
    const t = tree(new TableFacts());
    expect(t.tgid(300)).toBe(300);
    expect(t.tgid(301)).toBe(301);
    expect(t.root).toBe(300);
  });

  it("follows clone lines: a child process inherits its parent's directory, a thread maps to its process", () => {
    const facts = new TableFacts();
    const t = tree(facts);
    t.tgid(100);
    t.setCwd(100, "/work");
    t.cloned(100, 100, 101, false);
    t.cloned(100, 100, 102, true);
    expect(t.parent(101)).toBe(100);
    expect(t.cwd(101)).toBe("/work");
    expect(t.tgid(102)).toBe(100);
    expect(t.parent(102)).toBeNull();
    expect(facts.asked).toEqual(["status 100"]);
  });

  it("gives a process seen before its parent's clone line the forking parent's directory, else the kernel's, else the start", () => {
    const facts = new TableFacts().process(105, { cwd: "/kernel" });
    const t = tree(facts);
    t.tgid(100);
    t.setCwd(100, "/work");
    t.forkStarted(100);
    expect(t.cwd(104)).toBe("/work");
    t.forkEnded(100);
    expect(t.cwd(105)).toBe("/kernel");
    expect(t.cwd(106)).toBe("/start");
  });

  it("in the jail: matches a child to its fork by its pid inside the jail, whatever order the forks came in", () => {
    const facts = new TableFacts().process(5001, { nspid: [5001, 3] }).process(5002, { nspid: [5002, 4] });
    const t = tree(facts, true);
    t.tgid(10);
    t.arm(10);
    t.setCwd(10, "/a");
    t.cloned(10, 10, 3, false);
    t.setCwd(10, "/b");
    t.cloned(10, 10, 4, false);
    t.tgid(5002);
    t.joinCommand(5002);
    t.tgid(5001);
    t.joinCommand(5001);
    expect([t.parent(5001), t.cwd(5001)]).toEqual([10, "/a"]);
    expect([t.parent(5002), t.cwd(5002)]).toEqual([10, "/b"]);
  });

  it("in the jail: a child seen while its parent's fork line is open is the forker's, and that fork is not matched again", () => {
    const facts = new TableFacts();
    const t = tree(facts, true);
    t.tgid(10);
    t.arm(10);
    t.setCwd(10, "/w");
    t.forkStarted(10);
    t.tgid(6000);
    t.joinCommand(6000);
    t.forkEnded(10);
    t.cloned(10, 10, 7, false);
    t.tgid(6001);
    t.joinCommand(6001);
    expect([t.parent(6000), t.cwd(6000)]).toEqual([10, "/w"]);
    // The only fork line was the first child's: the second one matches nothing and keeps no parent.
    expect(t.parent(6001)).toBeNull();
  });

  it("reads a process's pid inside the jail while it runs, and keeps it once it is gone", () => {
    const facts = new TableFacts().process(700, { nspid: [700, 12] });
    const t = tree(facts, true);
    expect(t.jailPid(700)).toBe(12);
    facts.statuses.delete(700);
    expect(t.jailPid(700)).toBe(12);
    expect(t.jailPid(701)).toBeNull();
  });

  it("finds the wrapper's pid for a jail pid among the command's processes only", () => {
    const facts = new TableFacts().process(800, { nspid: [800, 5] }).process(801, { nspid: [801, 6] });
    const t = tree(facts, true);
    t.tgid(800);
    t.joinCommand(800);
    expect(t.outerPid(5)).toBe(800);
    expect(t.outerPid(6)).toBeNull();
    facts.statuses.delete(800);
    expect(t.outerPid(5)).toBe(800);
  });

  it("under the eBPF recorder: takes every pid for its process, and @fork lines for parent, directory and jail pid", () => {
    const facts = new TableFacts();
    const t = tree(facts, true, true);
    expect(t.tgid(900)).toBe(900);
    t.setCwd(900, "/e");
    t.forkAnnounced(901, 900, 2);
    expect([t.parent(901), t.cwd(901), t.knownInner(901), t.outerPid(2)]).toEqual([900, "/e", 2, 901]);
    expect(t.isJailProcess(901)).toBe(true);
    expect(t.outerPid(3)).toBeNull();
    expect(facts.asked).toEqual([]);
  });

  it("reads the innermost pid from a status text", () => {
    expect(lastNsPid("Name:\tx\nNSpid:\t1234\t7\n")).toBe(7);
    expect(lastNsPid("Name:\tx\n")).toBeNull();
  });
});

describe("path resolver", () => {
  it("resolves symlinks through the jail's view of the host, keeping the final component when not followed", () => {
    const facts = new TableFacts().there("/host/tmp/real/f").symlink("/host/tmp/link", "/tmp/real");
    const t = tree(facts, true);
    const paths = new PathResolver(facts, new PathView([{ jail: "/tmp", host: "/host/tmp" }]), t, { jailed: true, ebpf: false });
    expect(paths.follow(1, "/tmp/link/f")).toBe("/tmp/real/f");
    expect(paths.noFollow(1, "/tmp/link")).toBe("/tmp/link");
    expect(paths.noFollow(1, "/tmp/link/g")).toBe("/tmp/real/g");
    // A missing component ends the walk: the rest is kept as named.
    expect(paths.follow(1, "/tmp/gone/../x")).toBe("/tmp/x");
  });

  it("takes /proc/<jail pid>/cwd as that process's directory as the lines showed it, never the live /proc link", () => {
    const facts = new TableFacts()
      .process(4000, { nspid: [4000, 2] })
      .symlink("/proc/4000/cwd", "/live")
      .there("/w", "/live");
    const t = tree(facts, true);
    t.tgid(4000);
    t.joinCommand(4000);
    t.setCwd(4000, "/w");
    const paths = new PathResolver(facts, new PathView([]), t, { jailed: true, ebpf: false });
    expect(paths.follow(4000, "/proc/2/cwd")).toBe("/w");
    // A pid of no known process: which directory it was cannot be known.
    expect(paths.mutation(4000, "/proc/9/cwd/x", false)).toEqual({ path: "/proc/9/cwd/x", unknown: "proc-link" });
    expect(facts.asked.filter((a) => a.includes("/cwd"))).toEqual([]);
  });

  it("takes /proc/self/cwd as the directory last shown; under the eBPF recorder (which walks it in the kernel) one that reaches the reader is unknown, never read live", () => {
    const facts = new TableFacts().process(50, { cwd: "/live" }).there("/live/x", "/shown/x");
    const t = tree(facts, false, true);
    t.setCwd(50, "/shown");
    expect(new PathResolver(facts, new PathView([]), t, { jailed: false, ebpf: false }).follow(50, "/proc/self/cwd/x")).toBe("/shown/x");
    const ebpf = new PathResolver(facts, new PathView([]), t, { jailed: false, ebpf: true });
    expect(ebpf.mutation(50, "/proc/self/cwd/x", false)).toEqual({ path: "/proc/self/cwd/x", unknown: "proc-link" });
    expect(ebpf.mutation(50, "/proc/7/cwd/x", true)).toEqual({ path: "/proc/7/cwd/x", unknown: "proc-link" });
    expect(facts.asked.filter((a) => a.includes("/cwd"))).toEqual([]);
  });

  it("makes a relative path absolute against the fd's directory, else the process's own", () => {
    const facts = new TableFacts();
    const t = tree(facts);
    t.setCwd(1, "/c");
    const paths = new PathResolver(facts, new PathView([]), t, { jailed: false, ebpf: false });
    // Joined as text: `..` is the walk's, after the symlinks before it.
    expect(paths.absolute(1, null, "a/../b")).toBe("/c/a/../b");
    expect(paths.absolute(1, "/d", "b")).toBe("/d/b");
    expect(paths.absolute(1, "/d", "/abs")).toBe("/abs");
  });
});
