/**
 * A FIFO the wrapper owns and reads: the hooks' channel and strace's output. The wrapper keeps
 * its own write end open until the stage's processes are gone, then closes it and reads to EOF,
 * so every byte any writer put in is read before the stage ends.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, readSync } from "node:fs";
import { Socket } from "node:net";
import { errnoOf, Refusal } from "../core/errors.js";
import { resolveExecutable } from "./tools.js";

/** mkfifo as PATH names it, found once per PATH (execvp would search PATH again for every channel). */
let mkfifoFound: { pathValue: string | undefined; path: string } | undefined;

export function makeFifo(path: string): void {
  try {
    const found =
      mkfifoFound !== undefined && mkfifoFound.pathValue === process.env.PATH
        ? mkfifoFound
        : { pathValue: process.env.PATH, path: resolveExecutable("mkfifo", process.env.PATH) ?? "mkfifo" };
    mkfifoFound = found;
    const mkfifo = found.path;
    execFileSync(mkfifo, ["-m", "600", path], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (err) {
    throw new Refusal(
      "OBSERVER_UNAVAILABLE",
      `cannot create the observer channel ${path} with mkfifo (${(err as Error).message.split("\n")[0]})`,
      {
        hint: "mkfifo (coreutils) must be on PATH for envelope-gate run.",
        cause: err,
      },
    );
  }
}

export class FifoReader {
  readonly path: string;
  private readonly readFd: number;
  private holdFd: number | null;
  private readonly socket: Socket;
  private readonly onText: (text: string) => void;
  private readonly decoder = new TextDecoder("utf-8");
  private readonly ended: Promise<void>;
  private readonly scratch = Buffer.allocUnsafe(1 << 16);

  constructor(path: string, onText: (text: string) => void, onError: (err: Error) => void) {
    this.path = path;
    this.onText = onText;
    this.readFd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    // Our own writer: the reader must not see EOF before the first real writer opens.
    this.holdFd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
    this.socket = new Socket({ fd: this.readFd, readable: true, writable: false });
    this.socket.on("data", (chunk: Buffer) => {
      try {
        this.deliver(chunk);
      } catch (err) {
        onError(err as Error);
      }
    });
    this.ended = new Promise((resolve) => {
      this.socket.once("end", () => resolve());
      this.socket.once("close", () => resolve());
      this.socket.once("error", (err) => {
        onError(err);
        resolve();
      });
    });
  }

  private deliver(chunk: Buffer): void {
    const text = this.decoder.decode(chunk, { stream: true });
    if (text !== "") this.onText(text);
  }

  /** Reads whatever is already in the pipe, now (ordering: hook records precede their syscalls). */
  drainNow(): void {
    for (let i = 0; i < 4096; i++) {
      let n: number;
      try {
        n = readSync(this.readFd, this.scratch, 0, this.scratch.length, null);
      } catch (err) {
        if (errnoOf(err) === "EAGAIN") return;
        throw err;
      }
      if (n <= 0) return;
      this.deliver(Buffer.from(this.scratch.subarray(0, n)));
    }
  }

  /** Drops the wrapper's write end and waits until every other writer has closed and all is read. */
  async finish(): Promise<void> {
    if (this.holdFd !== null) {
      closeSync(this.holdFd);
      this.holdFd = null;
    }
    await this.ended;
    const tail = this.decoder.decode();
    if (tail !== "") this.onText(tail);
  }

  destroy(): void {
    if (this.holdFd !== null) {
      closeSync(this.holdFd);
      this.holdFd = null;
    }
    this.socket.destroy();
  }
}
