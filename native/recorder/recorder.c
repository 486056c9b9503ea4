/*
 * envelope-gate-recorder: loads the kernel side (recorder.bpf.c, embedded), follows the process
 * the wrapper names, and prints what it records as strace-style lines (docs/recorder-protocol.md).
 * Needs root (CAP_BPF + CAP_PERFMON). Ends when its stdin closes: drains, prints `@lost N`, `@end`.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "recorder.h"
#include "syscalls.h"
#include "recorder.bpf.o.h"

struct pending_field {
  int present;
  unsigned int flags;
  unsigned int len;
  char *data;
};

static struct pending_field (*pending)[F_COUNT];
static int cpus;
static unsigned long long mismatched;
static FILE *out;

static const char *call_name(unsigned int nr) {
  switch (nr) {
#define NAME(n, name, cls) \
  case n:                  \
    return #name;
    RECORDED_SYSCALLS(NAME)
#undef NAME
  }
  return "unknown";
}

/* Each byte's `\xHH`, made once: a path's bytes are written four at a time, in large pieces. */
static char hex_table[256][4];

static void init_hex(void) {
  static const char digits[] = "0123456789abcdef";
  for (int c = 0; c < 256; c++) {
    hex_table[c][0] = '\\';
    hex_table[c][1] = 'x';
    hex_table[c][2] = digits[c >> 4];
    hex_table[c][3] = digits[c & 15];
  }
}

static void put_hex(const char *data, size_t len) {
  static char buf[1 << 16];
  size_t w = 0;
  for (size_t i = 0; i < len; i++) {
    memcpy(buf + w, hex_table[(unsigned char)data[i]], 4);
    w += 4;
    if (w == sizeof(buf)) {
      fwrite(buf, 1, w, out);
      w = 0;
    }
  }
  fwrite(buf, 1, w, out);
}

static void put_quoted(const char *data, size_t len) {
  fputc('"', out);
  put_hex(data, len);
  fputc('"', out);
}

/* A walk (components leaf first, NUL-terminated) as an absolute path, into buf. */
static size_t walk_path(const struct pending_field *f, char *buf, size_t cap) {
  if (f->flags & WALK_DNAME) {
    size_t n = (size_t)snprintf(buf, cap, "pseudo:%.*s", (int)strnlen(f->data, f->len), f->data);
    return n < cap ? n : cap - 1;
  }
  static const char *parts[MAX_COMPONENTS + 1];
  static size_t lens[MAX_COMPONENTS + 1];
  int count = 0;
  size_t off = 0;
  while (off < f->len && count <= MAX_COMPONENTS) {
    size_t n = strnlen(f->data + off, f->len - off);
    parts[count] = f->data + off;
    lens[count] = n;
    count++;
    off += n + 1;
  }
  size_t w = 0;
  if (count == 0 && cap > 1) buf[w++] = '/';
  for (int i = count - 1; i >= 0; i--) {
    if (w + 1 + lens[i] >= cap) break;
    buf[w++] = '/';
    memcpy(buf + w, parts[i], lens[i]);
    w += lens[i];
  }
  buf[w] = 0;
  return w;
}

static char pathbuf[3][SLOT_SIZE * 2 + STR_SIZE];

static int field_string(struct pending_field *fields, int field, const char **s, size_t *len) {
  struct pending_field *f = &fields[field];
  if (!f->present) return 0;
  *s = f->data;
  *len = strnlen(f->data, f->len);
  return 1;
}

/* A name `/proc/self/fd/N/rest` (or the like) whose fd N was walked in the kernel. */
static int fd_based(struct pending_field *fields, int str_field, int dir_field) {
  return fields[str_field].present && (fields[str_field].flags & BLOB_FD_BASED) && fields[dir_field].present;
}

