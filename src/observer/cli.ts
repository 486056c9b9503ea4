import { parseArgs } from "node:util";
import { ENVELOPE_LOG_OPTIONS } from "../gate/options.js";
import { runObserved } from "./run.js";

/**
 * `envelope-gate run --envelope E [--sha256 F] --observer L [--workspace DIR] [--scratch DIR] [--node-only] -- CMD [ARGS...]`
 * Returns the command's exit code; typed errors propagate to the CLI (exit 3).
 */
export async function runCommand(args: string[], usage: (message: string) => never): Promise<number> {
  const dashes = args.indexOf("--");
  if (dashes === -1) usage("run needs `-- CMD [ARGS...]`");
  const command = args.slice(dashes + 1);
  if (command.length === 0 || command[0] === "") usage("run needs a command after --");
  const { values } = parseArgs({
    args: args.slice(0, dashes),
    options: { ...ENVELOPE_LOG_OPTIONS, "node-only": { type: "boolean", default: false } },
    strict: true,
    allowPositionals: false,
  });
  if (!values.envelope) usage("run needs --envelope");
  if (!values.observer) usage("run needs --observer");
  return runObserved({
    envelopePath: values.envelope,
    digestPath: values.sha256,
    logPath: values.observer,
    workspace: values.workspace,
    scratch: values.scratch,
    nodeOnly: values["node-only"] === true,
    command,
  });
}
