// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of envelope-gate's eBPF recorder. Attached to raw tracepoints (no tracefs, no
 * trampolines): sys_exit for the calls the verdict needs, and the scheduler's fork, exec and exit
 * for the process tree. Records only the followed processes (the jail's gate and its
 * descendants); never stops them. Each call's strings, walked paths and addresses go out as
 * blobs, then the call itself, from the same CPU; the reader pairs them.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "kernel-types.h"
#include "recorder.h"
#include "syscalls.h"

char LICENSE[] SEC("license") = "GPL";

#define AT_FDCWD -100
#define O_ACCMODE 3
#define O_CREAT 0100
#define O_TRUNC 01000
#define O_APPEND 02000
#define S_IFMT 0170000
#define S_IFIFO 0010000
#define AT_EMPTY_PATH 0x1000
#define TMPFS_MAGIC 0x01021994
#define CLONE_NS_FLAGS (0x00020000 | 0x10000000 | 0x20000000 | 0x40000000 | 0x08000000 | 0x04000000 | 0x02000000 | 0x00000080)

struct {
  __uint(type, BPF_MAP_TYPE_RINGBUF);
  __uint(max_entries, 64 << 20);
} events SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_HASH);
  __uint(max_entries, 65536);
  __type(key, __u32);
  __type(value, __u32);
} followed SEC(".maps");

/* [0]: records the ring buffer refused; [1]: the root tgid. */
struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 2);
  __type(key, __u32);
  __type(value, __u64);
} state SEC(".maps");

struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, NR_MAX);
  __type(key, __u32);
  __type(value, __u32);
} classes SEC(".maps");

struct slot {
  struct blob_header h;
  char data[SLOT_SIZE];
};

struct argv_slot {
  struct blob_header h;
  char data[ARGV_SIZE];
};

struct {
  __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct slot);
} slots SEC(".maps");

/* One per CPU, indexed by CPU (a per-CPU map's value cannot be this large); sized at load. */
struct {
  __uint(type, BPF_MAP_TYPE_ARRAY);
  __uint(max_entries, 1);
  __type(key, __u32);
  __type(value, struct argv_slot);
} argv_slots SEC(".maps");

static __always_inline void count_lost(void) {
  __u32 k = 0;
  __u64 *v = bpf_map_lookup_elem(&state, &k);
  if (v) __sync_fetch_and_add(v, 1);
}

static __always_inline int is_followed(__u32 tgid) { return bpf_map_lookup_elem(&followed, &tgid) != 0; }

static __always_inline int send_slot(struct slot *s, __u32 field, __u32 flags, __u32 len) {
  if (len > SLOT_SIZE) return 0;
  s->h.kind = REC_BLOB;
  s->h.field = field;
  s->h.flags = flags;
  s->h.len = len;
  s->h.cpu = bpf_get_smp_processor_id();
  if (bpf_ringbuf_output(&events, s, sizeof(struct blob_header) + len, 0) != 0) {
    count_lost();
    return 0;
  }
  return 1;
}

/* A user-space string (a path argument). Returns 1 when sent. */
__noinline int send_user_string(__u64 ptr, __u32 field) {
  __u32 k = 0;
  struct slot *s = bpf_map_lookup_elem(&slots, &k);
  if (!s || ptr == 0) return 0;
  long n = bpf_probe_read_user_str(s->data, SLOT_SIZE, (const void *)ptr);
  if (n <= 0) return 0;
  __u32 flags = n >= SLOT_SIZE ? BLOB_TRUNCATED : 0;
  return send_slot(s, field, flags, (__u32)n);
}

struct walk_state {
  struct dentry *dentry;
  struct vfsmount *vfsmnt;
  struct mount *mnt;
  struct dentry *root_dentry;
  struct vfsmount *root_mnt;
  __u32 off;
  __u32 flags;
};

