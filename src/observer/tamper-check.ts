/** The hooks' channel is the wrapper's: a process that opens it for reading, or that is not Node, is tampering. */
import { basename } from "node:path";
import { Refusal } from "../core/errors.js";
import type { ProcessEvent } from "./process-event.js";

/** Node binaries may write to the hooks' channel: the wrapper's own, or one named like Node. */
function isNodeBinary(path: string, known: ReadonlySet<string>): boolean {
  return known.has(path) || /^node(?:js)?[0-9.]*$/.test(basename(path));
}

/** The refusal an open of the channel calls for (`exe`: what the process runs, as last recorded), or null. */
export function channelTampering(
  open: Extract<ProcessEvent, { kind: "channel" }>,
  exe: string,
  nodeBinaries: ReadonlySet<string>,
): Refusal | null {
  if (!open.writeOnly) {
    return new Refusal(
      "OBSERVER_CHANNEL_TAMPERED",
      `process ${open.tgid} (${exe}) opened the hooks' channel for reading: it could take other processes' records`,
    );
  }
  if (!isNodeBinary(exe, nodeBinaries)) {
    return new Refusal(
      "OBSERVER_CHANNEL_TAMPERED",
      `process ${open.tgid} (${exe}), which is not Node, opened the hooks' channel: records from it would be forged`,
    );
  }
  return null;
}