/* A path argument, joined to the directory it is relative to when that was walked. */
static void put_path_arg(struct pending_field *fields, int str_field, int dir_field, int absolute) {
  const char *s;
  size_t len;
  if (!field_string(fields, str_field, &s, &len)) {
    fputs("NULL", out);
    return;
  }
  if (fd_based(fields, str_field, dir_field)) {
    /* fd N's file, as the kernel had it at the call's entry, then the rest of the name. */
    size_t rest = fields[str_field].flags >> 8;
    if (rest > len) rest = len;
    char *buf = pathbuf[0];
    size_t w = walk_path(&fields[dir_field], buf, sizeof(pathbuf[0]));
    if (len > rest) {
      if (w == 1 && buf[0] == '/') w = 0;
      if (w + 1 + (len - rest) < sizeof(pathbuf[0])) {
        buf[w++] = '/';
        memcpy(buf + w, s + rest, len - rest);
        w += len - rest;
      }
    }
    put_quoted(buf, w);
    return;
  }
  if (absolute && len > 0 && s[0] != '/' && fields[dir_field].present) {
    char *buf = pathbuf[0];
    size_t w = walk_path(&fields[dir_field], buf, sizeof(pathbuf[0]));
    if (w == 1 && buf[0] == '/') w = 0;
    if (w + 1 + len < sizeof(pathbuf[0])) {
      buf[w++] = '/';
      memcpy(buf + w, s, len);
      w += len;
    }
    put_quoted(buf, w);
    return;
  }
  put_quoted(s, len);
  if (fields[str_field].flags & BLOB_TRUNCATED) fputs("...", out);
}

static void put_fd(long long fd, struct pending_field *fields, int field) {
  if ((int)fd == -100) fputs("AT_FDCWD", out);
  else fprintf(out, "%d", (int)fd);
  /* The name is absolute through another fd: this one's directory is not used (and was not walked). */
  if (field == F_DIR0 && fd_based(fields, F_STR0, F_DIR0)) return;
  if (field == F_DIR1 && fd_based(fields, F_STR1, F_DIR1)) return;
  if (fields[field].present) {
    size_t w = walk_path(&fields[field], pathbuf[1], sizeof(pathbuf[1]));
    fputc('<', out);
    put_hex(pathbuf[1], w);
    fputc('>', out);
  }
}

static void put_open_flags(unsigned long long flags) {
  static const struct {
    unsigned long long bit;
    const char *name;
  } names[] = {{0100, "O_CREAT"},      {0200, "O_EXCL"},          {0400, "O_NOCTTY"},    {01000, "O_TRUNC"},
               {02000, "O_APPEND"},    {04000, "O_NONBLOCK"},     {010000, "O_DSYNC"},   {020000, "O_ASYNC"},
               {040000, "O_DIRECT"},   {0100000, "O_LARGEFILE"},  {0200000, "O_DIRECTORY"}, {0400000, "O_NOFOLLOW"},
               {01000000, "O_NOATIME"}, {02000000, "O_CLOEXEC"}, {010000000, "O_PATH"}, {020000000, "__O_TMPFILE"}};
  static const char *modes[] = {"O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE"};
  fputs(modes[flags & 3], out);
  flags &= ~3ULL;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    if (flags & names[i].bit) {
      fprintf(out, "|%s", names[i].name);
      flags &= ~names[i].bit;
    }
  }
  if (flags) fprintf(out, "|%#llx", flags);
}