/* One step of a walk; bpf_loop runs it, so the verifier checks it once. 1 ends the walk. */
static long walk_step(__u64 index, void *ctx) {
  struct walk_state *w = ctx;
  __u32 k = 0;
  struct slot *s = bpf_map_lookup_elem(&slots, &k);
  if (!s) return 1;
  struct dentry *dentry = w->dentry;
  struct vfsmount *vfsmnt = w->vfsmnt;
  struct mount *mnt = w->mnt;
  if (dentry == w->root_dentry && vfsmnt == w->root_mnt) {
    w->flags |= WALK_ROOTED;
    return 1;
  }
  struct dentry *mnt_root = BPF_CORE_READ(vfsmnt, mnt_root);
  struct dentry *parent = BPF_CORE_READ(dentry, d_parent);
  if (dentry == mnt_root || dentry == parent) {
    struct mount *up = BPF_CORE_READ(mnt, mnt_parent);
    if (up == mnt || up == 0) return 1;
    w->dentry = BPF_CORE_READ(mnt, mnt_mountpoint);
    w->mnt = up;
    w->vfsmnt = (struct vfsmount *)((char *)up + bpf_core_field_offset(struct mount, mnt));
    return 0;
  }
  __u32 off = w->off;
  if (off > SLOT_SIZE - 256) {
    w->flags |= WALK_TRUNCATED;
    return 1;
  }
  const unsigned char *name = BPF_CORE_READ(dentry, d_name.name);
  long n = bpf_probe_read_kernel_str(s->data + off, 256, name);
  if (n <= 0) return 1;
  w->off = off + (__u32)n;
  w->dentry = parent;
  if (index == MAX_COMPONENTS - 1) w->flags |= WALK_TRUNCATED;
  return 0;
}

/*
 * A path walked dentry by dentry up to the calling process's root, crossing mounts as d_path
 * does; components leaf first. Stops at a namespace's root mount when the process's root is not
 * above it (then the path is relative to that mount, as d_path gives it).
 */
__noinline int send_walk(__u64 dentry_ptr, __u64 vfsmnt_ptr, __u32 field) {
  __u32 k = 0;
  if (dentry_ptr == 0 || vfsmnt_ptr == 0) return 0;
  struct task_struct *task = (struct task_struct *)bpf_get_current_task();
  struct walk_state w = {};
  w.root_dentry = BPF_CORE_READ(task, fs, root.dentry);
  w.root_mnt = BPF_CORE_READ(task, fs, root.mnt);
  w.dentry = (struct dentry *)dentry_ptr;
  w.vfsmnt = (struct vfsmount *)vfsmnt_ptr;
  w.mnt = (struct mount *)((char *)w.vfsmnt - bpf_core_field_offset(struct mount, mnt));
  struct dentry *leaf = w.dentry;
  const struct dentry_operations *ops = BPF_CORE_READ(leaf, d_op);
  if (ops && BPF_CORE_READ(ops, d_dname)) {
    struct slot *s = bpf_map_lookup_elem(&slots, &k);
    if (!s) return 0;
    const unsigned char *name = BPF_CORE_READ(leaf, d_name.name);
    long n = bpf_probe_read_kernel_str(s->data, 256, name);
    /* A tmpfs file with a made-up name (memfd, shared anonymous memory) is `/name` to d_path; a pipe, socket or anon inode is `type:[inode]`. */
    __u32 flags = BPF_CORE_READ(leaf, d_sb, s_magic) == TMPFS_MAGIC ? 0 : WALK_DNAME;
    return send_slot(s, field, flags, n > 0 ? (__u32)n : 0);
  }
  bpf_loop(MAX_COMPONENTS + 16, walk_step, &w, 0);
  struct slot *s = bpf_map_lookup_elem(&slots, &k);
  if (!s) return 0;
  return send_slot(s, field, w.flags, w.off);
}

static __always_inline struct file *fd_file(struct task_struct *task, long fd) {
  if (fd < 0) return 0;
  struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
  if (!fdt) return 0;
  unsigned int max = BPF_CORE_READ(fdt, max_fds);
  if ((unsigned long)fd >= max) return 0;
  struct file **arr = BPF_CORE_READ(fdt, fd);
  struct file *f = 0;
  bpf_probe_read_kernel(&f, sizeof(f), arr + fd);
  return f;
}

static __always_inline int walk_file(struct file *f, __u32 field) {
  if (!f) return 0;
  return send_walk((__u64)BPF_CORE_READ(f, f_path.dentry), (__u64)BPF_CORE_READ(f, f_path.mnt), field);
}

static __always_inline int walk_cwd(struct task_struct *task, __u32 field) {
  return send_walk((__u64)BPF_CORE_READ(task, fs, pwd.dentry), (__u64)BPF_CORE_READ(task, fs, pwd.mnt), field);
}

/* The directory a path argument is relative to: only when it is relative (or empty). */
static __always_inline __u32 walk_base(struct task_struct *task, long dirfd, __u64 path_ptr, __u32 field) {
  char first = 0;
  if (path_ptr) bpf_probe_read_user(&first, 1, (const void *)path_ptr);
  if (first == '/') return 0;
  int sent = (int)dirfd == AT_FDCWD ? walk_cwd(task, field) : walk_file(fd_file(task, (int)dirfd), field);
  return sent ? (1u << field) : 0;
}

