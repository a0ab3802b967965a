// The holder: the helper's child that makes the sandbox's namespaces and becomes bwrap. In a user
// namespace of its own (the app's user is 0 there) and a private mount namespace, it opens the
// FUSE device, makes the private /tmp (a capped tmpfs, detached), hands both to the helper, mounts
// the view on the stage folder (in this namespace only) and execs bwrap, which makes the view the
// sandbox's root. No shell, no text format, no path a server can write: every mount is made from
// a descriptor with the new mount API, onto a folder of the app's data folder.
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static void write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) fail("holder: %s could not be written: %s", path, strerror(errno));
  close(fd);
}

static int fs_open(const char *type) {
  int fs = (int)syscall(SYS_fsopen, type, FSOPEN_CLOEXEC);
  if (fs < 0) fail("holder: no %s file system here: %s", type, strerror(errno));
  return fs;
}

static void fs_set(int fs, const char *key, const char *value) {
  long rc = value ? syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, key, value, 0) : syscall(SYS_fsconfig, fs, FSCONFIG_SET_FLAG, key, NULL, 0);
  if (rc != 0) fail("holder: the mount option %s was refused: %s", key, strerror(errno));
}

static int fs_mount(int fs, unsigned attrs, const char *what) {
  if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) != 0) fail("holder: %s could not be made: %s", what, strerror(errno));
  int mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, attrs);
  if (mnt < 0) fail("holder: %s could not be mounted: %s", what, strerror(errno));
  close(fs);
  return mnt;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/** Closes every descriptor but stdio and those bwrap is given (the view's device above all: the server must never hold it). */
static void close_all_but(const int *keep, int nkeep) {
  int sorted[64];
  memcpy(sorted, keep, sizeof(int) * (size_t)nkeep);
  qsort(sorted, (size_t)nkeep, sizeof *sorted, cmp_int);
  unsigned from = 3;
  for (int i = 0; i <= nkeep; i++) {
    unsigned to = i < nkeep ? (unsigned)sorted[i] : ~0u;
    if (to > from && syscall(SYS_close_range, from, to - 1, 0) != 0) fail("holder: descriptors could not be closed: %s", strerror(errno));
    from = to + 1;
  }
}

pid_t holder_start(const struct holder_args *a, int channel) {
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) fail("the holder could not be started: %s", strerror(errno));
  if (pid > 0) return pid;

  // The holder ends with the helper, whatever ends it.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(HELPER_FAILED);
  // The helper blocks these for its signalfd; bwrap and the server get them as usual.
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  signal(SIGPIPE, SIG_DFL);

  if (unshare(CLONE_NEWUSER | CLONE_NEWNS | (a->network ? CLONE_NEWNET : 0)) != 0) fail("holder: no user namespace here: %s", strerror(errno));
  char map[64];
  write_file("/proc/self/setgroups", "deny");
  snprintf(map, sizeof map, "0 %u 1", (unsigned)a->uid);
  write_file("/proc/self/uid_map", map);
  snprintf(map, sizeof map, "0 %u 1", (unsigned)a->gid);
  write_file("/proc/self/gid_map", map);
  if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) fail("holder: its mounts could not be made private: %s", strerror(errno));

  // Opened here, in this user namespace: the kernel mounts a FUSE connection only where its device was opened.
  int fuse = open(a->fuse_device, O_RDWR | O_CLOEXEC);
  if (fuse < 0) fail("holder: the file view's device %s could not be opened: %s", a->fuse_device, strerror(errno));

  int fs = fs_open("tmpfs");
  char number[32];
  if (a->tmp_bytes) {
    snprintf(number, sizeof number, "%llu", a->tmp_bytes);
    fs_set(fs, "size", number);
  }
  fs_set(fs, "mode", "1777");
  int tmp = fs_mount(fs, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, "the private /tmp");

  fs = fs_open("fuse");
  snprintf(number, sizeof number, "%d", fuse);
  fs_set(fs, "fd", number);
  fs_set(fs, "rootmode", "40000");
  fs_set(fs, "user_id", "0");
  fs_set(fs, "group_id", "0");
  // The kernel checks permissions from the attributes the view reports, as on any file system.
  fs_set(fs, "default_permissions", NULL);
  int view = fs_mount(fs, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, "the file view");
  if (syscall(SYS_move_mount, view, "", AT_FDCWD, a->stage, MOVE_MOUNT_F_EMPTY_PATH) != 0) fail("holder: the file view could not be placed on %s: %s", a->stage, strerror(errno));
  close(view);

  // Handed over once mounted: the device answers reads only once its connection exists (EPERM before).
  int handed[2] = { fuse, tmp };
  if (fds_send(channel, handed, 2) != 0) fail("holder: the view's device could not be handed over: %s", strerror(errno));
  close(tmp);
  close(fuse);

  close_all_but(a->keep, a->nkeep);
  execv(a->argv[0], a->argv);
  fail("holder: %s could not be started: %s", a->argv[0], strerror(errno));
}
