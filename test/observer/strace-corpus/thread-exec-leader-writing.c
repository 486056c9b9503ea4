/* The main thread blocks in an open of a FIFO for writing (a write left unfinished) while a
 * second thread executes /bin/true: the kernel ends the main thread's call, and the exec's line
 * is cut short by it (`<unfinished ...>`, then `+++ superseded by execve in pid ... +++`). */
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
static void *execer(void *arg) {
  usleep(200000);
  char *argv[] = {"true", "from-thread", 0};
  execv("/bin/true", argv);
  return 0;
}
int main(void) {
  pthread_t t;
  mkfifo("fifo", 0600);
  pthread_create(&t, 0, execer, 0);
  open("fifo", O_WRONLY);
  return 1;
}
