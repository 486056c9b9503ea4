// Bundles each entry point with ncc into committed dist/, as ESM, runnable without node_modules
// (except the App's native SQLite binding, which stays external: the App is installed with npm ci).
// Beside each bundle, licenses.txt: the licence of every package bundled into it (ncc --license),
// the third-party notices the MIT and ISC licences of those packages ask to be kept with copies.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync, readdirSync, renameSync, existsSync } from "node:fs";
import { join } from "node:path";
import { buildRecorder } from "./build-recorder.mjs";

const finalRoot = process.argv[2] ?? "dist";
// Build beside the target and swap it in, so two builds at once never leave a half-written dist/.
const outRoot = `${finalRoot}.building-${process.pid}`;
const ncc = join("node_modules", "@vercel", "ncc", "dist", "ncc", "cli.js");

export const ENTRIES = [
  { src: "src/action/index.ts", out: "." },
  { src: "src/cli/index.ts", out: "cli", externals: ["better-sqlite3"] },
  { src: "src/observer/preload/index.ts", out: "preload", optional: true },
  { src: "src/observer/sdk.ts", out: "sdk", optional: true },
  { src: "src/observer/egress-relay.ts", out: "relay", optional: true },
  { src: "src/observer/netns-holder.ts", out: "netns", optional: true },
];

rmSync(outRoot, { recursive: true, force: true });
mkdirSync(outRoot, { recursive: true });
process.on("exit", (code) => {
  if (code !== 0) rmSync(outRoot, { recursive: true, force: true });
});
for (const entry of ENTRIES) {
  if (entry.optional && !existsSync(entry.src)) continue;
  const tmp = join(outRoot, `.build-${entry.out.replace(/\W/g, "_") || "root"}`);
  const args = [ncc, "build", entry.src, "-o", tmp, "--target", "es2022", "--no-source-map-register", "--license", "licenses.txt", "-q"];
  for (const e of entry.externals ?? []) args.push("-e", e);
  try {
    execFileSync(process.execPath, args, { stdio: "inherit" });
  } catch {
    console.error(`build failed for ${entry.src}`);
    process.exit(1);
  }
  const dest = join(outRoot, entry.out);
  mkdirSync(dest, { recursive: true });
  for (const name of readdirSync(tmp)) renameSync(join(tmp, name), join(dest, name));
  rmSync(tmp, { recursive: true, force: true });
}
try {
  buildRecorder(outRoot);
} catch (err) {
  // Without the C toolchain (clang, libbpf) the committed recorder is kept, and said so;
  // check-dist (CI) always builds it, so a stale binary cannot land.
  const committed = join(finalRoot, "recorder");
  if (process.env.ENVELOPE_GATE_BUILD_RECORDER === "require" || !existsSync(committed)) {
    console.error(err.message);
    process.exit(1);
  }
  console.error(`${err.message}; keeping the committed ${committed}`);
  cpSync(committed, join(outRoot, "recorder"), { recursive: true });
}
writeFileSync(join(outRoot, "package.json"), JSON.stringify({ type: "module" }, null, 2) + "\n");
const old = `${finalRoot}.old-${process.pid}`;
if (existsSync(finalRoot)) renameSync(finalRoot, old);
renameSync(outRoot, finalRoot);
rmSync(old, { recursive: true, force: true });
