import { expandRoots, type LoadedEnvelope } from "../core/envelope.js";
import { reportFromError, reportFromVerdict, type CheckReport } from "../core/verdict.js";
import { evaluateLogFile, readVerifiedEnvelope } from "./files.js";

export interface CheckSettings {
  envelopePath: string;
  digestPath?: string | undefined;
  logPath: string;
  workspace?: string | undefined;
  scratch?: string | undefined;
}

export interface CheckOutcome {
  report: CheckReport;
  /** The verified envelope, when it got that far (for annotations on its lines). */
  envelope: LoadedEnvelope | null;
}

/** Verify the pinned envelope, then judge the log against it. Never throws; errors become the `error` verdict. */
export async function runCheck(settings: CheckSettings): Promise<CheckOutcome> {
  let envelope: LoadedEnvelope | null = null;
  try {
    envelope = await readVerifiedEnvelope(settings.envelopePath, settings.digestPath);
    const roots = expandRoots(envelope, { workspace: settings.workspace, scratch: settings.scratch });
    const verdict = await evaluateLogFile(envelope, settings.logPath, { roots });
    return { report: reportFromVerdict(verdict), envelope };
  } catch (err) {
    return { report: reportFromError(err, envelope), envelope };
  }
}
