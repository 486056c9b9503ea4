/* A forked child blocks in an open of a FIFO for writing and is killed (SIGKILL) in the call; a
 * second child is killed by SIGTERM it sends itself; the parent exits with 0. */
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
  mkfifo("fifo", 0600);
  pid_t child = fork();
  if (child == 0) {
    open("fifo", O_WRONLY);
    _exit(1);
  }
  usleep(200000);
  kill(child, SIGKILL);
  waitpid(child, 0, 0);
  pid_t second = fork();
  if (second == 0) {
    close(open("before-term", O_WRONLY | O_CREAT, 0644));
    raise(SIGTERM);
    _exit(1);
  }
  waitpid(second, 0, 0);
  return 0;
}
