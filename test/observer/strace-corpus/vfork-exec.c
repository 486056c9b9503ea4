/* A vfork child executes /bin/true (its calls come before its parent's vfork result); the parent
 * then writes a file. */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
  pid_t child = vfork();
  if (child == 0) {
    char *argv[] = {"true", "vfork-child", 0};
    execv("/bin/true", argv);
    _exit(127);
  }
  waitpid(child, 0, 0);
  close(open("parent-after", O_WRONLY | O_CREAT, 0644));
  return 0;
}
