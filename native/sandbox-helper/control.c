// The control socket between the app and the helper: length-prefixed binary frames, never text to
// parse. App to helper: TABLE (the plan the view shows). Helper to app: APPLIED (a table's sequence
// number and whether it took effect), HOLDER (the holder's pid: pasta joins its network namespace,
// the self-check reads its mounts). view-protocol.ts is the other side of each.
#include "helper.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/** Far above any real table (100,000 entries of long paths), so a malformed length cannot exhaust memory. */
#define MAX_FRAME (64u << 20)

static bool read_full(int fd, void *buf, size_t len) {
  for (size_t done = 0; done < len;) {
    ssize_t n = read(fd, (uint8_t *)buf + done, len - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += (size_t)n;
  }
  return true;
}

int control_read(int fd, uint8_t **payload, uint32_t *len) {
  uint8_t head[5];
  if (!read_full(fd, head, sizeof head)) return -1;
  memcpy(len, head, 4);
  if (*len > MAX_FRAME) {
    say("control: a frame of %u bytes is refused", *len);
    return -1;
  }
  *payload = malloc(*len ? *len : 1);
  if (!*payload) fail("out of memory");
  if (!read_full(fd, *payload, *len)) {
    free(*payload);
    return -1;
  }
  return head[4];
}

static pthread_mutex_t send_lock = PTHREAD_MUTEX_INITIALIZER;

void control_send(int fd, uint8_t type, const void *payload, uint32_t len) {
  uint8_t head[5];
  memcpy(head, &len, 4);
  head[4] = type;
  struct iovec iov[2] = { { head, sizeof head }, { (void *)payload, len } };
  pthread_mutex_lock(&send_lock);
  // A socket the app closed means the app is gone; the helper ends with it (main.c).
  size_t total = sizeof head + len;
  for (size_t done = 0; done < total;) {
    ssize_t n = writev(fd, iov, 2);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += (size_t)n;
    // Rare: a partial write of a large frame; move the vectors on.
    size_t skip = (size_t)n;
    for (int i = 0; i < 2; i++) {
      size_t take = skip < iov[i].iov_len ? skip : iov[i].iov_len;
      iov[i].iov_base = (uint8_t *)iov[i].iov_base + take;
      iov[i].iov_len -= take;
      skip -= take;
    }
  }
  pthread_mutex_unlock(&send_lock);
}

void control_reply(int fd, uint32_t seq, int error, const char *message) {
  uint32_t mlen = message ? (uint32_t)strlen(message) : 0;
  uint8_t *frame = malloc(12 + mlen);
  if (!frame) fail("out of memory");
  int32_t err = error;
  memcpy(frame, &seq, 4);
  memcpy(frame + 4, &err, 4);
  memcpy(frame + 8, &mlen, 4);
  if (mlen) memcpy(frame + 12, message, mlen);
  control_send(fd, 1, frame, 12 + mlen);
  free(frame);
}
