// netns-exec: runs one program (nft) in a confined server's network namespace, with the one
// capability it needs there. Why here: pasta joins the namespace and never execs, but nft is a
// program, and a process that enters a user namespace where it is not uid 0 loses its capabilities
// at execve (it is the user's own namespace: without a uid map to 0, as NAMESPACE_KEEPER makes it
// for an unprivileged user). So this enters the keeper's user and network namespaces, raises
// CAP_NET_ADMIN as an ambient capability (kept across execve), and execs the program. Nothing else:
// no shell, no text parsed; the program's path and arguments come from the app.
//   netns-exec PID -- PROGRAM ARGS...
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_ns(long pid, const char *which) {
  char path[64];
  snprintf(path, sizeof path, "/proc/%ld/ns/%s", pid, which);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("netns-exec: %s could not be opened: %s", path, strerror(errno));
  return fd;
}

int netns_exec_main(int argc, char **argv) {
  if (argc < 3 || strcmp(argv[1], "--") != 0) fail("usage: netns-exec PID -- PROGRAM ARGS...");
  char *end = NULL;
  long pid = strtol(argv[0], &end, 10);
  if (!end || *end || pid <= 0) fail("netns-exec: %s is not a pid", argv[0]);
  // Both opened before either is entered: the pid names the same process for both.
  int user = open_ns(pid, "user");
  int net = open_ns(pid, "net");
  if (setns(user, CLONE_NEWUSER) != 0) fail("netns-exec: the sandbox's user namespace could not be entered: %s", strerror(errno));
  if (setns(net, CLONE_NEWNET) != 0) fail("netns-exec: the sandbox's network namespace could not be entered: %s", strerror(errno));
  close(user);
  close(net);
  // In the namespace it entered this process holds every capability; keep only CAP_NET_ADMIN, and
  // make it inheritable and ambient so that the program gets it.
  struct __user_cap_header_struct header = { _LINUX_CAPABILITY_VERSION_3, 0 };
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  data[0].effective = data[0].permitted = data[0].inheritable = 1u << CAP_NET_ADMIN;
  if (syscall(SYS_capset, &header, data) != 0) fail("netns-exec: capabilities could not be set: %s", strerror(errno));
  if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_NET_ADMIN, 0, 0) != 0) fail("netns-exec: CAP_NET_ADMIN could not be kept: %s", strerror(errno));
  execv(argv[2], argv + 2);
  fail("netns-exec: %s could not be run: %s", argv[2], strerror(errno));
}
