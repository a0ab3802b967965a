// Descriptors handed from the holder to the helper over a socket pair (SCM_RIGHTS): the FUSE
// device it opened in its user namespace (the kernel mounts a FUSE connection only in the namespace
// that opened the device) and its private /tmp's detached mount.
#include "helper.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

int fds_send(int sock, const int *fds, int nfds) {
  char byte = 'f';
  struct iovec iov = { &byte, 1 };
  union {
    char buf[CMSG_SPACE(sizeof(int) * 4)];
    struct cmsghdr align;
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds) };
  struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
  cmsg->cmsg_level = SOL_SOCKET;
  cmsg->cmsg_type = SCM_RIGHTS;
  cmsg->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
  memcpy(CMSG_DATA(cmsg), fds, sizeof(int) * (size_t)nfds);
  return sendmsg(sock, &msg, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

int fds_receive(int sock, int *fds, int nfds) {
  char byte;
  struct iovec iov = { &byte, 1 };
  union {
    char buf[CMSG_SPACE(sizeof(int) * 4)];
    struct cmsghdr align;
  } control;
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf };
  ssize_t n;
  do n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n != 1) return -1;
  struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);
  if (!cmsg || cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS || cmsg->cmsg_len != CMSG_LEN(sizeof(int) * (size_t)nfds)) return -1;
  memcpy(fds, CMSG_DATA(cmsg), sizeof(int) * (size_t)nfds);
  return 0;
}