static void put_clone_flags(unsigned long long flags) {
  static const struct {
    unsigned long long bit;
    const char *name;
  } names[] = {{0x00000100, "CLONE_VM"},      {0x00000200, "CLONE_FS"},        {0x00000400, "CLONE_FILES"},
               {0x00000800, "CLONE_SIGHAND"}, {0x00002000, "CLONE_PTRACE"},    {0x00004000, "CLONE_VFORK"},
               {0x00008000, "CLONE_PARENT"},  {0x00010000, "CLONE_THREAD"},    {0x00020000, "CLONE_NEWNS"},
               {0x00040000, "CLONE_SYSVSEM"}, {0x00080000, "CLONE_SETTLS"},    {0x00100000, "CLONE_PARENT_SETTID"},
               {0x00200000, "CLONE_CHILD_CLEARTID"}, {0x00800000, "CLONE_UNTRACED"}, {0x01000000, "CLONE_CHILD_SETTID"},
               {0x02000000, "CLONE_NEWCGROUP"}, {0x04000000, "CLONE_NEWUTS"}, {0x08000000, "CLONE_NEWIPC"},
               {0x10000000, "CLONE_NEWUSER"}, {0x20000000, "CLONE_NEWPID"},   {0x40000000, "CLONE_NEWNET"},
               {0x80000000, "CLONE_IO"},      {0x00000080, "CLONE_NEWTIME"}};
  int first = 1;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    if (flags & names[i].bit) {
      fprintf(out, "%s%s", first ? "" : "|", names[i].name);
      flags &= ~names[i].bit;
      first = 0;
    }
  }
  if (flags || first) fprintf(out, "%s%#llx", first ? "" : "|", flags);
}

static void put_result(long long ret, struct pending_field *fields, int ret_field) {
  fputs(") = ", out);
  if (ret < 0 && ret > -4096) {
    int e = (int)-ret;
    const char *name = strerrorname_np(e);
    if (name) fprintf(out, "-1 %s (%s)", name, strerror(e));
    else fprintf(out, "-1 E%d (Unknown error %d)", e, e);
  } else if (ret_field >= 0 && fields[ret_field].present) {
    size_t w = walk_path(&fields[ret_field], pathbuf[2], sizeof(pathbuf[2]));
    fprintf(out, "%lld<", ret);
    put_hex(pathbuf[2], w);
    fputc('>', out);
  } else {
    fprintf(out, "%lld", ret);
  }
  fputc('\n', out);
}

static void put_sockaddr(const unsigned char *a, unsigned int len) {
  if (len < 2) {
    fputs("{}", out);
    return;
  }
  unsigned int family = a[0] | (a[1] << 8);
  if (family == AF_INET && len >= 8) {
    char text[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, a + 4, text, sizeof(text));
    fprintf(out, "{sa_family=AF_INET, sin_port=htons(%u), sin_addr=inet_addr(", (a[2] << 8) | a[3]);
    put_quoted(text, strlen(text));
    fputs(")}", out);
  } else if (family == AF_INET6 && len >= 24) {
    char text[INET6_ADDRSTRLEN];
    inet_ntop(AF_INET6, a + 8, text, sizeof(text));
    fprintf(out, "{sa_family=AF_INET6, sin6_port=htons(%u), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, ", (a[2] << 8) | a[3]);
    put_quoted(text, strlen(text));
    fputs(", &sin6_addr), sin6_scope_id=0}", out);
  } else if (family == AF_UNIX) {
    if (len <= 2) {
      fputs("{sa_family=AF_UNIX}", out);
    } else if (a[2] == 0) {
      fputs("{sa_family=AF_UNIX, sun_path=@", out);
      put_quoted((const char *)a + 3, len - 3);
      fputc('}', out);
    } else {
      fputs("{sa_family=AF_UNIX, sun_path=", out);
      put_quoted((const char *)a + 2, strnlen((const char *)a + 2, len - 2));
      fputc('}', out);
    }
  } else {
    fprintf(out, "{sa_family=%u}", family);
  }
}

/* Every address of the call, each as strace prints a sockaddr; joined by ", ". */
static void put_addrs(struct pending_field *fields) {
  struct pending_field *f = &fields[F_ADDR];
  if (!f->present) {
    fputs("NULL", out);
    return;
  }
  unsigned int off = 0;
  int first = 1;
  while (off + 2 <= f->len) {
    unsigned int len = (unsigned char)f->data[off] | ((unsigned char)f->data[off + 1] << 8);
    if (off + 2 + len > f->len) break;
    if (!first) fputs(", ", out);
    put_sockaddr((const unsigned char *)f->data + off + 2, len);
    off += 2 + len;
    first = 0;
  }
}

