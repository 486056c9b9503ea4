/**
 * fs: every call that mutates a file, in its sync, callback and `fs.promises` forms, recorded as
 * a `write` with the path absolute and symlinks resolved. Under a preload config with
 * `"recordWrites": false` the calls keep their hooks (nested calls stay one operation) but record
 * nothing and resolve nothing: the process observer records those writes with the kernel's path.
 */
import { isIgnoredDevice } from "../protocol.js";
import type { HookContext, Recorder } from "./context.js";

export function installFs(ctx: HookContext): void {
  const { fs, path } = ctx;

  function recordWrite(raw: unknown, op: string, follow: boolean): void {
    let resolved: string;
    try {
      const p = ctx.toPathString(raw);
      if (p === null) return;
      const abs = path.resolve(p);
      resolved = follow ? ctx.resolveFollow(abs) : ctx.resolveNoFollow(abs);
    } catch {
      return; // not a path the call could use; the original call reports its own error
    }
    if (isIgnoredDevice(resolved)) return;
    ctx.sendWrite(resolved, op);
  }

  const { O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND } = fs.constants;

  /** The op an open with these flags performs, or null for a read-only open. */
  function openOp(flags: unknown): string | null {
    if (flags === undefined || flags === null) return null;
    if (typeof flags === "number") {
      if (flags & O_CREAT) return "create";
      if (flags & O_TRUNC) return "truncate";
      if (flags & (O_WRONLY | O_RDWR | O_APPEND)) return "write";
      return null;
    }
    const f = String(flags);
    if (f.includes("w") || f.includes("a")) return "create";
    if (f.includes("+")) return "write";
    return null;
  }

  const writeRecorders: Record<string, Recorder> = {
    writeFile: (a) => recordWrite(a[0], "write", true),
    appendFile: (a) => recordWrite(a[0], "write", true),
    open: (a) => {
      const op = openOp(a[1]);
      if (op !== null) recordWrite(a[0], op, true);
    },
    rm: (a) => recordWrite(a[0], "delete", false),
    rmdir: (a) => recordWrite(a[0], "delete", false),
    unlink: (a) => recordWrite(a[0], "delete", false),
    rename: (a) => {
      recordWrite(a[0], "rename", false);
      recordWrite(a[1], "rename", false);
    },
    mkdir: (a) => recordWrite(a[0], "mkdir", false),
    mkdtemp: (a) => {
      const prefix = ctx.toPathString(a[0]);
      if (prefix !== null) recordWrite(prefix + "XXXXXX", "mkdir", false);
    },
    copyFile: (a) => recordWrite(a[1], "create", true),
    cp: (a) => recordWrite(a[1], "create", true),
    symlink: (a) => recordWrite(a[1], "symlink", false),
    link: (a) => recordWrite(a[1], "link", false),
    chmod: (a) => recordWrite(a[0], "chmod", true),
    lchmod: (a) => recordWrite(a[0], "chmod", false),
    truncate: (a) => {
      const p = typeof a[0] === "number" ? ctx.fdPath(a[0]) : a[0];
      recordWrite(p, "truncate", true);
    },
    fchmod: (a) => recordWrite(ctx.fdPath(a[0]), "chmod", false),
    ftruncate: (a) => recordWrite(ctx.fdPath(a[0]), "truncate", false),
  };
  const recordNothing: Recorder = () => {};
  const fsRecorders: Record<string, Recorder> = ctx.recordWrites
    ? writeRecorders
    : Object.fromEntries(Object.keys(writeRecorders).map((name) => [name, recordNothing]));

  const fsTable = fs as unknown as Record<string, unknown>;
  for (const [name, recorder] of Object.entries(fsRecorders)) {
    ctx.hook(fsTable, name, recorder);
    ctx.hook(fsTable, `${name}Sync`, recorder);
  }
  const promises = fs.promises as unknown as Record<string, unknown>;
  for (const [name, recorder] of Object.entries(fsRecorders)) {
    if (name === "fchmod" || name === "ftruncate") continue;
    if (name === "open") continue;
    ctx.hook(promises, name, recorder);
  }
  // FileHandle methods act on an already-open file; chmod and truncate work on read-only handles.
  let fileHandlePatched = !ctx.recordWrites; // nothing to record: leave FileHandle as it is
  const originalPromisesOpen = promises.open as (...a: unknown[]) => Promise<unknown>;
  promises.open = function open(this: unknown, ...args: unknown[]): Promise<unknown> {
    if (ctx.depth === 0) fsRecorders.open?.(args, this);
    ctx.depth++;
    let result: Promise<unknown>;
    try {
      result = originalPromisesOpen.apply(this, args);
    } finally {
      ctx.depth--;
    }
    return result.then((handle) => {
      if (!fileHandlePatched && handle !== null && typeof handle === "object") {
        fileHandlePatched = true;
        const proto = Object.getPrototypeOf(handle) as Record<string, unknown>;
        const chmod = proto.chmod as (...a: unknown[]) => unknown;
        const truncate = proto.truncate as (...a: unknown[]) => unknown;
        proto.chmod = function (this: { fd: number }, ...a: unknown[]) {
          if (ctx.depth === 0) recordWrite(ctx.fdPath(this.fd), "chmod", false);
          return chmod.apply(this, a);
        };
        proto.truncate = function (this: { fd: number }, ...a: unknown[]) {
          if (ctx.depth === 0) recordWrite(ctx.fdPath(this.fd), "truncate", false);
          return truncate.apply(this, a);
        };
      }
      return handle;
    });
  };
}
