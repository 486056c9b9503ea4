/*
 * The system calls the recorder prints (x86_64 numbers), with how their arguments are read.
 * Mirrors src/observer/strace.ts TRACED_SYSCALLS and src/observer/seccomp.ts's forbidden table;
 * test/observer/recorder-native.test.ts holds the three to each other.
 */
#ifndef ENVELOPE_GATE_SYSCALLS_H
#define ENVELOPE_GATE_SYSCALLS_H

enum call_class {
  C_NONE = 0,
  C_OPEN,      /* open(path, flags) / openat(dirfd, path, flags) / openat2 / creat */
  C_PATH1,     /* one path in arg 0 */
  C_PATH2,     /* paths in args 0 and 1 (rename, link) */
  C_SYMLINK,   /* symlink(target, linkpath): only linkpath is a place */
  C_AT1,       /* dirfd in arg 0, path in arg 1 */
  C_AT2,       /* dirfd 0, path 1, dirfd 2, path 3 */
  C_SYMLINKAT, /* target 0, dirfd 1, path 2 */
  C_FD,        /* fd in arg 0 */
  C_ADDR,      /* a socket address */
  C_CLONE,     /* printed only with namespace flags */
  C_FORBIDDEN, /* refused by the jail: always printed */
  C_CHDIR,     /* printed as chdir("<the new cwd, walked>") when it succeeds */
};

/* X(number, name, class) */
#define RECORDED_SYSCALLS(X)                                                                              \
  X(2, open, C_OPEN) X(257, openat, C_OPEN) X(437, openat2, C_OPEN) X(85, creat, C_OPEN)                 \
  X(87, unlink, C_PATH1) X(84, rmdir, C_PATH1) X(263, unlinkat, C_AT1)                                   \
  X(82, rename, C_PATH2) X(264, renameat, C_AT2) X(316, renameat2, C_AT2)                                \
  X(83, mkdir, C_PATH1) X(258, mkdirat, C_AT1) X(133, mknod, C_PATH1) X(259, mknodat, C_AT1)             \
  X(86, link, C_PATH2) X(265, linkat, C_AT2) X(88, symlink, C_SYMLINK) X(266, symlinkat, C_SYMLINKAT)    \
  X(90, chmod, C_PATH1) X(91, fchmod, C_FD) X(268, fchmodat, C_AT1)                                      \
  X(76, truncate, C_PATH1) X(77, ftruncate, C_FD)                                                        \
  X(42, connect, C_ADDR) X(44, sendto, C_ADDR) X(46, sendmsg, C_ADDR) X(307, sendmmsg, C_ADDR)           \
  X(56, clone, C_CLONE)                                                                                  \
  X(92, chown, C_PATH1) X(93, fchown, C_FD) X(94, lchown, C_PATH1) X(260, fchownat, C_AT1)               \
  X(132, utime, C_PATH1) X(235, utimes, C_PATH1) X(280, utimensat, C_AT1) X(261, futimesat, C_AT1)       \
  X(188, setxattr, C_PATH1) X(189, lsetxattr, C_PATH1) X(190, fsetxattr, C_FD)                           \
  X(197, removexattr, C_PATH1) X(198, lremovexattr, C_PATH1) X(199, fremovexattr, C_FD)                  \
  X(49, bind, C_ADDR) X(80, chdir, C_CHDIR) X(81, fchdir, C_CHDIR)                                       \
  X(304, open_by_handle_at, C_FORBIDDEN) X(165, mount, C_FORBIDDEN) X(166, umount2, C_FORBIDDEN)         \
  X(155, pivot_root, C_FORBIDDEN) X(429, move_mount, C_FORBIDDEN) X(428, open_tree, C_FORBIDDEN)         \
  X(430, fsopen, C_FORBIDDEN) X(431, fsconfig, C_FORBIDDEN) X(432, fsmount, C_FORBIDDEN)                 \
  X(433, fspick, C_FORBIDDEN) X(442, mount_setattr, C_FORBIDDEN) X(272, unshare, C_FORBIDDEN)            \
  X(308, setns, C_FORBIDDEN) X(438, pidfd_getfd, C_FORBIDDEN) X(101, ptrace, C_FORBIDDEN)                \
  X(310, process_vm_readv, C_FORBIDDEN) X(311, process_vm_writev, C_FORBIDDEN) X(321, bpf, C_FORBIDDEN)  \
  X(298, perf_event_open, C_FORBIDDEN) X(323, userfaultfd, C_FORBIDDEN) X(250, keyctl, C_FORBIDDEN)      \
  X(248, add_key, C_FORBIDDEN) X(249, request_key, C_FORBIDDEN) X(246, kexec_load, C_FORBIDDEN)          \
  X(320, kexec_file_load, C_FORBIDDEN) X(175, init_module, C_FORBIDDEN) X(313, finit_module, C_FORBIDDEN) \
  X(176, delete_module, C_FORBIDDEN) X(161, chroot, C_FORBIDDEN) X(163, acct, C_FORBIDDEN)               \
  X(167, swapon, C_FORBIDDEN) X(168, swapoff, C_FORBIDDEN) X(169, reboot, C_FORBIDDEN)                   \
  X(300, fanotify_init, C_FORBIDDEN) X(172, iopl, C_FORBIDDEN) X(173, ioperm, C_FORBIDDEN)

#define NR_OPEN 2
#define NR_OPENAT 257
#define NR_OPENAT2 437
#define NR_CREAT 85
#define NR_CONNECT 42
#define NR_SENDTO 44
#define NR_SENDMSG 46
#define NR_SENDMMSG 307
#define NR_BIND 49
#define NR_FCHOWNAT 260
#define NR_UTIMENSAT 280
#define NR_MAX 512

#endif