/* A walk or a name longer than the recorder holds: its path is not printed as if whole. */
static int truncated(struct pending_field *fields) {
  static const int walks[] = {F_DIR0, F_DIR1, F_RET, F_EXE};
  static const int names[] = {F_STR0, F_STR1, F_NAME};
  for (size_t i = 0; i < sizeof(walks) / sizeof(walks[0]); i++)
    if (fields[walks[i]].present && (fields[walks[i]].flags & WALK_TRUNCATED)) return 1;
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    if (fields[names[i]].present && (fields[names[i]].flags & BLOB_TRUNCATED)) return 1;
  return 0;
}

/* `TGID @path-unknown REASON` before a call whose paths are not known exactly (docs/recorder-protocol.md). */
static void put_unknown(const struct call_record *r, struct pending_field *fields) {
  const char *reason = r->unknown == UNKNOWN_CHANGED    ? "changed-during-call"
                       : r->unknown == UNKNOWN_NO_ENTRY ? "not-seen-at-entry"
                       : r->unknown != 0                ? "unknown"
                       : truncated(fields)              ? "truncated"
                                                        : NULL;
  if (reason != NULL) fprintf(out, "%u @path-unknown %s\n", r->tgid, reason);
}

static void print_call(const struct call_record *r, struct pending_field *fields) {
  const char *name = call_name(r->nr);
  unsigned int cls = C_NONE;
  switch (r->nr) {
#define CLS(n, nm, c) \
  case n:             \
    cls = c;          \
    break;
    RECORDED_SYSCALLS(CLS)
#undef CLS
  }
  if (cls == C_CHDIR) name = "chdir";
  put_unknown(r, fields);
  fprintf(out, "%u %s(", r->tgid, name);
  const unsigned long long *a = r->args;
  switch (cls) {
  case C_OPEN:
    if (!fields[F_STR0].present && r->ret >= 0 && fields[F_RET].present) {
      /* A successful open sends only the file it opened (walked up to the process's root): that is the name. */
      size_t w = walk_path(&fields[F_RET], pathbuf[0], sizeof(pathbuf[0]));
      if (r->nr != NR_OPEN && r->nr != NR_CREAT) fputs((int)a[0] == -100 ? "AT_FDCWD, " : "", out);
      if (r->nr != NR_OPEN && r->nr != NR_CREAT && (int)a[0] != -100) fprintf(out, "%d, ", (int)a[0]);
      put_quoted(pathbuf[0], w);
    } else if (r->nr == NR_OPEN || r->nr == NR_CREAT) {
      put_path_arg(fields, F_STR0, F_DIR0, 1);
    } else {
      put_fd((long long)a[0], fields, F_DIR0);
      fputs(", ", out);
      put_path_arg(fields, F_STR0, F_DIR0, 0);
    }
    if (r->nr == NR_OPEN || r->nr == NR_CREAT) {
      if (r->nr == NR_OPEN) {
        fputs(", ", out);
        put_open_flags(a[1]);
        fprintf(out, ", %#llo", a[2]);
      } else {
        fprintf(out, ", %#llo", a[1]);
      }
    } else {
      fputs(", ", out);
      if (r->nr == NR_OPENAT2) {
        fputs("{flags=", out);
        put_open_flags(a[2]);
        fputs("}, 24", out);
      } else {
        put_open_flags(a[2]);
        fprintf(out, ", %#llo", a[3]);
      }
    }
    put_result(r->ret, fields, F_RET);
    return;
  case C_PATH1:
    put_path_arg(fields, F_STR0, F_DIR0, 1);
    fprintf(out, ", %#llo", a[1]);
    break;
  case C_PATH2:
    put_path_arg(fields, F_STR0, F_DIR0, 1);
    fputs(", ", out);
    put_path_arg(fields, F_STR1, F_DIR1, 1);
    break;
  case C_SYMLINK:
    put_path_arg(fields, F_STR0, F_DIR0, 0);
    fputs(", ", out);
    put_path_arg(fields, F_STR1, F_DIR1, 1);
    break;
  case C_AT1:
    put_fd((long long)a[0], fields, F_DIR0);
    fputs(", ", out);
    put_path_arg(fields, F_STR0, F_DIR0, 0);
    if (r->nr == NR_FCHOWNAT) fprintf(out, ", %lld, %lld, ", (long long)(int)a[2], (long long)(int)a[3]);
    else if (r->nr == NR_UTIMENSAT) fputs(", NULL, ", out);
    else if (r->nr == 263) fputs(", ", out);
    else fprintf(out, ", %#llo, ", a[2]);
    {
      unsigned long long flags = r->nr == NR_FCHOWNAT ? a[4] : r->nr == NR_UTIMENSAT ? a[3] : r->nr == 263 ? a[2] : 0;
      int first = 1;
      if (r->nr == 263 && (flags & 0x200)) fputs("AT_REMOVEDIR", out), first = 0;
      if (r->nr != 263 && (flags & 0x100)) fputs("AT_SYMLINK_NOFOLLOW", out), first = 0;
      if (flags & 0x1000) fprintf(out, "%sAT_EMPTY_PATH", first ? "" : "|"), first = 0;
      if (first) fputc('0', out);
    }
    break;
  case C_AT2:
    put_fd((long long)a[0], fields, F_DIR0);
    fputs(", ", out);
    put_path_arg(fields, F_STR0, F_DIR0, 0);
    fputs(", ", out);
    put_fd((long long)a[2], fields, F_DIR1);
    fputs(", ", out);
    put_path_arg(fields, F_STR1, F_DIR1, 0);
    if (r->nr == 265) fputs((a[4] & 0x400) ? ", AT_SYMLINK_FOLLOW" : ", 0", out);
    else if (r->nr == 316) fprintf(out, ", %#llx", a[4]);
    break;
  case C_SYMLINKAT:
    put_path_arg(fields, F_STR0, F_DIR0, 0);
    fputs(", ", out);
    put_fd((long long)a[1], fields, F_DIR1);
    fputs(", ", out);
    put_path_arg(fields, F_STR1, F_DIR1, 0);
    break;
  case C_FD:
    put_fd((long long)a[0], fields, F_RET);
    fprintf(out, ", %#llo", a[1]);
    break;
  case C_ADDR:
    fprintf(out, "%d, ", (int)a[0]);
    if (r->nr == NR_SENDMSG) {
      fputs("{msg_name=", out);
      put_addrs(fields);
      fputs("}, 0", out);
    } else if (r->nr == NR_SENDMMSG) {
      fputs("[{msg_hdr={msg_name=", out);
      put_addrs(fields);
      fprintf(out, "}}], %llu, 0", a[2]);
    } else if (r->nr == NR_SENDTO) {
      fprintf(out, "%#llx, %llu, 0, ", a[1], a[2]);
      put_addrs(fields);
      fprintf(out, ", %llu", a[5]);
    } else {
      put_addrs(fields);
      fprintf(out, ", %llu", a[2]);
    }
    break;
  case C_CLONE:
    fputs("flags=", out);
    put_clone_flags(a[0]);
    break;
  case C_CHDIR:
    /* fchdir too: the directory the process is in now, as a path. */
    if (fields[F_DIR0].present) {
      size_t w = walk_path(&fields[F_DIR0], pathbuf[0], sizeof(pathbuf[0]));
      put_quoted(pathbuf[0], w);
    } else {
      fputs("NULL", out);
    }
    break;
  case C_FORBIDDEN:
    if (r->nr == 272) put_clone_flags(a[0]);
    else fprintf(out, "%#llx, %#llx, %#llx", a[0], a[1], a[2]);
    break;
  }
  put_result(r->ret, fields, -1);
}