static __always_inline __u32 send_path(__u64 ptr, __u32 field) { return send_user_string(ptr, field) ? (1u << field) : 0; }

/* Up to MAX_ADDRS socket addresses, each a u16 length and its bytes. */
__noinline int send_addrs(__u64 a0, __u64 l0, __u64 vec, __u64 count) {
  __u32 k = 0;
  struct slot *s = bpf_map_lookup_elem(&slots, &k);
  if (!s) return 0;
  __u32 off = 0;
  for (int i = 0; i < MAX_ADDRS; i++) {
    __u64 ptr = 0;
    __u32 len = 0;
    if (vec == 0) {
      if (i > 0) break;
      ptr = a0;
      len = (__u32)l0;
    } else {
      if ((__u64)i >= count) break;
      /* struct mmsghdr: msghdr (msg_name at 0, msg_namelen at 8) then msg_len; 64 bytes each. */
      __u64 hdr = vec + (__u64)i * 64;
      bpf_probe_read_user(&ptr, 8, (const void *)hdr);
      bpf_probe_read_user(&len, 4, (const void *)(hdr + 8));
    }
    if (ptr == 0 || len == 0) continue;
    __u64 n = len > 128 ? 128 : len;
    asm volatile("" : "+r"(n)); /* keep the bound on the register the helper gets */
    n &= 0xff;
    if (off > SLOT_SIZE - 256) break;
    *(__u16 *)(s->data + off) = (__u16)n;
    if (bpf_probe_read_user(s->data + off + 2, n, (const void *)ptr) != 0) continue;
    off += 2 + (__u32)n;
  }
  if (off == 0) return 0;
  return send_slot(s, F_ADDR, 0, off);
}

static __always_inline void send_call(struct call_record *r) {
  if (bpf_ringbuf_output(&events, r, sizeof(*r), 0) != 0) count_lost();
}

