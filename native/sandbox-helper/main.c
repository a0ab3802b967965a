// mcp-roots-sandbox: the entry. Its commands:
//   probe [--fuse-device PATH]        can this machine host a file view? one JSON line
//   netns-exec PID -- PROGRAM ARGS... PROGRAM (nft) in a sandbox's network namespace (netns.c)
//   inspect                           a table and rule queries on stdin, what this helper reads in
//                                     them on stdout (the tests check the wire and the rules with it)
//   run --stage DIR --control-fd N [--fuse-device PATH] [--tmp-bytes N] [--tmpdir NAME] [--net]
//       [--keep-fd N]... -- COMMAND ARGS...
// `run` is started by the app in place of bwrap (electron/host/sandbox/view-launch.ts): it forks
// the holder (holder.c), which execs COMMAND (prlimit, then bwrap), reads the plan from the control
// socket, and serves the file view until the sandbox is gone; then it exits as bwrap did. It ends
// with the app (PR_SET_PDEATHSIG), and the sandbox ends with it.
#include "helper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void vsay(const char *fmt, va_list args) {
  char line[1024];
  vsnprintf(line, sizeof line, fmt, args);
  dprintf(2, "mcp-roots-sandbox: %s\n", line);
}

void say(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsay(fmt, args);
  va_end(args);
}

void fail(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vsay(fmt, args);
  va_end(args);
  _exit(HELPER_FAILED);
}

static pid_t holder;

/** Ends this process the way the holder (bwrap) ended: its exit code, or its signal. */
static void exit_as(int status) {
  if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
  int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
  signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  pthread_sigmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
  _exit(128 + sig);
}

// Two threads learn of the holder's end (the control thread by SIGCHLD, the main thread when the
// view's connection ends): one reaps it and exits as it did, under this lock. The other must not
// reap it too: it would get ECHILD and exit with a status it never read (seen: "exited with code
// 0" for a server that exited with 1, under load).
static pthread_mutex_t reaping = PTHREAD_MUTEX_INITIALIZER;

