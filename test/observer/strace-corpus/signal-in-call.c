/* A second thread blocks in an open of a FIFO for writing; a signal with a handler (no
 * SA_RESTART) interrupts the call, which the thread then makes again and the main thread
 * releases; then the thread executes /bin/true. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
static void on_signal(int n) { (void)n; }
static void *writer(void *arg) {
  while (open("fifo", O_WRONLY) < 0) {
  }
  char *argv[] = {"true", "after-signal", 0};
  execv("/bin/true", argv);
  return 0;
}
int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGUSR1, &sa, 0);
  mkfifo("fifo", 0600);
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  usleep(200000);
  pthread_kill(t, SIGUSR1);
  usleep(200000);
  open("fifo", O_RDONLY);
  pause();
  return 1;
}