static void print_exec(const struct call_record *r, struct pending_field *fields) {
  put_unknown(r, fields);
  fprintf(out, "%u @exec %u ", r->tgid, r->inner);
  if (fields[F_EXE].present) {
    size_t w = walk_path(&fields[F_EXE], pathbuf[2], sizeof(pathbuf[2]));
    put_quoted(pathbuf[2], w);
  } else {
    fputs("\"\"", out);
  }
  if (r->mode & EXEC_INTERPRETED) fputs(" interpreted", out);
  fprintf(out, "\n%u execve(", r->tgid);
  const char *name;
  size_t name_len;
  unsigned int by = r->mode & EXEC_BY_MASK;
  if (by != 0 && field_string(fields, F_NAME, &name, &name_len)) {
    /* /dev/fd/N[/rest]: the file fd N named (or the executable, when the fd closed on exec), then rest. */
    const char *rest = name + 8;
    while (rest < name + name_len && *rest >= '0' && *rest <= '9') rest++;
    char *buf = pathbuf[0];
    size_t w = 0;
    if (by == EXEC_BY_FD && fields[F_DIR0].present) w = walk_path(&fields[F_DIR0], buf, sizeof(pathbuf[0]));
    else if (fields[F_EXE].present) w = walk_path(&fields[F_EXE], buf, sizeof(pathbuf[0]));
    /* Closed on exec, fd N's file is gone: the executable the kernel ran is the whole name (a script could not run so). */
    size_t rest_len = by == EXEC_BY_FD ? (size_t)(name + name_len - rest) : 0;
    if (w + rest_len < sizeof(pathbuf[0])) {
      memcpy(buf + w, rest, rest_len);
      w += rest_len;
    }
    put_quoted(buf, w);
  } else {
    put_path_arg(fields, F_NAME, F_DIR0, 1);
  }
  fputs(", [", out);
  struct pending_field *argv = &fields[F_ARGV];
  if (argv->present) {
    unsigned int off = 0;
    int first = 1;
    while (off < argv->len) {
      size_t n = strnlen(argv->data + off, argv->len - off);
      if (!first) fputs(", ", out);
      put_quoted(argv->data + off, n);
      first = 0;
      off += (unsigned int)n + 1;
    }
    if (argv->flags & BLOB_TRUNCATED) fputs(", ...", out);
  }
  fputs("], 0x0 /* 0 vars */) = 0\n", out);
}

