/* A second thread executes `true` with execveat, named relative to a descriptor of /usr/bin. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
static void *run(void *arg) {
  int dir = open("/usr/bin", O_PATH | O_DIRECTORY);
  char *argv[] = {"true", "via-execveat", 0};
  char *envp[] = {0};
  syscall(SYS_execveat, dir, "true", argv, envp, 0);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, run, 0);
  pthread_join(t, 0);
  return 1;
}
