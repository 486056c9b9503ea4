/**
 * strace's command line: which calls are traced (and refused), and the output options the
 * parser (strace.ts) relies on.
 */
import { FORBIDDEN_SYSCALLS, forbiddenNumbers, type JailArch } from "./seccomp.js";

export const TRACED_SYSCALLS = [
  "execve",
  "execveat",
  "open",
  "openat",
  "openat2",
  "creat",
  "unlink",
  "unlinkat",
  "rmdir",
  "rename",
  "renameat",
  "renameat2",
  "mkdir",
  "mkdirat",
  "mknod",
  "mknodat",
  "link",
  "linkat",
  "symlink",
  "symlinkat",
  "chmod",
  "fchmod",
  "fchmodat",
  "truncate",
  "ftruncate",
  "connect",
  "sendto",
  "sendmsg",
  "sendmmsg",
  "clone",
  "clone3",
  "fork",
  "vfork",
  "chdir",
  "fchdir",
  "chown",
  "fchown",
  "lchown",
  "fchownat",
  "utime",
  "utimes",
  "utimensat",
  "futimesat",
  "setxattr",
  "lsetxattr",
  "fsetxattr",
  "removexattr",
  "lremovexattr",
  "fremovexattr",
  "bind",
];

/**
 * Forbidden calls bubblewrap itself makes while it builds the jail (before the command runs):
 * injecting a refusal into them would break the jail. The kernel refuses them to the command
 * instead (no capabilities, no further user namespaces), and they are recorded from the line.
 */
const JAIL_SETUP_CALLS = new Set(["mount", "umount2", "pivot_root", "unshare"]);

/** The calls strace refuses (EPERM, injected) as well as records. */
export function injectedSyscalls(arch: JailArch): string[] {
  const known = new Set(forbiddenNumbers(arch).values());
  return FORBIDDEN_SYSCALLS.filter((name) => known.has(name) && !JAIL_SETUP_CALLS.has(name));
}

/**
 * strace arguments: follow forks, hex strings (unambiguous to parse), fd paths, no signals, and
 * process exit lines (`-q`, not `-qq`: the wrapper needs the jail's own exit to know the tracer
 * saw the end). With `arch`, the forbidden calls are traced and refused.
 */
export function straceArgs(outputPath: string, arch: JailArch | null = null): string[] {
  const forbidden = arch === null ? [] : [...forbiddenNumbers(arch).values()];
  const inject = arch === null ? [] : injectedSyscalls(arch);
  return [
    "-f",
    "-q",
    "--seccomp-bpf",
    "-y",
    "-xx",
    "-s",
    "8192",
    "-e",
    "signal=none",
    "-e",
    // `?` ignores a name this architecture lacks (aarch64 has no open/mkdir/...).
    `trace=${[...TRACED_SYSCALLS, ...forbidden].map((s) => `?${s}`).join(",")}`,
    ...(inject.length > 0 ? ["-e", `inject=${inject.join(",")}:error=EPERM`] : []),
    "-o",
    outputPath,
  ];
}