static const char *signal_name(int sig) {
  const char *abbrev = sigabbrev_np(sig);
  static char buf[32];
  if (abbrev == NULL) {
    snprintf(buf, sizeof(buf), "SIG%d", sig);
    return buf;
  }
  snprintf(buf, sizeof(buf), "SIG%s", abbrev);
  return buf;
}

static int on_record(void *ctx, void *data, size_t size) {
  (void)ctx;
  if (size < 4) return 0;
  unsigned int kind = *(unsigned int *)data;
  if (kind == REC_BLOB) {
    const struct blob_header *h = data;
    if (h->cpu >= (unsigned int)cpus || h->field >= F_COUNT || sizeof(*h) + h->len > size) {
      mismatched++;
      return 0;
    }
    struct pending_field *f = &pending[h->cpu][h->field];
    if (f->present) mismatched++; /* a blob whose call never came */
    memcpy(f->data, (const char *)data + sizeof(*h), h->len);
    f->len = h->len;
    f->flags = h->flags;
    f->present = 1;
    return 0;
  }
  if (kind == REC_CALL || kind == REC_EXEC) {
    const struct call_record *r = data;
    if (size < sizeof(*r) || r->cpu >= (unsigned int)cpus) {
      mismatched++;
      return 0;
    }
    struct pending_field *fields = pending[r->cpu];
    for (int i = 0; i < F_COUNT; i++) {
      int want = (r->fields >> i) & 1;
      if (want && !fields[i].present) mismatched++;
      if (!want) fields[i].present = 0;
    }
    if (kind == REC_CALL) print_call(r, fields);
    else print_exec(r, fields);
    for (int i = 0; i < F_COUNT; i++) fields[i].present = 0;
    return 0;
  }
  if (kind == REC_FORK && size >= sizeof(struct fork_record)) {
    const struct fork_record *r = data;
    fprintf(out, "%u @fork %u %u\n", r->child, r->parent, r->inner);
    return 0;
  }
  if (kind == REC_EXIT && size >= sizeof(struct exit_record)) {
    const struct exit_record *r = data;
    int sig = r->code & 0x7f;
    if (sig == 0) fprintf(out, "%u +++ exited with %d +++\n", r->tgid, (r->code >> 8) & 0xff);
    else fprintf(out, "%u +++ killed by %s%s +++\n", r->tgid, signal_name(sig), (r->code & 0x80) ? " (core dumped)" : "");
    return 0;
  }
  mismatched++;
  return 0;
}