/** Exits as the holder did if it has ended (or, with block, once it has); returns if it runs on. */
static void reap_holder(bool block) {
  if (block) {
    // Waits without reaping, outside the lock: the control thread goes on serving meanwhile.
    siginfo_t info;
    while (waitid(P_PID, (id_t)holder, &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {}
  }
  pthread_mutex_lock(&reaping);
  int status;
  pid_t got;
  while ((got = waitpid(holder, &status, WNOHANG)) < 0 && errno == EINTR) {}
  // Exits holding the lock: the other thread waits on it until the process is gone.
  if (got == holder) exit_as(status);
  pthread_mutex_unlock(&reaping);
}

struct control_loop {
  struct view *view;
  int control;
  int signals;
};

/** The control thread: new tables from the app, and the signals (the holder's end, a stop to pass on). */
static void *control_loop(void *arg) {
  struct control_loop *c = arg;
  // The third: changes made outside to the folders the view shows (inotify), told to the kernel.
  struct pollfd fds[3] = { { c->control, POLLIN, 0 }, { c->signals, POLLIN, 0 }, { view_inotify_fd(c->view), POLLIN, 0 } };
  nfds_t count = fds[2].fd >= 0 ? 3 : 2;
  for (;;) {
    if (poll(fds, count, -1) < 0) {
      if (errno == EINTR) continue;
      fail("control: %s", strerror(errno));
    }
    if (fds[1].revents & POLLIN) {
      struct signalfd_siginfo info;
      if (read(c->signals, &info, sizeof info) == sizeof info) {
        if (info.ssi_signo == SIGCHLD) {
          reap_holder(false);
        } else {
          // A stop for the sandbox (SIGTERM, SIGINT, SIGHUP): bwrap ends, then this process as it did.
          kill(holder, (int)info.ssi_signo);
        }
      }
    }
    if (count == 3 && (fds[2].revents & POLLIN)) view_watch_events(c->view);
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      uint8_t *payload;
      uint32_t len;
      int type = control_read(c->control, &payload, &len);
      if (type < 0) {
        // The app is gone (or broke the protocol): the sandbox goes with it.
        kill(holder, SIGKILL);
        reap_holder(true);
        fail("the sandbox could not be waited for");
      }
      if (type == 1) {
        const char *why = NULL;
        view_lock(c->view);
        struct table *current = view_table(c->view);
        view_unlock(c->view);
        uint32_t seq = len >= 4 ? *(uint32_t *)payload : 0;
        struct table *table = table_parse(payload, len, current, -1, &why);
        if (table) {
          view_apply(c->view, table);
          control_reply(c->control, seq, 0, "");
        } else {
          control_reply(c->control, seq, EINVAL, why);
        }
      }
      free(payload);
    }
  }
  return NULL;
}

static unsigned long long number(const char *text, const char *what) {
  char *end;
  errno = 0;
  unsigned long long value = strtoull(text, &end, 10);
  if (errno || *end || !*text) fail("%s is not a number: %s", what, text);
  return value;
}

static int run_main(int argc, char **argv) {
  struct holder_args args = { .fuse_device = "/dev/fuse", .uid = getuid(), .gid = getgid() };
  int control = -1;
  const char *tmpdir = NULL;
  int i = 0;
  for (; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--") == 0) {
      i++;
      break;
    }
    if (i + 1 >= argc && strcmp(arg, "--net") != 0) fail("%s needs a value", arg);
    if (strcmp(arg, "--stage") == 0) args.stage = argv[++i];
    else if (strcmp(arg, "--control-fd") == 0) control = (int)number(argv[++i], arg);
    else if (strcmp(arg, "--fuse-device") == 0) args.fuse_device = argv[++i];
    else if (strcmp(arg, "--tmp-bytes") == 0) args.tmp_bytes = number(argv[++i], arg);
    else if (strcmp(arg, "--tmpdir") == 0) tmpdir = argv[++i];
    else if (strcmp(arg, "--net") == 0) args.network = true;
    else if (strcmp(arg, "--keep-fd") == 0) {
      if (args.nkeep == 64) fail("too many descriptors to keep");
      args.keep[args.nkeep++] = (int)number(argv[++i], arg);
    } else fail("unknown option %s", arg);
  }
  if (!args.stage || control < 0 || i >= argc) fail("usage: run --stage DIR --control-fd N [options] -- COMMAND ARGS...");
  if (argv[i][0] != '/') fail("the command must be an absolute path: %s", argv[i]);
  args.argv = argv + i;

  // It ends with the app; the app may already be gone.
  pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(HELPER_FAILED);
  // Every folder the view passes through is held open: as many descriptors as the app's user may have.
  struct rlimit files;
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  signal(SIGPIPE, SIG_IGN);
  sigset_t handled;
  sigemptyset(&handled);
  sigaddset(&handled, SIGCHLD);
  sigaddset(&handled, SIGTERM);
  sigaddset(&handled, SIGINT);
  sigaddset(&handled, SIGHUP);
  sigprocmask(SIG_BLOCK, &handled, NULL);
  int signals = signalfd(-1, &handled, SFD_CLOEXEC);
  if (signals < 0) fail("no signalfd: %s", strerror(errno));

  int channel[2];
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, channel) != 0) fail("no socket pair: %s", strerror(errno));
  holder = holder_start(&args, channel[1]);
  close(channel[1]);
  // Its descriptors were for bwrap; the server's stdio is the holder's now.
  for (int k = 0; k < args.nkeep; k++) close(args.keep[k]);
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull >= 0) {
    dup2(devnull, 0);
    dup2(devnull, 1);
    close(devnull);
  }

  int handed[2];
  if (fds_receive(channel[0], handed, 2) != 0) {
    // The holder failed before it could hand anything over; it said why.
    int status;
    waitpid(holder, &status, 0);
    exit_as(status);
  }
  close(channel[0]);
  int fuse = handed[0], tmp = handed[1];
  if (tmpdir && mkdirat(tmp, tmpdir, 0700) != 0 && errno != EEXIST) fail("the private temp folder could not be made: %s", strerror(errno));

  uint8_t *payload;
  uint32_t len;
  int type = control_read(control, &payload, &len);
  if (type != 1) {
    kill(holder, SIGKILL);
    fail("the app sent no plan for the view");
  }
  const char *why = NULL;
  uint32_t seq = len >= 4 ? *(uint32_t *)payload : 0;
  struct table *table = table_parse(payload, len, NULL, tmp, &why);
  free(payload);
  if (!table) {
    control_reply(control, seq, EINVAL, why);
    kill(holder, SIGKILL);
    fail("the view could not be set up: %s", why);
  }
  struct view *view = view_new(fuse, control, table);
  close(tmp);
  control_reply(control, seq, 0, "");
  uint32_t pid = (uint32_t)holder;
  control_send(control, 2, &pid, sizeof pid);

  static struct control_loop loop;
  loop = (struct control_loop){ view, control, signals };
  pthread_t thread;
  if (pthread_create(&thread, NULL, control_loop, &loop) != 0) fail("no control thread");
  if (!view_serve(view)) {
    // The view cannot serve: the sandbox cannot see anything, and would wait for it forever.
    kill(holder, SIGKILL);
  }
  // The kernel ended the connection: nothing of the sandbox uses the view any more.
  reap_holder(true);
  // Reaped by the control thread, which is exiting as the holder did.
  for (;;) pause();
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "run") == 0) return run_main(argc - 2, argv + 2);
  if (argc >= 2 && strcmp(argv[1], "inspect") == 0) return inspect_main();
  if (argc >= 2 && strcmp(argv[1], "netns-exec") == 0) return netns_exec_main(argc - 2, argv + 2);
  if (argc >= 2 && strcmp(argv[1], "probe") == 0) return probe_main(argc >= 4 && strcmp(argv[2], "--fuse-device") == 0 ? argv[3] : "/dev/fuse");
  dprintf(2, "usage: mcp-roots-sandbox run|probe|inspect|netns-exec …\n");
  return 2;
}
