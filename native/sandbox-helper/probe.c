// The probe: can this machine host a file view? In a child, as the holder would: a user and mount
// namespace, the FUSE device opened there, a FUSE file system made from it. Prints one JSON line,
// {"view":true} or {"view":false,"reason":"…"}; the app keeps it with its sandbox probe.
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int try_view(const char *device, char *why, size_t size) {
  uid_t uid = getuid();
  gid_t gid = getgid();
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return snprintf(why, size, "no user namespace: %s", strerror(errno)), 1;
  char map[64];
  int fd = open("/proc/self/setgroups", O_WRONLY);
  if (fd >= 0) {
    if (write(fd, "deny", 4) != 4) {}
    close(fd);
  }
  snprintf(map, sizeof map, "0 %u 1", (unsigned)uid);
  fd = open("/proc/self/uid_map", O_WRONLY);
  if (fd < 0 || write(fd, map, strlen(map)) < 0) return snprintf(why, size, "no uid map: %s", strerror(errno)), 1;
  close(fd);
  snprintf(map, sizeof map, "0 %u 1", (unsigned)gid);
  fd = open("/proc/self/gid_map", O_WRONLY);
  if (fd < 0 || write(fd, map, strlen(map)) < 0) return snprintf(why, size, "no gid map: %s", strerror(errno)), 1;
  close(fd);
  int fuse = open(device, O_RDWR | O_CLOEXEC);
  if (fuse < 0) return snprintf(why, size, "%s cannot be opened by this user (%s)", device, strerror(errno)), 1;
  int fs = (int)syscall(SYS_fsopen, "fuse", FSOPEN_CLOEXEC);
  if (fs < 0) return snprintf(why, size, "no FUSE file system in this kernel (%s)", strerror(errno)), 1;
  char number[16];
  snprintf(number, sizeof number, "%d", fuse);
  if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "fd", number, 0) != 0 || syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "rootmode", "40000", 0) != 0 ||
      syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "user_id", "0", 0) != 0 || syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "group_id", "0", 0) != 0 ||
      syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) != 0)
    return snprintf(why, size, "a FUSE file system cannot be made in a user namespace here (%s)", strerror(errno)), 1;
  int mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, 0);
  if (mnt < 0) return snprintf(why, size, "a FUSE file system cannot be mounted here (%s)", strerror(errno)), 1;
  return 0;
}

int probe_main(const char *device) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return 1;
  pid_t pid = fork();
  if (pid == 0) {
    char why[512] = "";
    int rc = try_view(device, why, sizeof why);
    if (write(pipefd[1], why, strlen(why)) < 0) {}
    _exit(rc);
  }
  close(pipefd[1]);
  char why[512] = "";
  ssize_t n = read(pipefd[0], why, sizeof why - 1);
  why[n > 0 ? n : 0] = '\0';
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    printf("{\"view\":true}\n");
    return 0;
  }
  // The reason is this helper's own words (no quote or backslash in them); escaped anyway.
  printf("{\"view\":false,\"reason\":\"");
  for (char *c = why; *c; c++) printf(*c == '"' || *c == '\\' ? "\\%c" : (unsigned char)*c < 0x20 ? " " : "%c", *c);
  printf("\"}\n");
  return 0;
}
