/* A second thread executes this program again (argv[1] "stage2") while the main thread waits in
 * pthread_join, an untraced call: strace prints the exec line open, then `<pid changed to ...>`.
 * Stage 2 runs single-threaded under the leader's pid: mkdir, chdir, a write, another exec. */
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static void *run(void *arg) {
  char *argv[] = {"thread-exec", "stage2", 0};
  execv("/tmp/eg-strace-corpus/thread-exec", argv);
  return 0;
}
int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "stage2") == 0) {
    mkdir("sub", 0755);
    if (chdir("sub") != 0) return 1;
    close(open("made", O_WRONLY | O_CREAT, 0644));
    char *next[] = {"true", "after-stage2", 0};
    execv("/bin/true", next);
    return 1;
  }
  pthread_t t;
  pthread_create(&t, 0, run, 0);
  pthread_join(t, 0);
  return 1;
}
