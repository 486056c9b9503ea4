/**
 * A run's signals and its running child: SIGINT, SIGTERM and SIGHUP (and a log that can no longer
 * be written) stop the stage's whole process tree, and the run then ends as interrupted.
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { Refusal } from "../core/errors.js";

const SIGNALS: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

export class RunControl {
  private signal: NodeJS.Signals | null = null;
  private child: ChildProcess | null = null;
  private readonly onSignal = (signal: NodeJS.Signals): void => {
    this.signal = signal;
    this.stop();
  };

  /** The signal that interrupted the run, if one did. */
  get interrupted(): NodeJS.Signals | null {
    return this.signal;
  }

  listen(): void {
    for (const signal of SIGNALS) process.on(signal, this.onSignal);
  }

  unlisten(): void {
    for (const signal of SIGNALS) process.off(signal, this.onSignal);
  }

  /**
   * The stage's child, while it runs (null once it has exited). A signal that came while no child
   * ran (the stage was still being set up) stops the child as soon as it is given: the run never
   * goes on to its natural end after being told to stop.
   */
  running(child: ChildProcess | null): void {
    this.child = child;
    if (child !== null && this.signal !== null) this.stop();
  }

  /** Stops the running stage: its child and every descendant. */
  stop(): void {
    if (this.child?.pid !== undefined) killTree(this.child.pid);
  }

  /** Throws when a signal interrupted the run. */
  throwIfInterrupted(): void {
    if (this.signal === null) return;
    throw new Refusal(
      "OBSERVER_INTERRUPTED",
      `envelope-gate run was interrupted by ${this.signal}; the log has no end line and will be refused`,
      {
        hint: "Run it again to completion.",
      },
    );
  }
}

/** SIGKILLs a process and every descendant still attached to it (found through /proc). */
function killTree(root: number): void {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    entries = []; // no /proc: only the direct child is reachable
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(name));
      children.set(ppid, list);
    } catch {
      continue;
    }
  }
  const order: number[] = [];
  const queue = [root];
  while (queue.length > 0 && order.length < 100_000) {
    const pid = queue.shift() as number;
    order.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  for (const pid of order) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      continue;
    }
  }
}
