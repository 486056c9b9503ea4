// Starts `envelope-gate app start` (the built dist) with `env` and resolves once it listens.
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";

const CLI = join(resolve(import.meta.dirname, "../.."), "dist/cli/index.js");

/** Resolves to { url, child } once the App prints its listening line; its output is then drained. */
export function spawnApp(env) {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [CLI, "app", "start"], { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`app did not start:\n${out}`)), 30_000);
    const onData = (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+) /.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.removeAllListeners("data");
        child.stderr.removeAllListeners("data");
        child.stdout.resume();
        child.stderr.resume();
        done({ url: m[1], child });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("close", (code) => {
      clearTimeout(timer);
      reject(new Error(`app exited ${code} before listening:\n${out}`));
    });
  });
}
