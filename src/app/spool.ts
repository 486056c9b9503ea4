import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { open, readFile, unlink, type FileHandle } from "node:fs/promises";
import type { IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A body up to this size stays in memory; a larger one goes to a file until its signature is checked. */
export const SPOOL_MEMORY_BYTES = 1024 * 1024;

let directory: string | null = null;

/** How many bodies this process has spooled to disk (for tests and diagnostics). */
export const spoolStats = { files: 0 };

/** This process's spool directory (created on first use, files 0600, each removed once read or refused). */
export function spoolDirectory(): string {
  directory ??= mkdtempSync(join(tmpdir(), "envelope-gate-spool-"));
  return directory;
}

interface SpooledBody {
  /** The whole body (from memory, or read back from its file, which is then removed). */
  read(): Promise<Buffer>;
  /** Drops the body without reading it (the signature did not match). */
  discard(): Promise<void>;
}

/**
 * Reads a request body, handing each chunk to `onChunk` (the HMACs) as it arrives. Memory holds
 * at most SPOOL_MEMORY_BYTES of it: past that the body goes to a file in the spool directory,
 * the request paused while each chunk is written. Resolves null, leaving the rest unread, once
 * the body passes `maxBytes`.
 */
export function spoolBody(req: IncomingMessage, maxBytes: number, onChunk: (chunk: Buffer) => void): Promise<SpooledBody | null> {
  return new Promise((resolve, reject) => {
    const memory: Buffer[] = [];
    let size = 0;
    let file: FileHandle | null = null;
    let path: string | null = null;
    let writing: Promise<void> = Promise.resolve();
    const remove = async () => {
      await file?.close().catch(() => undefined);
      file = null;
      if (path !== null) await unlink(path).catch(() => undefined);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off("data", onData);
        req.pause();
        void writing.then(remove, remove).then(() => resolve(null));
        return;
      }
      onChunk(chunk);
      if (file === null && path === null && size <= SPOOL_MEMORY_BYTES) {
        memory.push(chunk);
        return;
      }
      req.pause();
      writing = writing
        .then(async () => {
          if (file === null) {
            path = join(spoolDirectory(), randomUUID());
            file = await open(path, "wx", 0o600);
            spoolStats.files++;
            for (const m of memory.splice(0)) await file.write(m);
          }
          await file.write(chunk);
        })
        .then(
          () => void req.resume(),
          async (err: unknown) => {
            req.off("data", onData);
            await remove();
            reject(err as Error);
          },
        );
    };
    req.on("data", onData);
    req.once("error", (err) => void remove().then(() => reject(err)));
    req.once("end", () => {
      void writing.then(() =>
        resolve({
          async read() {
            if (path === null) return Buffer.concat(memory);
            await file?.close();
            file = null;
            try {
              return await readFile(path);
            } finally {
              await remove();
            }
          },
          discard: remove,
        }),
      );
    });
  });
}
