// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel side of envelope-gate's eBPF recorder. Attached to raw tracepoints (no tracefs, no
 * trampolines): sys_enter and sys_exit for the calls the verdict needs, and the scheduler's fork,
 * exec and exit for the process tree. Records only the followed processes (the jail's gate and
 * its descendants); never stops them. A call's path names and the directories they are relative
 * to are read at its entry (the names the kernel is about to use) into the thread's stash, and
 * read again at its exit: when the two differ, the call is marked (another thread rewrote the
 * name, or moved the directory, while the kernel worked). Each call's strings, walked paths and
 * addresses go out as blobs, then the call itself, from the same CPU; the reader pairs them.
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
  __uint(max_entries, 256 << 20);
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

struct str_blob {
  struct blob_header h;
  char data[STR_SIZE];
};

struct walk_blob {
  struct blob_header h;
  char data[SLOT_SIZE];
};

#define BASE_NONE (-1000)
#define BASE_LEADER_CWD (-200)

/* A call's names as read at its entry, per thread: kept until the call's exit reads them. */
struct stash {
  __u32 nr;     /* the call's number + 1; 0: nothing held */
  __u32 fields; /* which of F_STR0, F_STR1, F_DIR0, F_DIR1 are held */
  int base[2];  /* what each name's directory is: AT_FDCWD (the cwd), BASE_LEADER_CWD, an fd, or BASE_NONE */
  __u64 oflags; /* an open's flags as the call had them at entry (openat2's are in user memory) */
  struct str_blob str[2];
  struct walk_blob dir[2];
};

struct {
  __uint(type, BPF_MAP_TYPE_TASK_STORAGE);
  __uint(map_flags, BPF_F_NO_PREALLOC);
  __type(key, int);
  __type(value, struct stash);
} stashes SEC(".maps");

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
    if (index == WALK_STEPS - 1) w->flags |= WALK_TRUNCATED;
    return 0;
  }
  __u32 off = w->off;
  if (off > SLOT_SIZE - 256) {
    w->flags |= WALK_TRUNCATED;
    return 1;
  }
  const unsigned char *name = BPF_CORE_READ(dentry, d_name.name);
  long n = bpf_probe_read_kernel_str(s->data + off, 256, name);
  if (n <= 0) {
    w->flags |= WALK_TRUNCATED;
    return 1;
  }
  w->off = off + (__u32)n;
  w->dentry = parent;
  if (index == WALK_STEPS - 1) w->flags |= WALK_TRUNCATED;
  return 0;
}

/*
 * A path walked dentry by dentry up to the calling process's root, crossing mounts as d_path
 * does, into this CPU's slot (its header's len and flags); components leaf first. Stops at a
 * namespace's root mount when the process's root is not above it (then the path is relative to
 * that mount, as d_path gives it). A path longer than the slot, or deeper than WALK_STEPS, is
 * flagged WALK_TRUNCATED, never sent as if whole. Returns the slot, or 0.
 */
static __noinline struct slot *walk_slot(__u64 dentry_ptr, __u64 vfsmnt_ptr) {
  __u32 k = 0;
  if (dentry_ptr == 0 || vfsmnt_ptr == 0) return 0;
  struct slot *s = bpf_map_lookup_elem(&slots, &k);
  if (!s) return 0;
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
    const unsigned char *name = BPF_CORE_READ(leaf, d_name.name);
    long n = bpf_probe_read_kernel_str(s->data, 256, name);
    /* A tmpfs file with a made-up name (memfd, shared anonymous memory) is `/name` to d_path; a pipe, socket or anon inode is `type:[inode]`. */
    s->h.flags = BPF_CORE_READ(leaf, d_sb, s_magic) == TMPFS_MAGIC ? 0 : WALK_DNAME;
    s->h.len = n > 0 ? (__u32)n : 0;
    return s;
  }
  bpf_loop(WALK_STEPS, walk_step, &w, 0);
  s = bpf_map_lookup_elem(&slots, &k);
  if (!s) return 0;
  s->h.flags = w.flags;
  s->h.len = w.off;
  return s;
}

