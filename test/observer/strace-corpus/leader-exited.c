/* The main thread ends (pthread_exit: the leader stays a zombie) and the second thread executes
 * /bin/true, taking the leader's pid. */
#include <pthread.h>
#include <unistd.h>
static void *execer(void *arg) {
  usleep(200000);
  char *argv[] = {"true", "after-leader-exit", 0};
  execv("/bin/true", argv);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, execer, 0);
  pthread_exit(0);
}
