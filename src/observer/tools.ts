/** The programs and bundles a run needs, found (or refused) before anything starts. */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { delimiter, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { Refusal } from "../core/errors.js";

/** Test and packaging seam: which strace to use. Pointing it at nothing makes the run refuse. */
const STRACE_ENV = "ENVELOPE_GATE_STRACE";

/** Finds an executable the way execvp would, with the wrapper's own PATH. */
export function resolveExecutable(name: string, pathValue: string | undefined): string | null {
  const candidates = name.includes("/")
    ? [resolve(name)]
    : (pathValue ?? "")
        .split(delimiter)
        .filter((d) => d !== "")
        .map((d) => join(resolve(d), name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      continue;
    }
  }
  return null;
}

export function preloadBundlePath(): string {
  // Beside the CLI bundle: dist/cli/index.js -> dist/preload/index.js (kept out of the bundler's asset analysis).
  const parts = [dirname(fileURLToPath(import.meta.url)), "..", "preload", "index.js"];
  return parts.join(sep);
}

export function relayBundlePath(): string {
  return [dirname(fileURLToPath(import.meta.url)), "..", "relay", "index.js"].join(sep);
}

/** The jail's network holder (netns-holder.ts), bundled beside the relay. */
export function netnsBundlePath(): string {
  return [dirname(fileURLToPath(import.meta.url)), "..", "netns", "index.js"].join(sep);
}

/** The strace binary (ENVELOPE_GATE_STRACE, else strace on PATH), or the refusal naming what is missing. */
export function straceOrRefuse(): string {
  const configured = process.env[STRACE_ENV];
  const found =
    configured !== undefined ? (resolveExecutable(configured, process.env.PATH) ?? null) : resolveExecutable("strace", process.env.PATH);
  if (found === null) {
    throw new Refusal(
      "OBSERVER_UNAVAILABLE",
      `the process-level observer cannot start: strace not found${configured !== undefined ? ` at ${configured}` : " on PATH"}`,
      {
        hint: "Install strace (apt-get install -y strace). Node-only observation runs only when asked for with --node-only, and the log then says so.",
      },
    );
  }
  return found;
}

/** The jail's launcher (jail.ts): coreutils' env. */
export function findLauncher(): string | null {
  return ["/usr/bin/env", "/bin/env"].find((p) => existsSync(p)) ?? null;
}

/** util-linux setpriv, which starts the recorder with a parent-death signal. */
export function findSetpriv(): string | null {
  return resolveExecutable("setpriv", process.env.PATH) ?? ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p)) ?? null;
}

/** A util-linux program (unshare, nsenter) on PATH or in /usr/bin, /bin. */
export function findUtilLinux(name: string): string | null {
  return resolveExecutable(name, process.env.PATH) ?? [`/usr/bin/${name}`, `/bin/${name}`].find((p) => existsSync(p)) ?? null;
}
