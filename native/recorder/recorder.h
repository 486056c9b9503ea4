/* Shared between the kernel side (recorder.bpf.c) and the reader (recorder.c). */
#ifndef ENVELOPE_GATE_RECORDER_H
#define ENVELOPE_GATE_RECORDER_H

/* A walk: a path of PATH_MAX (4096) bytes in components, with room for one more name; or a string. */
#define SLOT_SIZE 8192
/* A path argument: the kernel takes names shorter than PATH_MAX; one byte more tells a longer one. */
#define STR_SIZE 4104
#define STR_READ 4097
#define ARGV_SIZE 32768
/* Steps of a walk: a PATH_MAX path has at most 2048 components, and the walk crosses mounts too. */
#define WALK_STEPS 4224
#define MAX_COMPONENTS 4096
#define MAX_ADDRS 4

/* Record kinds. A BLOB carries one field of the CALL/EXEC record that follows it from the same CPU. */
enum record_kind { REC_BLOB = 1, REC_CALL = 2, REC_FORK = 3, REC_EXEC = 4, REC_EXIT = 5 };

/* Fields of a call (the blob's `field`). */
enum field {
  F_STR0 = 0,  /* first path argument, as the program gave it */
  F_STR1 = 1,  /* second path argument */
  F_DIR0 = 2,  /* the directory the first path is relative to (dirfd's file or cwd): a walk */
  F_DIR1 = 3,  /* the directory the second path is relative to */
  F_RET = 4,   /* the file of the returned fd (opens) or of the fd argument (f* calls): a walk */
  F_ADDR = 5,  /* socket addresses: each a u16 length then the bytes */
  F_ARGV = 6,  /* exec: argv, NUL-separated, as the new image has it */
  F_EXE = 7,   /* exec: the executable the kernel runs (a walk) */
  F_NAME = 8,  /* exec: the file name as given (bprm->filename) */
  F_COUNT = 9
};

/* A walk: components from the leaf up, each NUL-terminated. Flags in the blob header. */
#define WALK_ROOTED 1    /* reached the process's root: an absolute path in its view */
#define WALK_DNAME 2     /* a pseudo file (pipe, socket, anon inode): no path */
#define WALK_TRUNCATED 4 /* too deep or too long */
#define BLOB_TRUNCATED 8 /* a string longer than the kernel takes (PATH_MAX), or argv cut */
/* A path argument `/proc/self/fd/N[/rest]`, `/proc/thread-self/fd/N[/rest]` or `/dev/fd/N[/rest]`: its
   directory field is fd N's file, walked in the kernel; the rest starts at (flags >> 8). */
#define BLOB_FD_BASED 16

/* Why a call's paths cannot be known exactly (call_record.unknown): printed `TGID @path-unknown REASON`. */
#define UNKNOWN_CHANGED 1  /* changed-during-call: the name or its directory differ at entry and exit */
#define UNKNOWN_NO_ENTRY 2 /* not-seen-at-entry: no copy of the call's names from its entry */
/* truncated (a walk or name longer than recorded) is told by the reader from the blobs' flags. */

/* An exec's call_record.mode: how its name was given (EXEC_BY_MASK), and whether an interpreter runs it. */
#define EXEC_BY_FD 1      /* /dev/fd/N[/name]: F_DIR0 is fd N's file */
#define EXEC_BY_FD_GONE 2 /* /dev/fd/N, closed on exec: the name is the executable */
#define EXEC_BY_MASK 3
/* bprm->interp is not bprm->filename: a binary handler (`#!`, binfmt_misc) gave the file to an
   interpreter, and F_EXE is the interpreter the kernel runs in the end, F_ARGV the argv it built. */
#define EXEC_INTERPRETED 4

struct blob_header {
  unsigned int kind; /* REC_BLOB */
  unsigned short field;
  unsigned short flags;
  unsigned int len; /* bytes of data after this header */
  unsigned int cpu;
};

struct call_record {
  unsigned int kind; /* REC_CALL, REC_EXEC */
  unsigned int cpu;
  unsigned int tgid;
  unsigned int nr;
  long long ret;
  unsigned long long args[6];
  unsigned int fields; /* bit mask of the blobs sent before it */
  unsigned int inner;  /* exec: pid in the innermost PID namespace */
  unsigned int mode;   /* opens: the returned file's i_mode (FIFO detection) */
  unsigned int unknown; /* UNKNOWN_*: the paths of this call are not known exactly */
};

struct fork_record {
  unsigned int kind; /* REC_FORK */
  unsigned int child;
  unsigned int parent;
  unsigned int inner;
};

struct exit_record {
  unsigned int kind; /* REC_EXIT */
  unsigned int tgid;
  int code; /* task->exit_code: status << 8, or the signal */
  unsigned int pad;
};

#endif
