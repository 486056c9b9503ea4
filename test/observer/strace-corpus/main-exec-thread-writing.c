/* The main thread executes /bin/true while a second thread blocks in an open of a FIFO for
 * writing: the kernel ends the other thread, and the pid stays the leader's. */
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>
static void *blocked(void *arg) {
  open("fifo", O_WRONLY);
  return 0;
}
int main(void) {
  pthread_t t;
  mkfifo("fifo", 0600);
  pthread_create(&t, 0, blocked, 0);
  usleep(200000);
  char *argv[] = {"true", "from-main", 0};
  execv("/bin/true", argv);
  return 1;
}