static int quiet_print(enum libbpf_print_level level, const char *format, va_list args) {
  if (level == LIBBPF_DEBUG && getenv("ENVELOPE_GATE_RECORDER_DEBUG") == NULL) return 0;
  if (level == LIBBPF_INFO && getenv("ENVELOPE_GATE_RECORDER_DEBUG") == NULL) return 0;
  return vfprintf(stderr, format, args);
}

static int fail(const char *code, int status, const char *what, int err) {
  fprintf(out, "@error %s %s: %s\n", code, what, strerror(err < 0 ? -err : err));
  fflush(out);
  return status;
}

static int failure_status(int err, const char **code) {
  err = err < 0 ? -err : err;
  if (err == EPERM) {
    *code = "privilege";
    return 3;
  }
  if (err == EACCES || err == EINVAL || err == ENOENT || err == ENOTSUP || err == E2BIG || err == ESRCH) {
    *code = "kernel";
    return 4;
  }
  *code = "other";
  return 2;
}

int main(void) {
  signal(SIGPIPE, SIG_IGN);
  out = stdout;
  init_hex();
  static char outbuf[1 << 22];
  setvbuf(out, outbuf, _IOFBF, sizeof(outbuf));
  libbpf_set_print(quiet_print);
  const char *code;
  int status;

  struct bpf_object_open_opts opts = {.sz = sizeof(opts), .object_name = "envelope_gate_recorder"};
  struct bpf_object *obj = bpf_object__open_mem(recorder_bpf_o, recorder_bpf_o_len, &opts);
  if (obj == NULL) {
    int err = -errno;
    status = failure_status(err, &code);
    return fail(code, status, "cannot open the BPF object", err);
  }
  struct bpf_map *argv_slots = bpf_object__find_map_by_name(obj, "argv_slots");
  if (argv_slots == NULL || bpf_map__set_max_entries(argv_slots, (unsigned int)libbpf_num_possible_cpus()) != 0)
    return fail("other", 2, "cannot size the argv buffers", errno);
  /* A smaller ring (a power of two of pages) makes real losses reachable for the tests; it can only lose more, never less. */
  const char *ring_kib = getenv("ENVELOPE_GATE_RECORDER_RING_KIB");
  if (ring_kib != NULL) {
    unsigned long kib = strtoul(ring_kib, NULL, 10);
    struct bpf_map *ring_map = bpf_object__find_map_by_name(obj, "events");
    if (kib < 4 || (kib & (kib - 1)) != 0 || kib > (1 << 20) || ring_map == NULL || bpf_map__set_max_entries(ring_map, (unsigned int)(kib << 10)) != 0)
      return fail("other", 2, "ENVELOPE_GATE_RECORDER_RING_KIB must be a power of two from 4 to 1048576", EINVAL);
  }
  int err = bpf_object__load(obj);
  if (err) {
    status = failure_status(err, &code);
    return fail(code, status, "the kernel refused the recorder's programs", err);
  }
  int classes = bpf_object__find_map_fd_by_name(obj, "classes");
  int followed = bpf_object__find_map_fd_by_name(obj, "followed");
  int state = bpf_object__find_map_fd_by_name(obj, "state");
  int events = bpf_object__find_map_fd_by_name(obj, "events");
  if (classes < 0 || followed < 0 || state < 0 || events < 0) return fail("other", 2, "maps missing", ENOENT);
#define FILL(n, name, cls)                                  \
  {                                                         \
    unsigned int k = n, v = cls;                            \
    if (bpf_map_update_elem(classes, &k, &v, BPF_ANY) != 0) \
      return fail("other", 2, "cannot fill the call table", errno); \
  }
  RECORDED_SYSCALLS(FILL)
#undef FILL
  struct bpf_program *prog;
  bpf_object__for_each_program(prog, obj) {
    struct bpf_link *link = bpf_program__attach(prog);
    if (link == NULL) {
      int e = -errno;
      status = failure_status(e, &code);
      return fail(code, status, bpf_program__name(prog), e);
    }
  }
  cpus = libbpf_num_possible_cpus();
  if (cpus <= 0) return fail("other", 2, "cannot count CPUs", EINVAL);
  pending = calloc((size_t)cpus, sizeof(*pending));
  for (int c = 0; c < cpus && pending; c++) {
    for (int f = 0; f < F_COUNT; f++) {
      pending[c][f].data = malloc(f == F_ARGV ? ARGV_SIZE : SLOT_SIZE);
      if (pending[c][f].data == NULL) return fail("other", 2, "out of memory", ENOMEM);
    }
  }
  if (pending == NULL) return fail("other", 2, "out of memory", ENOMEM);
  struct ring_buffer *ring = ring_buffer__new(events, on_record, NULL, NULL);
  if (ring == NULL) return fail("other", 2, "cannot open the ring buffer", errno);

  /* Loaded and attached: ready to follow a process (one per stage of a run). */
  fputs("@ready\n", out);
  fflush(out);
  char line[256];
  size_t have = 0;
  int open_input = 1;
  unsigned int lost_key = 0;
  struct pollfd fds[2] = {{.fd = ring_buffer__epoll_fd(ring), .events = POLLIN}, {.fd = 0, .events = POLLIN}};
  while (open_input) {
    int n = poll(fds, 2, 100);
    if (n < 0 && errno != EINTR) break;
    if (ring_buffer__consume(ring) < 0) break;
    if (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t got = read(0, line + have, sizeof(line) - 1 - have);
      if (got <= 0) {
        open_input = 0;
      } else {
        have += (size_t)got;
        char *nl;
        while ((nl = memchr(line, '\n', have)) != NULL) {
          *nl = 0;
          unsigned int pid;
          if (sscanf(line, "follow %u", &pid) == 1) {
            unsigned int one = 1;
            unsigned int root_key = 1;
            unsigned long long root = pid;
            if (bpf_map_update_elem(followed, &pid, &one, BPF_ANY) != 0 || bpf_map_update_elem(state, &root_key, &root, BPF_ANY) != 0)
              return fail("other", 2, "cannot follow the process", errno);
            fprintf(out, "@following %u\n", pid);
          } else if (strcmp(line, "sync") == 0) {
            /* Everything the kernel holds now goes out first; then the losses so far. */
            while (ring_buffer__consume(ring) > 0) {
            }
            unsigned long long lost = 0;
            bpf_map_lookup_elem(state, &lost_key, &lost);
            fprintf(out, "@lost %llu\n@synced\n", lost + mismatched);
          }
          size_t used = (size_t)(nl - line) + 1;
          memmove(line, nl + 1, have - used);
          have -= used;
        }
        if (have == sizeof(line) - 1) have = 0;
      }
    }
    if (fflush(out) != 0) return 1;
  }
  while (ring_buffer__consume(ring) > 0) {
  }
  unsigned long long lost = 0;
  bpf_map_lookup_elem(state, &lost_key, &lost);
  for (int c = 0; c < cpus; c++)
    for (int f = 0; f < F_COUNT; f++)
      if (pending[c][f].present) mismatched++;
  fprintf(out, "@lost %llu\n@end\n", lost + mismatched);
  fflush(out);
  return 0;
}
