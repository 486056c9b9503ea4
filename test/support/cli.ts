import { CLI_BUNDLE, REPO_ROOT } from "./fixtures.js";
import { spawnBundleSync } from "./spawn.js";

export { REPO_ROOT };
export const CLI = CLI_BUNDLE;

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bundled command line as a real process. */
export function cli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  const r = spawnBundleSync(CLI, args, opts);
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
}
