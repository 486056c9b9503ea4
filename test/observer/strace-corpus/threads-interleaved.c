/* Three threads each block in an open of their own FIFO for writing; the main thread releases
 * them one by one (opening each for reading): unfinished and resumed lines of several threads
 * interleave. Each thread then creates a file. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
static void *writer(void *arg) {
  long n = (long)arg;
  char fifo[16], file[16];
  snprintf(fifo, sizeof fifo, "fifo-%ld", n);
  snprintf(file, sizeof file, "thread-%ld", n);
  close(open(fifo, O_WRONLY));
  close(open(file, O_WRONLY | O_CREAT, 0644));
  return 0;
}
int main(void) {
  pthread_t t[3];
  char fifo[16];
  for (long n = 0; n < 3; n++) {
    snprintf(fifo, sizeof fifo, "fifo-%ld", n);
    mkfifo(fifo, 0600);
  }
  for (long n = 0; n < 3; n++) pthread_create(&t[n], 0, writer, (void *)n);
  usleep(200000);
  for (long n = 0; n < 3; n++) {
    snprintf(fifo, sizeof fifo, "fifo-%ld", n);
    int fd = open(fifo, O_RDONLY);
    pthread_join(t[n], 0);
    close(fd);
  }
  return 0;
}
