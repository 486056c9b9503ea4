/**
 * The jail's seccomp filter, as a classic BPF program that bubblewrap installs (`--seccomp FD`)
 * on the command just before it runs. Pure: builds bytes, runs nothing.
 *
 * - A call that would blind or escape the observer (FORBIDDEN_SYSCALLS) returns
 *   SECCOMP_RET_TRACE. Under strace, which is told to inject EPERM into exactly those calls, the
 *   call is refused AND printed (`= -1 EPERM (INJECTED)`), so it is recorded and judged as
 *   `forbidden_syscall:<name>`. With no tracer attached the kernel refuses a TRACE call with
 *   ENOSYS on its own: a dead tracer can never turn the refusal into an allow. Under the eBPF
 *   recorder (`"eperm"`) there is no tracer to inject the refusal: the filter returns EPERM
 *   itself, and the recorder sees the refused call at sys_exit.
 * - `clone3` returns ENOSYS: its flags sit behind a pointer the filter cannot read, and libc
 *   falls back to `clone`, whose flags strace prints (namespace flags are recorded there, and
 *   the kernel refuses them: the jail has no capabilities and user namespaces are disabled).
 * - System calls newer than the tracer knows by name (numbers from NEWEST_KNOWN_SYSCALL + 1)
 *   return ENOSYS, so libc falls back to the older calls the tracer does record
 *   (`fchmodat2` -> `fchmodat`, for example).
 * - Another ABI returns ENOSYS: i386 through int 0x80 by its audit arch, x32 on x86-64 because
 *   its numbers (0x40000000 and up) are above NEWEST_KNOWN_SYSCALL.
 * - io_uring returns ENOSYS: in the jail it does not exist (see ABSENT).
 */

export type JailArch = "x86_64" | "aarch64";

/** [name, x86_64 number, aarch64 number or null where the architecture lacks the call]. */
const TABLE: readonly (readonly [string, number, number | null])[] = [
  ["open_by_handle_at", 304, 265],
  ["mount", 165, 40],
  ["umount2", 166, 39],
  ["pivot_root", 155, 41],
  ["move_mount", 429, 429],
  ["open_tree", 428, 428],
  ["fsopen", 430, 430],
  ["fsconfig", 431, 431],
  ["fsmount", 432, 432],
  ["fspick", 433, 433],
  ["mount_setattr", 442, 442],
  ["unshare", 272, 97],
  ["setns", 308, 268],
  ["pidfd_getfd", 438, 438],
  ["ptrace", 101, 117],
  ["process_vm_readv", 310, 270],
  ["process_vm_writev", 311, 271],
  ["bpf", 321, 280],
  ["perf_event_open", 298, 241],
  ["userfaultfd", 323, 282],
  ["keyctl", 250, 219],
  ["add_key", 248, 217],
  ["request_key", 249, 218],
  ["kexec_load", 246, 104],
  ["kexec_file_load", 320, 294],
  ["init_module", 175, 105],
  ["finit_module", 313, 273],
  ["delete_module", 176, 106],
  ["chroot", 161, 51],
  ["acct", 163, 89],
  ["swapon", 167, 224],
  ["swapoff", 168, 225],
  ["reboot", 169, 142],
  ["fanotify_init", 300, 262],
  ["iopl", 172, null],
  ["ioperm", 173, null],
];

/**
 * io_uring answers ENOSYS, as on a kernel built without it: its operations run outside any
 * system call the tracer sees, so it must not exist in the jail, and runtimes probe it on every
 * start (Node 24's libuv calls io_uring_setup in each process) and fall back on ENOSYS. A probe
 * of a missing facility is not an attempt worth judging; everything done after the fallback is
 * observed as usual.
 */
const ABSENT: readonly (readonly [string, number, number])[] = [
  ["io_uring_setup", 425, 425],
  ["io_uring_enter", 426, 426],
  ["io_uring_register", 427, 427],
];

/** Names of the calls the jail refuses and records. */
export const FORBIDDEN_SYSCALLS: readonly string[] = TABLE.map(([name]) => name);

