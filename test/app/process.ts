import { spawn, type ChildProcess } from "node:child_process";
import { CLI_BUNDLE } from "../support/fixtures.js";
import { spawnBundle } from "../support/spawn.js";

export const CLI = CLI_BUNDLE;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<CliResult> {
  const r = await spawnBundle(CLI, args, { env, timeoutMs });
  if (r.timedOut) throw new Error(`envelope-gate ${args.join(" ")} did not exit within ${timeoutMs} ms\n${r.stderr}`);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

export interface AppProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `envelope-gate app start` and waits for its listening line. */
export function startAppProcess(env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<AppProcess> {
  return startListening([process.execPath, CLI, "app", "start"], env, timeoutMs);
}

/** Starts a command line that runs `app start` (under a sandbox, a shell, …) and waits for its listening line. */
export function startListening(argv: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<AppProcess> {
  return new Promise((done, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let resolved = false;
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`app did not start within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+) /.exec(out);
      if (m && !resolved) {
        resolved = true;
        clearTimeout(timer);
        done({
          url: m[1] as string,
          child,
          output: () => out,
          stop: () =>
            new Promise<void>((stopped) => {
              if (child.exitCode !== null) return stopped();
              child.once("close", () => stopped());
              child.kill("SIGTERM");
            }),
        });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("close", (code) => {
      if (!resolved) {
        clearTimeout(timer);
        reject(Object.assign(new Error(`app exited with ${code} before listening:\n${out}`), { code, output: out }));
      }
    });
  });
}