SEC("raw_tp/sys_exit")
int on_sys_exit(struct bpf_raw_tracepoint_args *ctx) {
  __u64 id = bpf_get_current_pid_tgid();
  __u32 tgid = id >> 32;
  if (!is_followed(tgid)) return 0;
  struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
  long ret = (long)ctx->args[1];
  __u32 nr = (__u32)BPF_CORE_READ(regs, orig_ax);
  if (nr >= NR_MAX) return 0;
  __u32 *cls = bpf_map_lookup_elem(&classes, &nr);
  if (!cls || *cls == C_NONE) return 0;
  struct call_record r = {};
  r.kind = REC_CALL;
  r.tgid = tgid;
  r.nr = nr;
  r.ret = ret;
  r.args[0] = BPF_CORE_READ(regs, di);
  r.args[1] = BPF_CORE_READ(regs, si);
  r.args[2] = BPF_CORE_READ(regs, dx);
  r.args[3] = BPF_CORE_READ(regs, r10);
  r.args[4] = BPF_CORE_READ(regs, r8);
  r.args[5] = BPF_CORE_READ(regs, r9);
  struct task_struct *task = (struct task_struct *)bpf_get_current_task();
  __u32 fields = 0;
  switch (*cls) {
  case C_OPEN: {
    int at = nr == NR_OPENAT || nr == NR_OPENAT2;
    __u64 flags = nr == NR_CREAT ? O_CREAT : nr == NR_OPEN ? r.args[1] : r.args[2];
    if (nr == NR_OPENAT2) {
      flags = 0;
      bpf_probe_read_user(&flags, 8, (const void *)r.args[2]);
      r.args[2] = flags;
    }
    int writes = (flags & O_ACCMODE) != 0 || (flags & (O_CREAT | O_TRUNC | O_APPEND)) != 0;
    struct file *f = ret >= 0 ? fd_file(task, ret) : 0;
    unsigned short mode = f ? BPF_CORE_READ(f, f_inode, i_mode) : 0;
    /* A read-only open records nothing, unless it opened a FIFO (the hooks' channel is one). */
    if (!writes && (mode & S_IFMT) != S_IFIFO) return 0;
    r.mode = mode;
    __u64 path = at ? r.args[1] : r.args[0];
    fields |= send_path(path, F_STR0);
    fields |= walk_base(task, at ? (long)r.args[0] : AT_FDCWD, path, F_DIR0);
    if (f && walk_file(f, F_RET)) fields |= 1u << F_RET;
    break;
  }
  case C_PATH1:
    fields |= send_path(r.args[0], F_STR0);
    fields |= walk_base(task, AT_FDCWD, r.args[0], F_DIR0);
    break;
  case C_PATH2:
    fields |= send_path(r.args[0], F_STR0);
    fields |= walk_base(task, AT_FDCWD, r.args[0], F_DIR0);
    fields |= send_path(r.args[1], F_STR1);
    fields |= walk_base(task, AT_FDCWD, r.args[1], F_DIR1);
    break;
  case C_SYMLINK:
    fields |= send_path(r.args[0], F_STR0);
    fields |= send_path(r.args[1], F_STR1);
    fields |= walk_base(task, AT_FDCWD, r.args[1], F_DIR1);
    break;
  case C_AT1:
    fields |= send_path(r.args[1], F_STR0);
    fields |= walk_base(task, (long)r.args[0], r.args[1], F_DIR0);
    break;
  case C_AT2:
    fields |= send_path(r.args[1], F_STR0);
    fields |= walk_base(task, (long)r.args[0], r.args[1], F_DIR0);
    fields |= send_path(r.args[3], F_STR1);
    fields |= walk_base(task, (long)r.args[2], r.args[3], F_DIR1);
    break;
  case C_SYMLINKAT:
    fields |= send_path(r.args[0], F_STR0);
    fields |= send_path(r.args[2], F_STR1);
    fields |= walk_base(task, (long)r.args[1], r.args[2], F_DIR1);
    break;
  case C_FD:
    if (walk_file(fd_file(task, (long)r.args[0]), F_RET)) fields |= 1u << F_RET;
    break;
  case C_ADDR: {
    int sent = 0;
    if (nr == NR_CONNECT || nr == NR_BIND) sent = send_addrs(r.args[1], r.args[2], 0, 0);
    else if (nr == NR_SENDTO) sent = send_addrs(r.args[4], r.args[5], 0, 0);
    else if (nr == NR_SENDMSG) sent = send_addrs(0, 0, r.args[1], 1);
    else if (nr == NR_SENDMMSG) sent = send_addrs(0, 0, r.args[1], r.args[2]);
    /* A send with no address goes where the socket is connected: its connect was recorded. */
    if (!sent && nr != NR_CONNECT && nr != NR_BIND) return 0;
    if (sent) fields |= 1u << F_ADDR;
    break;
  }
  case C_CLONE:
    /* ret 0 is the child returning from the same call: its parent records it */
    if ((r.args[0] & CLONE_NS_FLAGS) == 0 || ret == 0) return 0;
    break;
  case C_FORBIDDEN:
    break;
  case C_CHDIR:
    if (ret != 0) return 0;
    if (walk_cwd(task, F_DIR0)) fields |= 1u << F_DIR0;
    break;
  default:
    return 0;
  }
  r.fields = fields;
  r.cpu = bpf_get_smp_processor_id();
  send_call(&r);
  return 0;
}

static __always_inline __u32 inner_pid(struct task_struct *task) {
  struct pid *pid = BPF_CORE_READ(task, thread_pid);
  if (!pid) return 0;
  unsigned int level = BPF_CORE_READ(pid, level);
  int nr = 0;
  if (level > 32) return 0;
  bpf_probe_read_kernel(&nr, sizeof(nr), (char *)pid + bpf_core_field_offset(struct pid, numbers) + level * sizeof(struct upid));
  return (__u32)nr;
}

SEC("raw_tp/sched_process_fork")
int on_fork(struct bpf_raw_tracepoint_args *ctx) {
  struct task_struct *parent = (struct task_struct *)ctx->args[0];
  struct task_struct *child = (struct task_struct *)ctx->args[1];
  __u32 ptgid = BPF_CORE_READ(parent, tgid);
  if (!is_followed(ptgid)) return 0;
  __u32 cpid = BPF_CORE_READ(child, pid);
  __u32 ctgid = BPF_CORE_READ(child, tgid);
  if (cpid != ctgid) return 0; /* a thread: its process is followed already */
  __u32 one = 1;
  if (bpf_map_update_elem(&followed, &ctgid, &one, BPF_ANY) != 0) {
    count_lost(); /* the set is full: this process would go unrecorded */
    return 0;
  }
  struct fork_record r = {REC_FORK, ctgid, ptgid, inner_pid(child)};
  if (bpf_ringbuf_output(&events, &r, sizeof(r), 0) != 0) count_lost();
  return 0;
}