const CLONE3 = 435;
const SECCOMP: Record<JailArch, number> = { x86_64: 317, aarch64: 277 };
/** seccomp(2)'s SECCOMP_SET_MODE_FILTER and SECCOMP_FILTER_FLAG_NEW_LISTENER. */
const SECCOMP_SET_MODE_FILTER = 1;
const SECCOMP_FILTER_FLAG_NEW_LISTENER = 8;
/**
 * The newest system call the process observer (strace 6.1, Debian 12's) knows by name is
 * set_mempolicy_home_node (450); later ones are refused with ENOSYS (see above).
 */
const NEWEST_KNOWN_SYSCALL = 450;

const AUDIT_ARCH: Record<JailArch, number> = { x86_64: 0xc000003e, aarch64: 0xc00000b7 };

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_JSET_K = 0x45;
const BPF_RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_TRACE = 0x7ff00000;
const RET_ERRNO = 0x00050000;
const ENOSYS = 38;
const EPERM = 1;
/** offsetof(struct seccomp_data, nr) and (…, arch). */
const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** Low 32 bits of args[0] and args[1] (little-endian). */
const OFFSET_ARG0 = 16;
const OFFSET_ARG1 = 24;

export function jailArch(arch: string = process.arch): JailArch | null {
  if (arch === "x64") return "x86_64";
  if (arch === "arm64") return "aarch64";
  return null;
}

export function forbiddenNumbers(arch: JailArch): Map<number, string> {
  const out = new Map<number, string>();
  for (const [name, x86, arm] of TABLE) {
    const nr = arch === "x86_64" ? x86 : arm;
    if (nr !== null) out.set(nr, name);
  }
  return out;
}

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The filter program: `struct sock_filter[]`, little-endian, as bwrap --seccomp reads it. */
export function seccompProgram(arch: JailArch, forbiddenAction: "trace" | "eperm" = "trace"): Buffer {
  const program: Instruction[] = [];
  const forbidden = [...forbiddenNumbers(arch).keys()];
  program.push([BPF_LD_W_ABS, 0, 0, OFFSET_ARCH]);
  program.push([BPF_JEQ_K, 1, 0, AUDIT_ARCH[arch]]);
  program.push([BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS]);
  program.push([BPF_LD_W_ABS, 0, 0, OFFSET_NR]);
  program.push([BPF_JEQ_K, 0, 1, CLONE3]);
  program.push([BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS]);
  // A filter of the command's own with a user-notification listener outranks TRACE: its
  // supervisor could let calls run that strace never stops on. Refused (EPERM).
  program.push([BPF_JEQ_K, 0, 6, SECCOMP[arch]]); // not seccomp: on, with nr still loaded
  program.push([BPF_LD_W_ABS, 0, 0, OFFSET_ARG0]);
  program.push([BPF_JEQ_K, 0, 3, SECCOMP_SET_MODE_FILTER]); // another operation: reload nr
  program.push([BPF_LD_W_ABS, 0, 0, OFFSET_ARG1]);
  program.push([BPF_JSET_K, 0, 1, SECCOMP_FILTER_FLAG_NEW_LISTENER]);
  program.push([BPF_RET_K, 0, 0, RET_ERRNO | EPERM]);
  program.push([BPF_LD_W_ABS, 0, 0, OFFSET_NR]);
  program.push([BPF_JGE_K, 0, 1, NEWEST_KNOWN_SYSCALL + 1]);
  program.push([BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS]);
  for (const [, x86, arm] of ABSENT) {
    program.push([BPF_JEQ_K, 0, 1, arch === "x86_64" ? x86 : arm]);
    program.push([BPF_RET_K, 0, 0, RET_ERRNO | ENOSYS]);
  }
  for (const nr of forbidden) {
    program.push([BPF_JEQ_K, 0, 1, nr]);
    program.push([BPF_RET_K, 0, 0, forbiddenAction === "trace" ? RET_TRACE : RET_ERRNO | EPERM]);
  }
  program.push([BPF_RET_K, 0, 0, RET_ALLOW]);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}