static __noinline int send_walk(__u64 dentry_ptr, __u64 vfsmnt_ptr, __u32 field) {
  struct slot *s = walk_slot(dentry_ptr, vfsmnt_ptr);
  if (!s) return 0;
  return send_slot(s, field, s->h.flags, s->h.len);
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

static __always_inline __u32 inner_pid(struct task_struct *task) {
  struct pid *pid = BPF_CORE_READ(task, thread_pid);
  if (!pid) return 0;
  unsigned int level = BPF_CORE_READ(pid, level);
  int nr = 0;
  if (level > 32) return 0;
  bpf_probe_read_kernel(&nr, sizeof(nr), (char *)pid + bpf_core_field_offset(struct pid, numbers) + level * sizeof(struct upid));
  return (__u32)nr;
}

/*
 * The directory `base` names (AT_FDCWD: the calling thread's cwd; BASE_LEADER_CWD: the process's,
 * its leader's, which `/proc/self/cwd` is; else an fd's file), walked into the slot.
 */
static __noinline struct slot *walk_base_slot(long base) {
  struct task_struct *task = (struct task_struct *)bpf_get_current_task();
  if ((int)base == AT_FDCWD) return walk_slot((__u64)BPF_CORE_READ(task, fs, pwd.dentry), (__u64)BPF_CORE_READ(task, fs, pwd.mnt));
  if ((int)base == BASE_LEADER_CWD) {
    struct task_struct *leader = BPF_CORE_READ(task, group_leader);
    return walk_slot((__u64)BPF_CORE_READ(leader, fs, pwd.dentry), (__u64)BPF_CORE_READ(leader, fs, pwd.mnt));
  }
  struct file *f = fd_file(task, base);
  if (!f) return 0;
  return walk_slot((__u64)BPF_CORE_READ(f, f_path.dentry), (__u64)BPF_CORE_READ(f, f_path.mnt));
}

struct cmp_state {
  __u64 a;
  __u64 b;
  __u32 len;
  __u32 differ;
};

/* 64 bytes of two buffers compared; bpf_loop runs it. */
static long cmp_step(__u64 index, void *ctx) {
  struct cmp_state *c = ctx;
  __u32 off = (__u32)index * 64;
  if (off >= c->len) return 1;
  __u64 n = c->len - off;
  if (n > 64) n = 64;
  asm volatile("" : "+r"(n)); /* keep the bound on the register the helper gets */
  n &= 0x7f;
  __u64 x[16] = {}, y[16] = {};
  bpf_probe_read_kernel(x, n, (const void *)(c->a + off));
  bpf_probe_read_kernel(y, n, (const void *)(c->b + off));
  for (int i = 0; i < 8; i++) {
    if (x[i] != y[i]) {
      c->differ = 1;
      return 1;
    }
  }
  return 0;
}

/* Whether two blobs (header's len and flags, then the bytes) hold different things. */
static __noinline int blobs_differ(struct blob_header *a, const char *adata, struct blob_header *b, const char *bdata) {
  if (a->len != b->len || (a->flags & 0x0f) != (b->flags & 0x0f)) return 1;
  struct cmp_state c = {(__u64)adata, (__u64)bdata, a->len, 0};
  if (c.len > SLOT_SIZE) return 1;
  bpf_loop(SLOT_SIZE / 64, cmp_step, &c, 0);
  return c.differ;
}

/* Copies this CPU's slot (a walk) into a stash's blob. */
static __always_inline int keep_walk(struct slot *s, struct walk_blob *dst) {
  __u32 len = s->h.len;
  if (len > SLOT_SIZE) return 0;
  if (len > 0 && bpf_probe_read_kernel(dst->data, len, s->data) != 0) return 0;
  dst->h.len = len;
  dst->h.flags = s->h.flags;
  return 1;
}

/* `/proc/self/fd/`, `/proc/thread-self/fd/`, `/dev/fd/` at the start of d: its length, else 0. */
static __always_inline __u32 fd_prefix(const char *d) {
  if (d[0] != '/') return 0;
  if (d[1] == 'd' && d[2] == 'e' && d[3] == 'v' && d[4] == '/' && d[5] == 'f' && d[6] == 'd' && d[7] == '/') return 8;
  if (d[1] != 'p' || d[2] != 'r' || d[3] != 'o' || d[4] != 'c' || d[5] != '/') return 0;
  if (d[6] == 's' && d[7] == 'e' && d[8] == 'l' && d[9] == 'f' && d[10] == '/' && d[11] == 'f' && d[12] == 'd' && d[13] == '/') return 14;
  if (d[6] == 't' && d[7] == 'h' && d[8] == 'r' && d[9] == 'e' && d[10] == 'a' && d[11] == 'd' && d[12] == '-' && d[13] == 's' &&
      d[14] == 'e' && d[15] == 'l' && d[16] == 'f' && d[17] == '/' && d[18] == 'f' && d[19] == 'd' && d[20] == '/')
    return 21;
  return 0;
}

/*
 * `/proc/self/cwd`, `/proc/thread-self/cwd` or `/proc/<pid>/cwd` (this process's or this thread's
 * pid in its namespace) at the start of d, then `/` or the end: its length, and in *base the
 * directory it stands for (the process's cwd, its leader's; or the thread's). Else 0: another
 * process's cwd is not the caller's to know here, and is left to the reader.
 */
static __always_inline __u32 cwd_prefix(const char *d, long *base) {
  if (d[0] != '/' || d[1] != 'p' || d[2] != 'r' || d[3] != 'o' || d[4] != 'c' || d[5] != '/') return 0;
  __u32 p;
  if (d[6] == 's' && d[7] == 'e' && d[8] == 'l' && d[9] == 'f' && d[10] == '/') {
    p = 11;
    *base = BASE_LEADER_CWD;
  } else if (d[6] == 't' && d[7] == 'h' && d[8] == 'r' && d[9] == 'e' && d[10] == 'a' && d[11] == 'd' && d[12] == '-' && d[13] == 's' &&
             d[14] == 'e' && d[15] == 'l' && d[16] == 'f' && d[17] == '/') {
    p = 18;
    *base = AT_FDCWD;
  } else {
    __u32 nr = 0, j = 0;
    for (; j < 8; j++) {
      char c = d[(6 + j) & 63];
      if (c < '0' || c > '9') break;
      nr = nr * 10 + (c - '0');
    }
    if (j == 0 || d[(6 + j) & 63] != '/') return 0;
    struct task_struct *task = (struct task_struct *)bpf_get_current_task();
    if (nr == inner_pid(BPF_CORE_READ(task, group_leader))) *base = BASE_LEADER_CWD;
    else if (nr == inner_pid(task)) *base = AT_FDCWD;
    else return 0;
    p = 7 + j;
  }
  if (d[p & 63] != 'c' || d[(p + 1) & 63] != 'w' || d[(p + 2) & 63] != 'd') return 0;
  char after = d[(p + 3) & 63];
  if (after != '/' && after != 0) return 0;
  return p + 3;
}

/*
 * Entry: name i of the call (the string at ptr) and the directory it is relative to (dirfd's
 * file or the cwd; for `/proc/self/fd/N/...` and the like, fd N's file; for `/proc/self/cwd/...`
 * and the like, the cwd it names), into the stash. Global (not static), as send_name: the verifier
 * checks its body once, not again at each call site with the caller's state (most of the load's CPU).
 */
__noinline int stash_name(struct stash *st, __u32 i, __u64 ptr, long dirfd, int place) {
  if (!st) return 0;
  i &= 1;
  struct str_blob *str = &st->str[i];
  struct walk_blob *dir = &st->dir[i];
  long n = ptr ? bpf_probe_read_user_str(str->data, STR_READ, (const void *)ptr) : 0;
  if (n > 0) {
    str->h.len = (__u32)n;
    str->h.flags = n >= STR_READ ? BLOB_TRUNCATED : 0;
    st->fields |= 1u << (F_STR0 + i);
  }
  if (!place) return 0;
  long base = dirfd;
  __u32 rest = 0;
  /* No name (utimensat(fd, NULL, ...)): the call is on dirfd's file itself. */
  if (n > 0 && str->data[0] == '/') {
    __u32 p = fd_prefix(str->data);
    if (p != 0) {
      long fd = 0;
      __u32 j = 0;
      for (; j < 10; j++) {
        char c = str->data[(p + j) & 63];
        if (c < '0' || c > '9') break;
        fd = fd * 10 + (c - '0');
      }
      char after = str->data[(p + j) & 63];
      if (j == 0 || (after != '/' && after != 0)) return 0;
      base = fd;
      rest = p + j + (after == '/' ? 1 : 0);
    } else {
      __u32 c = cwd_prefix(str->data, &base);
      if (c == 0) return 0;
      rest = c + (str->data[c & 63] == '/' ? 1 : 0);
    }
  }
  struct slot *s = walk_base_slot(base);
  if (!s) return 0;
  /* A pipe's or socket's fd is no directory: the name stays as given. */
  if (rest != 0 && (s->h.flags & WALK_DNAME)) return 0;
  if (!keep_walk(s, dir)) return 0;
  st->base[i] = (int)base;
  st->fields |= 1u << (F_DIR0 + i);
  if (rest != 0) str->h.flags |= BLOB_FD_BASED | (rest << 8);
  return 0;
}

static __always_inline int send_blob(struct blob_header *h, __u32 field, __u32 len, __u32 max) {
  if (len > max) return 0;
  h->kind = REC_BLOB;
  h->field = field;
  h->cpu = bpf_get_smp_processor_id();
  if (bpf_ringbuf_output(&events, h, sizeof(struct blob_header) + len, 0) != 0) {
    count_lost();
    return 0;
  }
  return 1;
}

/*
 * Exit: name i as read at the call's entry goes out, with its directory; both are read again,
 * and *changed is set when either differs from the entry's. Returns the fields sent.
 */
__noinline __u32 send_name(struct stash *st, __u32 i, __u64 ptr, __u32 *changed) {
  if (!st || !changed) return 0;
  i &= 1;
  struct str_blob *str = &st->str[i];
  struct walk_blob *dir = &st->dir[i];
  __u32 sent = 0;
  __u32 k = 0;
  struct slot *s = bpf_map_lookup_elem(&slots, &k);
  if (!s) return 0;
  long n = ptr ? bpf_probe_read_user_str(s->data, STR_READ, (const void *)ptr) : 0;
  int had = (st->fields >> (F_STR0 + i)) & 1;
  if (!had) {
    /* Not readable at entry (its page was not present yet: a fresh binary's string, a vfork child's),
       read at exit after the kernel faulted it in. The one case where a name is the exit's. */
    if (n > 0 && send_slot(s, F_STR0 + i, n >= STR_READ ? BLOB_TRUNCATED : 0, (__u32)n)) sent |= 1u << (F_STR0 + i);
  } else {
    s->h.len = n > 0 ? (__u32)n : 0;
    s->h.flags = n >= STR_READ ? BLOB_TRUNCATED : 0;
    if (n <= 0 || blobs_differ(&s->h, s->data, &str->h, str->data)) *changed = 1;
    if (send_blob(&str->h, F_STR0 + i, str->h.len, STR_SIZE)) sent |= 1u << (F_STR0 + i);
  }
  if ((st->fields >> (F_DIR0 + i)) & 1) {
    struct slot *again = walk_base_slot(st->base[i]);
    if (!again || blobs_differ(&again->h, again->data, &dir->h, dir->data)) *changed = 1;
    if (send_blob(&dir->h, F_DIR0 + i, dir->h.len, SLOT_SIZE)) sent |= 1u << (F_DIR0 + i);
  }
  return sent;
}

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

/* An open's flags; openat2's from its struct open_how in user memory. */
static __always_inline __u64 open_flags(__u32 nr, __u64 a1, __u64 a2) {
  if (nr == NR_CREAT) return O_CREAT;
  if (nr == NR_OPEN) return a1;
  if (nr != NR_OPENAT2) return a2;
  __u64 flags = 0;
  bpf_probe_read_user(&flags, 8, (const void *)a2);
  return flags;
}

static __always_inline int open_writes(__u64 flags) { return (flags & O_ACCMODE) != 0 || (flags & (O_CREAT | O_TRUNC | O_APPEND)) != 0; }

/* Entry of a path-taking call: its names and their directories, as the kernel is about to use them, into the thread's stash. */
SEC("raw_tp/sys_enter")
int on_sys_enter(struct bpf_raw_tracepoint_args *ctx) {
  __u64 id = bpf_get_current_pid_tgid();
  __u32 tgid = id >> 32;
  if (!is_followed(tgid)) return 0;
  struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
  __u32 nr = (__u32)ctx->args[1];
  if (nr >= NR_MAX) return 0;
  __u32 *cls = bpf_map_lookup_elem(&classes, &nr);
  if (!cls) return 0;
  __u32 c = *cls;
  if (c < C_OPEN || c > C_SYMLINKAT) return 0;
  __u64 a0 = BPF_CORE_READ(regs, di);
  __u64 a1 = BPF_CORE_READ(regs, si);
  __u64 a2 = BPF_CORE_READ(regs, dx);
  __u64 a3 = BPF_CORE_READ(regs, r10);
  __u64 oflags = 0;
  int writes = 1;
  if (c == C_OPEN) {
    oflags = open_flags(nr, a1, a2);
    writes = open_writes(oflags);
    /* A read-only open records its name only when it opens a FIFO, from the returned file. */
    if (!writes && nr != NR_OPENAT2) return 0;
  }
  struct stash *st = bpf_task_storage_get(&stashes, bpf_get_current_task_btf(), 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
  if (!st) return 0; /* its exit says not-seen-at-entry */
  st->nr = nr + 1;
  st->fields = 0;
  st->base[0] = BASE_NONE;
  st->base[1] = BASE_NONE;
  st->oflags = oflags;
  if (!writes) return 0;
  switch (c) {
  case C_OPEN: {
    int at = nr == NR_OPENAT || nr == NR_OPENAT2;
    stash_name(st, 0, at ? a1 : a0, at ? (long)a0 : AT_FDCWD, 1);
    break;
  }
  case C_PATH1:
    stash_name(st, 0, a0, AT_FDCWD, 1);
    break;
  case C_PATH2:
    stash_name(st, 0, a0, AT_FDCWD, 1);
    stash_name(st, 1, a1, AT_FDCWD, 1);
    break;
  case C_SYMLINK:
    stash_name(st, 0, a0, AT_FDCWD, 0);
    stash_name(st, 1, a1, AT_FDCWD, 1);
    break;
  case C_AT1:
    stash_name(st, 0, a1, (long)a0, 1);
    break;
  case C_AT2:
    stash_name(st, 0, a1, (long)a0, 1);
    stash_name(st, 1, a3, (long)a2, 1);
    break;
  case C_SYMLINKAT:
    stash_name(st, 0, a0, AT_FDCWD, 0);
    stash_name(st, 1, a2, (long)a1, 1);
    break;
  }
  return 0;
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
  __u32 c = *cls;
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
  __u32 changed = 0;
  struct stash *st = 0;
  if (c >= C_OPEN && c <= C_SYMLINKAT) {
    st = bpf_task_storage_get(&stashes, bpf_get_current_task_btf(), 0, 0);
    if (st && st->nr != nr + 1) st = 0;
  }
  switch (c) {
  case C_OPEN: {
    int at = nr == NR_OPENAT || nr == NR_OPENAT2;
    __u64 flags = open_flags(nr, r.args[1], r.args[2]);
    if (nr == NR_OPENAT2) {
      /* The flags the kernel had: read at entry (user memory can change meanwhile). */
      if (st) flags = st->oflags;
      else r.unknown = UNKNOWN_NO_ENTRY;
      r.args[2] = flags;
    }
    int writes = open_writes(flags);
    struct file *f = ret >= 0 ? fd_file(task, ret) : 0;
    unsigned short mode = f ? BPF_CORE_READ(f, f_inode, i_mode) : 0;
    /* A read-only open records nothing, unless it opened a FIFO (the hooks' channel is one). */
    if (!writes && (mode & S_IFMT) != S_IFIFO) {
      if (st) st->nr = 0;
      return 0;
    }
    r.mode = mode;
    int named_by_result = 0;
    if (f) {
      struct slot *s = walk_slot((__u64)BPF_CORE_READ(f, f_path.dentry), (__u64)BPF_CORE_READ(f, f_path.mnt));
      if (s) {
        /* The file the kernel opened, walked up to the process's root: that is the name, the argument is not needed. */
        named_by_result = (s->h.flags & (WALK_ROOTED | WALK_DNAME | WALK_TRUNCATED)) == WALK_ROOTED;
        if (send_slot(s, F_RET, s->h.flags, s->h.len)) fields |= 1u << F_RET;
        else named_by_result = 0;
      }
    }
    if (!named_by_result) {
      if (st && writes) fields |= send_name(st, 0, at ? r.args[1] : r.args[0], &changed);
      else r.unknown = UNKNOWN_NO_ENTRY;
    }
    break;
  }
  case C_PATH1:
  case C_AT1:
    if (st) fields |= send_name(st, 0, c == C_AT1 ? r.args[1] : r.args[0], &changed);
    break;
  case C_PATH2:
  case C_SYMLINK:
    if (st) {
      fields |= send_name(st, 0, r.args[0], &changed);
      fields |= send_name(st, 1, r.args[1], &changed);
    }
    break;
  case C_AT2:
    if (st) {
      fields |= send_name(st, 0, r.args[1], &changed);
      fields |= send_name(st, 1, r.args[3], &changed);
    }
    break;
  case C_SYMLINKAT:
    if (st) {
      fields |= send_name(st, 0, r.args[0], &changed);
      fields |= send_name(st, 1, r.args[2], &changed);
    }
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
  if (c >= C_OPEN && c <= C_SYMLINKAT) {
    if (st) st->nr = 0;
    else if (c != C_OPEN) r.unknown = UNKNOWN_NO_ENTRY;
  }
  if (changed) r.unknown = UNKNOWN_CHANGED;
  r.fields = fields;
  r.cpu = bpf_get_smp_processor_id();
  send_call(&r);
  return 0;
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
  /* A script's (or binfmt_misc's) interpreter: the handler replaced bprm->interp, which starts as bprm->filename. */
  if (BPF_CORE_READ(bprm, interp) != BPF_CORE_READ(bprm, filename)) r.mode |= EXEC_INTERPRETED;
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