SEC("raw_tp/sched_process_exec")
int on_exec(struct bpf_raw_tracepoint_args *ctx) {
  struct task_struct *task = (struct task_struct *)ctx->args[0];
  struct linux_binprm *bprm = (struct linux_binprm *)ctx->args[2];
  __u32 tgid = BPF_CORE_READ(task, tgid);
  if (!is_followed(tgid)) return 0;
  struct call_record r = {};
  r.kind = REC_EXEC;
  r.tgid = tgid;
  r.inner = inner_pid(task);
  __u32 fields = 0;
  __u32 k = 0;
  struct slot *s = bpf_map_lookup_elem(&slots, &k);
  if (s) {
    const char *filename = BPF_CORE_READ(bprm, filename);
    long n = bpf_probe_read_kernel_str(s->data, SLOT_SIZE, filename);
    if (n > 0) {
      char first = s->data[0];
      /* execveat(fd, "", AT_EMPTY_PATH) or (fd, "name") is run as /dev/fd/N[/name]: the name is fd N's file. */
      long fd = -1;
      if (n > 8 && s->data[0] == '/' && s->data[1] == 'd' && s->data[2] == 'e' && s->data[3] == 'v' && s->data[4] == '/' &&
          s->data[5] == 'f' && s->data[6] == 'd' && s->data[7] == '/') {
        fd = 0;
        for (int i = 8; i < 16; i++) {
          char c = s->data[i];
          if (c < '0' || c > '9') break;
          fd = fd * 10 + (c - '0');
        }
      }
      if (send_slot(s, F_NAME, n >= SLOT_SIZE ? BLOB_TRUNCATED : 0, (__u32)n)) fields |= 1u << F_NAME;
      if (fd >= 0) {
        /* Open still (no close-on-exec: a script's must be), or gone, and the executable is the file. */
        if (walk_file(fd_file(task, fd), F_DIR0)) fields |= 1u << F_DIR0;
        r.mode = (fields & (1u << F_DIR0)) ? EXEC_BY_FD : EXEC_BY_FD_GONE;
      } else if (first != '/' && walk_cwd(task, F_DIR0)) {
        fields |= 1u << F_DIR0;
      }
    }
  }
  if (walk_file(BPF_CORE_READ(bprm, file), F_EXE)) fields |= 1u << F_EXE;
  __u32 cpu = bpf_get_smp_processor_id();
  struct argv_slot *a = bpf_map_lookup_elem(&argv_slots, &cpu);
  if (a) {
    unsigned long start = BPF_CORE_READ(task, mm, arg_start);
    unsigned long end = BPF_CORE_READ(task, mm, arg_end);
    unsigned long len = end > start ? end - start : 0;
    __u32 flags = 0;
    if (len > ARGV_SIZE) {
      len = ARGV_SIZE;
      flags = BLOB_TRUNCATED;
    }
    if (len > 0 && bpf_probe_read_user(a->data, len & (ARGV_SIZE - 1) ? len & (ARGV_SIZE - 1) : ARGV_SIZE, (const void *)start) == 0) {
      a->h.kind = REC_BLOB;
      a->h.field = F_ARGV;
      a->h.flags = flags;
      a->h.len = len;
      a->h.cpu = bpf_get_smp_processor_id();
      __u32 total = sizeof(struct blob_header) + (__u32)len;
      if (total <= sizeof(*a) && bpf_ringbuf_output(&events, a, total, 0) == 0) fields |= 1u << F_ARGV;
      else count_lost();
    }
  }
  r.fields = fields;
  r.cpu = bpf_get_smp_processor_id();
  send_call(&r);
  return 0;
}

SEC("raw_tp/sched_process_exit")
int on_exit(struct bpf_raw_tracepoint_args *ctx) {
  struct task_struct *task = (struct task_struct *)ctx->args[0];
  __u32 tgid = BPF_CORE_READ(task, tgid);
  if (!is_followed(tgid)) return 0;
  if (BPF_CORE_READ(task, signal, live.counter) != 0) return 0; /* other threads live on */
  bpf_map_delete_elem(&followed, &tgid);
  __u32 k = 1;
  __u64 *root = bpf_map_lookup_elem(&state, &k);
  if (!root || *root != tgid) return 0;
  struct exit_record r = {REC_EXIT, tgid, BPF_CORE_READ(task, exit_code), 0};
  if (bpf_ringbuf_output(&events, &r, sizeof(r), 0) != 0) count_lost();
  return 0;
}
