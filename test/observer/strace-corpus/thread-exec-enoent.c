/* A second thread's exec fails (ENOENT): nothing runs, the process goes on; its later writes,
 * the thread's and the main thread's, are the same process's. Exits with 3. */
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
static void *run(void *arg) {
  char *argv[] = {"prog", 0};
  execv("/nonexistent/prog", argv);
  close(open("after-enoent", O_WRONLY | O_CREAT, 0644));
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, run, 0);
  pthread_join(t, 0);
  close(open("main-after", O_WRONLY | O_CREAT, 0644));
  return 3;
}
