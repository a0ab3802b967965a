// The file view: a FUSE file system of one server's own, mounted as its sandbox's root. It shows
// the plan's synthetic folders and links (the way to each grant and each mount point bwrap adds),
// and passes through to each backing folder (its grants, its private /tmp), deciding every
// operation against the table in force: a grant's mode, the protected-name rules at any depth, the
// masks and mount points laid over a grant (pinned: they cannot be renamed away). A new table
// (a grant, a revoke, a mode change) takes effect at the next operation, open files included.
//
// Every name is opened relative to its folder's descriptor, never followed if it is a symlink:
// nothing the server writes can lead this process elsewhere. What it refuses: EROFS (a read-only
// grant, a protected name, the synthetic part), EBUSY (a pinned folder, or one on the way to a
// protected name), EXDEV (across grants), ENOENT (not in the view, or revoked), EACCES (an open
// file whose grant was revoked).
#include "nodes.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/** The largest write the kernel sends (max_pages 256 of 4 KiB): bigger requests mean fewer trips. */
#define MAX_WRITE (1u << 20)
#define MAX_DEPTH 512
/**
 * How long the kernel may trust what it was told about a file of a backing. Where its folder is
 * watched (inotify: a change made outside is told to the kernel at once), long: a second scan of a
 * tree asks the view nothing. Where no watch could be had, changes made outside show within a second.
 */
#define WATCHED_TIMEOUT_S 60
#define UNWATCHED_TIMEOUT_S 1
/** Files read or written by node (no open round trip, view.c op_read): the last ones used keep their descriptor. */
#define CACHED_FILES 32
/** This view's own changes of names, whose inotify events are not news to the kernel (view_watch_events). */
#define LEDGER 512
/** How long an own change waits for its event before it is forgotten (then the event is taken as news: safe). */
#define LEDGER_NS 5000000000ull
/**
 * A write of this view's own is followed by its inotify event within this time; the kernel marks a
 * file's attributes stale after each write itself, so that event is no news.
 */
#define OWN_WRITE_NS 100000000ull
/** Read-ahead of a folder: files up to this size, this many of them, this much in all. */
#define READ_AHEAD_FILE (64u << 10)
#define READ_AHEAD_FILES 256
#define READ_AHEAD_BYTES (8u << 20)
/** The synthetic part changes only with a new table, which invalidates what changed. */
#define SYNTHETIC_TIMEOUT_S 3600
/** What a file owned by anyone but the app's user shows as: its owner is not mapped in the sandbox. */
#define UNMAPPED_ID 65534u
/**
 * The mode bits a server may set: no set-user-ID or set-group-ID bit. A server of an app run as root
 * could otherwise leave a root-owned setuid program in a grant for anyone to run.
 */
#define SETTABLE_MODE 01777

struct snapshot_entry {
  char *name;
  uint64_t ino;
  unsigned type;
};

struct handle {
  bool used;
  /** -1 for a synthetic folder's handle (it has only its snapshot). */
  int fd;
  struct node *node;
  bool dir;
  /** Folders whose entries are merged with the plan's (or wholly synthetic): read once, at opendir. */
  struct snapshot_entry *snapshot;
  size_t nsnapshot;
};

/** Not one of the kernel's: an INVAL_INODE for the attributes only (off -1). */
#define FUSE_NOTIFY_INVAL_INODE_ATTR 1000

struct note {
  int kind;
  uint64_t id;
  char *name;
};

struct view {
  int fuse;
  int control;
  pthread_mutex_t lock;
  struct table *table;
  struct nodes *nodes;
  uint64_t next_id;
  struct handle *handles;
  size_t nhandles;
  struct node **synthetic;
  size_t nsynthetic;
  uid_t uid;
  gid_t gid;
  struct timespec started;
  size_t insize;
  /** Notes for the kernel, gathered under the lock by view_apply and sent after it. */
  struct note *notes;
  size_t nnotes;
  /** Held while notes are sent: two threads gather them (view_apply, view_watch_events). */
  pthread_mutex_t notes_lock;
  /** Watches on the folders the kernel knows (changes made outside), and which node each is. */
  int inotify;
  struct node **watched;
  size_t nwatched;
  /** Names this view made, removed or moved: their events are its own (see note_event). */
  struct { int wd; uint32_t mask; uint32_t hash; uint64_t at; } ledger[LEDGER];
  size_t nledger;
  /** Descriptors of files read or written by node, most recent last. */
  struct { struct node *node; int fd; int mode; } cached[CACHED_FILES];
  size_t ncached;
  /** The record of what the server did in its grants (audit): events since the last report, the
      files read or written since then, and events dropped when the buffer was full. */
  struct audit_event *events;
  size_t nevents, capevents;
  struct node **dirty;
  size_t ndirty, capdirty;
  uint64_t dropped;
  size_t kept_pending;
};

/* ---- The record (audit) ---- */

/** What the record says a server did (view-protocol.ts AUDIT_OPS says the same). */
enum audit_op { AUDIT_DROPPED = 0, AUDIT_CREATE = 1, AUDIT_MKDIR = 2, AUDIT_WRITE = 3, AUDIT_TRUNCATE = 4, AUDIT_RENAME = 5, AUDIT_DELETE = 6, AUDIT_RMDIR = 7, AUDIT_CHMOD = 8, AUDIT_SYMLINK = 9, AUDIT_LINK = 10, AUDIT_READ = 11, AUDIT_BEFORE = 12 };

struct audit_event {
  uint8_t op;
  /** 0: done; else the errno it was refused with, and `rule` says which rule. */
  int32_t err;
  uint64_t at_ms;
  /** Bytes written or read, the new size, the new mode; the reads for AUDIT_READ in `count`. */
  uint64_t bytes;
  uint32_t count;
  char *path;
  char *path2;
  const char *rule;
  /** AUDIT_BEFORE: the file's content before the server's first change of it. */
  uint8_t *data;
  uint32_t ndata;
};

/** A file's content is kept before the server first changes it when it is at most this big (a diff to show), */
#define AUDIT_KEEP_FILE (256u << 10)
/** and while the kept contents waiting for the next report stay under this. */
#define AUDIT_KEEP_PENDING (16u << 20)

/** Events held between two reports (a quarter second): beyond, they are counted as dropped, never waited for. */
#define AUDIT_MAX_EVENTS 65536
#define AUDIT_FLUSH_MS 250
#define FRAME_AUDIT 3

/* ---- Replies ---- */

/**
 * Sends a reply. Called under the view's lock, which it lets go of meanwhile: handing the reply to
 * the kernel wakes the process that asked, the slow part of a round trip, and the other serving
 * thread may answer the next request then. A handler reads nothing it held before after replying.
 */
static void send_reply(struct view *v, uint64_t unique, int error, const void *a, size_t alen, const void *b, size_t blen) {
  struct fuse_out_header out = { .len = (uint32_t)(sizeof out + alen + blen), .error = error, .unique = unique };
  struct iovec iov[3] = { { &out, sizeof out }, { (void *)a, alen }, { (void *)b, blen } };
  int n = blen ? 3 : alen ? 2 : 1;
  pthread_mutex_unlock(&v->lock);
  // ENOENT: the request was interrupted and is gone; anything else means the connection is.
  if (writev(v->fuse, iov, n) < 0 && errno != ENOENT) say("view: a reply could not be written: %s", strerror(errno));
  pthread_mutex_lock(&v->lock);
}

static void reply_error(struct view *v, uint64_t unique, int err) { send_reply(v, unique, -err, NULL, 0, NULL, 0); }
static void reply_ok(struct view *v, uint64_t unique, const void *data, size_t len) { send_reply(v, unique, 0, data, len, NULL, 0); }

/* ---- Nodes and their paths ---- */

static bool is_synthetic(const struct node *node) { return node->grant == NULL; }

static void grant_abs(const struct grant *grant, char ***parts, size_t *n) {
  *parts = grant->abs;
  *n = grant->nabs;
}

/**
 * The components of `node`'s path below its backing's folder, plus `extra` when given. False when
 * the node is no longer attached to its backing (its folder was forgotten) or the path is too deep:
 * callers then refuse what would change anything.
 */
static bool rel_path(const struct node *node, const char *extra, char **parts, size_t *n) {
  size_t depth = 0;
  const char *reversed[MAX_DEPTH];
  if (extra) reversed[depth++] = extra;
  const struct node *at = node;
  while (at && at != at->grant->root) {
    if (depth == MAX_DEPTH || !at->parent) return false;
    reversed[depth++] = at->name;
    at = at->parent;
  }
  if (!at) return false;
  for (size_t i = 0; i < depth; i++) parts[i] = (char *)reversed[depth - 1 - i];
  *n = depth;
  return true;
}

/** The plan's tnode at a real node's path plus `extra` (a mask, a nested grant, the way to one), or NULL. */
static struct tnode *overlay_at(struct view *v, const struct node *node, const char *extra) {
  if (is_synthetic(node)) return NULL;
  if (!node->grant->has_overlays) return NULL;
  char *abs_parts[MAX_DEPTH], *rel[MAX_DEPTH];
  char **gparts;
  size_t nabs, nrel;
  if (!rel_path(node, extra, rel, &nrel)) return NULL;
  grant_abs(node->grant, &gparts, &nabs);
  if (nabs + nrel > MAX_DEPTH) return NULL;
  memcpy(abs_parts, gparts, nabs * sizeof *gparts);
  memcpy(abs_parts + nabs, rel, nrel * sizeof *rel);
  return tnode_at(v->table->root, abs_parts, nabs + nrel);
}

/** How the path of `node` (plus `extra`) stands against the protected-name rules of its grant. */
static enum guard guard_of(struct view *v, const struct node *node, const char *extra) {
  if (!(node->grant->flags & ENTRY_PROTECT)) return GUARD_NONE;
  char *rel[MAX_DEPTH];
  char **abs;
  size_t nrel, nabs;
  // A path this view cannot spell any more is treated as protected: refusing is the safe side.
  if (!rel_path(node, extra, rel, &nrel)) return GUARD_PROTECTED;
  grant_abs(node->grant, &abs, &nabs);
  return rules_match(v->table, node->grant, abs, nabs, rel, nrel, NULL);
}

static struct node *new_node(struct view *v) {
  struct node *node = calloc(1, sizeof *node);
  if (!node) fail("out of memory");
  node->id = v->next_id++;
  node->fd = -1;
  node->wd = -1;
  return node;
}

static mode_t kind_type(int kind) { return kind == ENTRY_LINK ? S_IFLNK : kind == ENTRY_FILE ? S_IFREG : S_IFDIR; }

/** The synthetic node showing a plan path (made the first time the kernel asks for it). */
static struct node *synthetic_node(struct view *v, struct tnode *tn) {
  if (tn->node) return tn->node;
  struct node *node = new_node(v);
  node->tn = tn;
  node->type = kind_type(tn->kind);
  // Its path, to find it again when a new table comes (view_apply).
  size_t len = 0;
  for (struct tnode *at = tn; at->parent; at = at->parent) len += strlen(at->name) + 1;
  node->spath = calloc(1, len + 2);
  if (!node->spath) fail("out of memory");
  size_t end = len;
  for (struct tnode *at = tn; at->parent; at = at->parent) {
    size_t n = strlen(at->name);
    end -= n;
    memcpy(node->spath + end, at->name, n);
    node->spath[--end] = '/';
  }
  if (len == 0) node->spath[0] = '/';
  tn->node = node;
  nodes_add(v->nodes, node);
  struct node **more = realloc(v->synthetic, (v->nsynthetic + 1) * sizeof *more);
  if (!more) fail("out of memory");
  v->synthetic = more;
  v->synthetic[v->nsynthetic++] = node;
  return node;
}

static void watch(struct view *v, struct node *node);

/** The top node of a backing: its folder, by the descriptor the table opened. */
static struct node *backing_node(struct view *v, struct grant *grant) {
  if (grant->root) return grant->root;
  struct node *node = new_node(v);
  node->fd = fcntl(grant->fd, F_DUPFD_CLOEXEC, 3);
  if (node->fd < 0) fail("out of descriptors for %s", grant->path);
  node->dev = grant->dev;
  node->ino = grant->ino;
  node->type = S_IFDIR;
  node->grant = grant;
  grant->refs++;
  grant->root = node;
  nodes_add(v->nodes, node);
  watch(v, node);
  return node;
}

/* ---- Attributes ---- */

static uint32_t mapped(uint32_t id, uint32_t own) { return id == own ? 0 : UNMAPPED_ID; }

static void attr_of_stat(struct view *v, const struct stat *st, uint64_t ino, struct fuse_attr *attr) {
  memset(attr, 0, sizeof *attr);
  attr->ino = ino;
  attr->size = (uint64_t)st->st_size;
  attr->blocks = (uint64_t)st->st_blocks;
  attr->atime = (uint64_t)st->st_atim.tv_sec;
  attr->mtime = (uint64_t)st->st_mtim.tv_sec;
  attr->ctime = (uint64_t)st->st_ctim.tv_sec;
  attr->atimensec = (uint32_t)st->st_atim.tv_nsec;
  attr->mtimensec = (uint32_t)st->st_mtim.tv_nsec;
  attr->ctimensec = (uint32_t)st->st_ctim.tv_nsec;
  attr->mode = st->st_mode;
  attr->nlink = (uint32_t)st->st_nlink;
  attr->uid = mapped(st->st_uid, v->uid);
  attr->gid = mapped(st->st_gid, v->gid);
  attr->rdev = (uint32_t)st->st_rdev;
  attr->blksize = (uint32_t)st->st_blksize;
}

static void synthetic_attr(struct view *v, const struct node *node, struct fuse_attr *attr) {
  memset(attr, 0, sizeof *attr);
  attr->ino = node->id;
  bool link = node->type == S_IFLNK;
  attr->mode = link ? (S_IFLNK | 0777) : node->type == S_IFREG ? (S_IFREG | 0444) : (S_IFDIR | 0555);
  attr->nlink = node->type == S_IFDIR ? 2 : 1;
  attr->size = link && node->tn && node->tn->link ? strlen(node->tn->link) : 0;
  attr->atime = attr->mtime = attr->ctime = (uint64_t)v->started.tv_sec;
  attr->blksize = 4096;
}

/** The inode a real node is, now: by its descriptor (folders) or by its folder and name (files). */
static int stat_node(struct view *v, struct node *node, struct stat *st) {
  (void)v;
  int r;
  if (node->fd >= 0) r = fstatat(node->fd, "", st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
  else if (node->parent && node->parent->fd >= 0) r = fstatat(node->parent->fd, node->name, st, AT_SYMLINK_NOFOLLOW);
  else return -ESTALE;
  if (r != 0) return -errno;
  // Not the inode the kernel knows by this node: it was replaced outside (the next lookup finds the new one).
  if (st->st_ino != node->ino || st->st_dev != node->dev) return -ESTALE;
  return 0;
}

/** Opens a real node's inode anew (flags as for open), checked to be that inode; never through a symlink. */
static int reopen(struct node *node, int flags) {
  int fd;
  if (node->type == S_IFDIR) fd = openat(node->fd, ".", flags | O_CLOEXEC);
  else if (node->parent && node->parent->fd >= 0) fd = openat(node->parent->fd, node->name, flags | O_NOFOLLOW | O_CLOEXEC);
  else return -ESTALE;
  if (fd < 0) return -errno;
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_ino != node->ino || st.st_dev != node->dev) {
    close(fd);
    return -ESTALE;
  }
  return fd;
}

/** How long the kernel may trust a name in this folder and what it leads to. */
static uint64_t timeout_in(const struct node *dir) {
  if (!dir || !dir->grant) return SYNTHETIC_TIMEOUT_S;
  return dir->wd >= 0 ? WATCHED_TIMEOUT_S : UNWATCHED_TIMEOUT_S;
}

/** How long the kernel may trust a node's attributes: its folder's watch, or its own (a backing's top). */
static uint64_t attr_timeout(const struct node *node) {
  if (!node->grant) return SYNTHETIC_TIMEOUT_S;
  if (node->wd >= 0 || (node->parent && node->parent->wd >= 0)) return WATCHED_TIMEOUT_S;
  return UNWATCHED_TIMEOUT_S;
}

static void fill_entry(struct fuse_entry_out *e, uint64_t id, uint64_t entry_valid, uint64_t attr_valid) {
  e->nodeid = id;
  e->generation = 0;
  e->entry_valid = entry_valid;
  e->attr_valid = attr_valid;
  e->entry_valid_nsec = e->attr_valid_nsec = 0;
}

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static uint32_t name_hash(const char *name) {
  uint32_t h = 2166136261u;
  for (const unsigned char *c = (const unsigned char *)name; *c; c++) h = (h ^ *c) * 16777619u;
  return h;
}

/**
 * Notes a change of a name this view made (a create, a removal, a move) in a watched folder: its
 * inotify event brings nothing the kernel does not know already (it updates its own caches after
 * its own requests), and telling it again would make it ask for the folder anew at the next create.
 */
static void own_change(struct view *v, const struct node *dir, const char *name, uint32_t mask) {
  if (!dir->grant || dir->wd < 0) return;
  if (v->nledger == LEDGER) {
    memmove(&v->ledger[0], &v->ledger[1], (LEDGER - 1) * sizeof v->ledger[0]);
    v->nledger--;
  }
  v->ledger[v->nledger].wd = dir->wd;
  v->ledger[v->nledger].mask = mask;
  v->ledger[v->nledger].hash = name_hash(name);
  v->ledger[v->nledger].at = now_ns();
  v->nledger++;
}

/** Whether an event is one of this view's own changes (consumed if so). */
static bool was_own(struct view *v, const struct inotify_event *ev) {
  uint64_t now = now_ns();
  uint32_t hash = name_hash(ev->name);
  for (size_t i = 0; i < v->nledger; i++) {
    bool stale = now - v->ledger[i].at > LEDGER_NS;
    bool match = !stale && v->ledger[i].wd == ev->wd && v->ledger[i].hash == hash && (v->ledger[i].mask & ev->mask);
    if (stale || match) {
      memmove(&v->ledger[i], &v->ledger[i + 1], (v->nledger - i - 1) * sizeof v->ledger[0]);
      v->nledger--;
      if (match) return true;
      i--;
    }
  }
  return false;
}

/** Watches a folder node: its changes made outside are told to the kernel (view_watch_events). */
static void watch(struct view *v, struct node *node) {
  node->wd = -1;
  if (v->inotify < 0 || node->fd < 0) return;
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", node->fd);
  int wd = inotify_add_watch(v->inotify, proc, IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
  // No watch (the user's limit reached): this folder's names are trusted for a second only.
  if (wd < 0) return;
  node->wd = wd;
  struct node **more = realloc(v->watched, (v->nwatched + 1) * sizeof *more);
  if (!more) fail("out of memory");
  v->watched = more;
  v->watched[v->nwatched++] = node;
}

/* ---- Lookup ---- */

static bool valid_name(const char *name) {
  return name[0] && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 && !strchr(name, '/') && strlen(name) <= 255;
}

/**
 * Finds `name` in `parent` and counts a lookup of it: the plan's entry there if there is one, else
 * the real file. Fills `e` (the entry the kernel is told). Returns 0 or -errno.
 */
static int lookup(struct view *v, struct node *parent, const char *name, struct fuse_entry_out *e) {
  memset(e, 0, sizeof *e);
  if (!valid_name(name)) return -ENOENT;
  struct tnode *plan = NULL;
  if (is_synthetic(parent)) {
    if (!parent->tn || parent->type != S_IFDIR) return -ENOENT;
    plan = tnode_child(parent->tn, name);
    if (!plan) return -ENOENT;
  } else {
    if (!parent->grant->alive) return -ENOENT;
    struct tnode *over = overlay_at(v, parent, name);
    if (over) plan = over;
  }
  struct node *node;
  struct stat st;
  if (plan) {
    if (plan->kind == ENTRY_BACKING) {
      node = backing_node(v, plan->grant);
      if (fstat(node->fd, &st) != 0) return -errno;
      attr_of_stat(v, &st, st.st_ino, &e->attr);
      fill_entry(e, node->id, timeout_in(parent), attr_timeout(node));
    } else {
      node = synthetic_node(v, plan);
      synthetic_attr(v, node, &e->attr);
      fill_entry(e, node->id, timeout_in(parent), SYNTHETIC_TIMEOUT_S);
    }
    node->lookups++;
    return 0;
  }
  if (is_synthetic(parent)) return -ENOENT;
  int fd = openat(parent->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -errno;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return -err;
  }
  node = nodes_by_inode(v->nodes, st.st_dev, st.st_ino, parent->grant);
  if (node) {
    close(fd);
    nodes_place(v->nodes, node, parent, name);
  } else {
    node = new_node(v);
    node->dev = st.st_dev;
    node->ino = st.st_ino;
    node->type = st.st_mode & S_IFMT;
    node->grant = parent->grant;
    parent->grant->refs++;
    node->parent = parent;
    node->name = strdup(name);
    if (!node->name) fail("out of memory");
    if (S_ISDIR(st.st_mode)) node->fd = fd;
    else close(fd);
    nodes_add(v->nodes, node);
    watch(v, node);
  }
  if (!node->sticky && guard_of(v, node, NULL) == GUARD_PROTECTED) node->sticky = true;
  node->lookups++;
  attr_of_stat(v, &st, st.st_ino, &e->attr);
  fill_entry(e, node->id, timeout_in(parent), attr_timeout(node));
  return 0;
}

/* ---- What may be changed ---- */

/** May the contents or attributes of this node change (write, truncate, chmod, utimes)? */
static int may_change(struct view *v, struct node *node) {
  if (is_synthetic(node)) return -EROFS;
  if (!node->grant->alive) return -ENOENT;
  if (!(node->grant->flags & ENTRY_WRITABLE)) return -EROFS;
  if (node->sticky || guard_of(v, node, NULL) == GUARD_PROTECTED) return -EROFS;
  return 0;
}

/** May a new name be made in `parent` (create, mkdir, symlink, link, the target of a rename)? */
static int may_create(struct view *v, struct node *parent, const char *name) {
  if (!valid_name(name)) return -EINVAL;
  if (is_synthetic(parent)) return parent->tn && tnode_child(parent->tn, name) ? -EEXIST : -EROFS;
  if (!parent->grant->alive) return -ENOENT;
  if (!(parent->grant->flags & ENTRY_WRITABLE)) return -EROFS;
  if (overlay_at(v, parent, name)) return -EEXIST;
  if (guard_of(v, parent, name) == GUARD_PROTECTED) return -EROFS;
  return 0;
}

/** May the name in `parent` go away (unlink, rmdir, the source of a rename, a name a rename replaces)? */
static int may_remove(struct view *v, struct node *parent, const char *name) {
  if (!valid_name(name)) return -EINVAL;
  if (is_synthetic(parent)) return -EROFS;
  if (!parent->grant->alive) return -ENOENT;
  if (!(parent->grant->flags & ENTRY_WRITABLE)) return -EROFS;
  // A mask, a nested grant or a mount point, or the way to one: pinned, as a mount point would be.
  if (overlay_at(v, parent, name)) return -EBUSY;
  enum guard guard = guard_of(v, parent, name);
  if (guard == GUARD_PROTECTED) return -EROFS;
  if (guard == GUARD_PREFIX) return -EBUSY;
  struct node *there = nodes_by_name(v->nodes, parent, name);
  if (there && there->sticky) return -EROFS;
  return 0;
}

/* ---- The record: what the server did in a grant the app asked to record ---- */

/** The process that asked for the request being served (the kernel's pid of the caller's thread). */
static __thread uint32_t caller;
/** The app (or proxy) that started this helper: its own checks through the view (the self-check's canaries) are not the server's doing. */
static pid_t app_pid;

/** Whether a thread belongs to the app's process: its Tgid, read once per thread seen. */
static bool by_app(uint32_t tid) {
  static __thread uint32_t last_tid;
  static __thread bool last_answer;
  if (tid == 0) return false;
  if (tid == last_tid) return last_answer;
  char file[64], line[128];
  snprintf(file, sizeof file, "/proc/%u/status", tid);
  FILE *status = fopen(file, "re");
  bool answer = false;
  if (status) {
    while (fgets(line, sizeof line, status)) {
      if (strncmp(line, "Tgid:", 5) == 0) {
        answer = (pid_t)strtol(line + 5, NULL, 10) == app_pid;
        break;
      }
    }
    fclose(status);
  }
  last_tid = tid;
  last_answer = answer;
  return answer;
}

static bool recorded(const struct node *node) { return node && !is_synthetic(node) && (node->grant->flags & ENTRY_RECORD); }

static uint64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/** The host path of `node` (plus `extra`): its grant's folder and the names below it; NULL if it cannot be spelled. */
static char *node_path(const struct node *node, const char *extra) {
  char *rel[MAX_DEPTH];
  size_t nrel;
  if (!rel_path(node, extra, rel, &nrel)) return NULL;
  const char *base = node->grant->path;
  size_t len = strlen(base) + 1;
  for (size_t i = 0; i < nrel; i++) len += strlen(rel[i]) + 1;
  char *out = malloc(len);
  if (!out) return NULL;
  size_t at = (size_t)snprintf(out, len, "%s", base);
  for (size_t i = 0; i < nrel; i++) at += (size_t)snprintf(out + at, len - at, "%s%s", at > 0 && out[at - 1] == '/' ? "" : "/", rel[i]);
  return out;
}

/** One event, under the view's lock; cheap (a path copied), and never waits: a full buffer drops it. */
static void audit(struct view *v, uint8_t op, const struct node *node, const char *extra, const struct node *node2, const char *extra2, uint64_t bytes, int err, const char *rule) {
  // The app's own checks (its canaries) are not the server's doing. Reads and writes never come from them.
  if (!recorded(node) || (op != AUDIT_WRITE && op != AUDIT_READ && by_app(caller))) return;
  if (v->nevents >= AUDIT_MAX_EVENTS) {
    v->dropped++;
    return;
  }
  if (v->nevents == v->capevents) {
    size_t cap = v->capevents ? v->capevents * 2 : 256;
    struct audit_event *grown = realloc(v->events, cap * sizeof *grown);
    if (!grown) {
      v->dropped++;
      return;
    }
    v->events = grown;
    v->capevents = cap;
  }
  v->events[v->nevents++] = (struct audit_event){ op, err, now_ms(), bytes, 0, node_path(node, extra), node2 ? node_path(node2, extra2) : NULL, rule, NULL, 0 };
}

/**
 * Before the server's first change of a file that was there before it (a write, a truncation, a
 * removal, a rename over it): its content, for the person's diff ("Changes by this server"). Small
 * text-sized files only (AUDIT_KEEP_FILE), read through the view's own descriptor of the checked
 * inode; once per file. A server's own new file has nothing to keep.
 */
static void audit_keep(struct view *v, struct node *node) {
  if (!recorded(node) || node->audit_kept || node->type != S_IFREG || !(node->grant->flags & ENTRY_WRITABLE)) return;
  node->audit_kept = true;
  if (v->kept_pending >= AUDIT_KEEP_PENDING || v->nevents >= AUDIT_MAX_EVENTS) return;
  int fd = reopen(node, O_RDONLY);
  if (fd < 0) return;
  struct stat st;
  uint8_t *data = NULL;
  ssize_t n = -1;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= AUDIT_KEEP_FILE && (data = malloc((size_t)st.st_size + 1))) n = pread(fd, data, (size_t)st.st_size, 0);
  close(fd);
  if (n < 0) {
    free(data);
    return;
  }
  audit(v, AUDIT_BEFORE, node, NULL, NULL, NULL, (uint64_t)n, 0, NULL);
  struct audit_event *e = v->nevents ? &v->events[v->nevents - 1] : NULL;
  if (!e || e->op != AUDIT_BEFORE || e->data) {
    free(data);
    return;
  }
  e->data = data;
  e->ndata = (uint32_t)n;
  v->kept_pending += (size_t)n;
}

/** Why `err` refused a change at (node, extra): the rule, in the record's words. */
static const char *refusal_rule(struct view *v, const struct node *node, const char *extra, int err) {
  if (err == -ENOENT) return "its grant was revoked";
  if (err == -EBUSY) return "a protected path or a mount point lies there";
  if (!(node->grant->flags & ENTRY_WRITABLE)) return "read-only grant";
  if (err == -EROFS && (node->sticky || guard_of(v, node, extra) == GUARD_PROTECTED)) return "protected name";
  return "refused";
}

/** A change refused in a recorded grant: the record says which rule refused it. */
static void audit_refused(struct view *v, uint8_t op, const struct node *node, const char *extra, int err) {
  if (err == -EINVAL || !recorded(node)) return;
  audit(v, op, node, extra, NULL, NULL, 0, -err, refusal_rule(v, node, extra, err));
}

/** Bytes written or read: summed per file and reported once per AUDIT_FLUSH_MS, never one event per request. */
static void audit_io(struct view *v, struct node *node, bool write, uint64_t bytes) {
  if (!recorded(node)) return;
  if (write) node->audit_written += bytes;
  else {
    node->audit_read += bytes;
    node->audit_reads++;
  }
  if (node->audit_dirty) return;
  if (v->ndirty == v->capdirty) {
    size_t cap = v->capdirty ? v->capdirty * 2 : 64;
    struct node **grown = realloc(v->dirty, cap * sizeof *grown);
    if (!grown) return;
    v->dirty = grown;
    v->capdirty = cap;
  }
  node->audit_dirty = true;
  v->dirty[v->ndirty++] = node;
}

/** A file's summed writes and reads become events (at a report, or when its node is freed). */
static void audit_settle(struct view *v, struct node *node) {
  node->audit_dirty = false;
  if (node->audit_written) audit(v, AUDIT_WRITE, node, NULL, NULL, NULL, node->audit_written, 0, NULL);
  if (node->audit_reads) {
    audit(v, AUDIT_READ, node, NULL, NULL, NULL, node->audit_read, 0, NULL);
    if (v->nevents && v->events[v->nevents - 1].op == AUDIT_READ) v->events[v->nevents - 1].count = node->audit_reads;
  }
  node->audit_written = node->audit_read = 0;
  node->audit_reads = 0;
}

/** Settles one file now (before it is renamed or removed: its writes are told under the name they were made by). */
static void audit_settle_now(struct view *v, struct node *node) {
  if (!node || !node->audit_dirty) return;
  audit_settle(v, node);
  for (size_t i = 0; i < v->ndirty; i++) {
    if (v->dirty[i] == node) {
      v->dirty[i] = v->dirty[--v->ndirty];
      break;
    }
  }
}

static void put(uint8_t **at, const void *data, size_t len) {
  memcpy(*at, data, len);
  *at += len;
}

static void put_str(uint8_t **at, const char *text) {
  uint32_t len = text ? (uint32_t)strlen(text) : 0;
  put(at, &len, 4);
  if (len) put(at, text, len);
}

/** Every AUDIT_FLUSH_MS: the events and summed I/O since the last report go to the app in one frame (AUDIT). */
static void *audit_loop(void *arg) {
  struct view *v = arg;
  for (;;) {
    struct timespec pause = { 0, AUDIT_FLUSH_MS * 1000000L };
    nanosleep(&pause, NULL);
    pthread_mutex_lock(&v->lock);
    for (size_t i = 0; i < v->ndirty; i++) audit_settle(v, v->dirty[i]);
    v->ndirty = 0;
    struct audit_event *events = v->events;
    size_t n = v->nevents;
    uint64_t dropped = v->dropped;
    v->events = NULL;
    v->nevents = v->capevents = 0;
    v->dropped = 0;
    v->kept_pending = 0;
    pthread_mutex_unlock(&v->lock);
    if (n == 0 && dropped == 0) continue;
    size_t size = 12;
    for (size_t i = 0; i < n; i++) size += 1 + 4 + 8 + 8 + 4 + 16 + (events[i].path ? strlen(events[i].path) : 0) + (events[i].path2 ? strlen(events[i].path2) : 0) + (events[i].rule ? strlen(events[i].rule) : 0) + events[i].ndata;
    uint8_t *frame = malloc(size);
    if (frame) {
      uint8_t *at = frame;
      uint32_t count = (uint32_t)n;
      put(&at, &count, 4);
      put(&at, &dropped, 8);
      for (size_t i = 0; i < n; i++) {
        const struct audit_event *e = &events[i];
        put(&at, &e->op, 1);
        put(&at, &e->err, 4);
        put(&at, &e->at_ms, 8);
        put(&at, &e->bytes, 8);
        put(&at, &e->count, 4);
        put_str(&at, e->path);
        put_str(&at, e->path2);
        put_str(&at, e->rule);
        put(&at, &e->ndata, 4);
        if (e->ndata) put(&at, e->data, e->ndata);
      }
      control_send(v->control, FRAME_AUDIT, frame, (uint32_t)(at - frame));
      free(frame);
    }
    for (size_t i = 0; i < n; i++) {
      free(events[i].path);
      free(events[i].path2);
      free(events[i].data);
    }
    free(events);
  }
  return NULL;
}

/* ---- Handles ---- */

static uint64_t handle_add(struct view *v, int fd, struct node *node, bool dir) {
  size_t slot = 0;
  while (slot < v->nhandles && v->handles[slot].used) slot++;
  if (slot == v->nhandles) {
    size_t more = v->nhandles ? v->nhandles * 2 : 64;
    struct handle *grown = realloc(v->handles, more * sizeof *grown);
    if (!grown) fail("out of memory");
    for (size_t i = v->nhandles; i < more; i++) grown[i] = (struct handle){ .used = false, .fd = -1 };
    v->handles = grown;
    v->nhandles = more;
  }
  v->handles[slot] = (struct handle){ .used = true, .fd = fd, .node = node, .dir = dir };
  node->lookups++;  // a handle keeps its node (and so its path) known until it is released
  return slot + 1;
}

static struct handle *handle_get(struct view *v, uint64_t fh) {
  if (fh == 0 || fh > v->nhandles || !v->handles[fh - 1].used) return NULL;
  return &v->handles[fh - 1];
}

static void handle_free(struct view *v, struct handle *h) {
  if (h->fd >= 0) close(h->fd);
  for (size_t i = 0; i < h->nsnapshot; i++) free(h->snapshot[i].name);
  free(h->snapshot);
  struct node *node = h->node;
  *h = (struct handle){ .used = false, .fd = -1 };
  nodes_forget(v->nodes, node, 1);
}

/**
 * A descriptor of a file for a read or a write by node: files are opened without a round trip to
 * this process (the kernel's no_open), so each read or write finds its file here, opened anew
 * (checked to be that inode) or kept from the last few.
 */
static int cached_fd(struct view *v, struct node *node, int mode) {
  for (size_t i = 0; i < v->ncached; i++) {
    if (v->cached[i].node == node && v->cached[i].mode == mode) {
      int fd = v->cached[i].fd;
      // Most recent last.
      memmove(&v->cached[i], &v->cached[i + 1], (v->ncached - i - 1) * sizeof v->cached[0]);
      v->cached[v->ncached - 1].node = node;
      v->cached[v->ncached - 1].fd = fd;
      v->cached[v->ncached - 1].mode = mode;
      return fd;
    }
  }
  int fd = reopen(node, mode);
  if (fd < 0) return fd;
  if (v->ncached == CACHED_FILES) {
    close(v->cached[0].fd);
    memmove(&v->cached[0], &v->cached[1], (CACHED_FILES - 1) * sizeof v->cached[0]);
    v->ncached--;
  }
  v->cached[v->ncached].node = node;
  v->cached[v->ncached].fd = fd;
  v->cached[v->ncached].mode = mode;
  v->ncached++;
  return fd;
}

/** Closes the cached descriptors of a node (it is freed, or its grant was revoked). */
static void uncache(struct view *v, const struct node *node) {
  for (size_t i = 0; i < v->ncached;) {
    if (v->cached[i].node == node || (node == NULL && v->cached[i].node->grant && !v->cached[i].node->grant->alive)) {
      close(v->cached[i].fd);
      memmove(&v->cached[i], &v->cached[i + 1], (v->ncached - i - 1) * sizeof v->cached[0]);
      v->ncached--;
    } else {
      i++;
    }
  }
}

/** A node about to be freed: its watch and its cached descriptors go with it. */
static void node_released(struct node *node, void *arg) {
  struct view *v = arg;
  uncache(v, node);
  // Its summed I/O is reported now, while it can still be spelled; it leaves the list of files to report.
  audit_settle_now(v, node);
  if (node->wd < 0) return;
  for (size_t i = 0; i < v->nwatched; i++) {
    if (v->watched[i] == node) {
      v->watched[i] = v->watched[--v->nwatched];
      break;
    }
  }
  // Another node may watch the same inode (one folder in two grants): its watch stays.
  bool shared = false;
  for (size_t i = 0; i < v->nwatched && !shared; i++) shared = v->watched[i]->wd == node->wd;
  if (!shared) inotify_rm_watch(v->inotify, node->wd);
}

/** An open file's grant still stands: a revoke cuts what was opened before it. */
static int handle_live(struct handle *h) {
  if (!h) return -EBADF;
  if (!is_synthetic(h->node) && !h->node->grant->alive) return -EACCES;
  return 0;
}

/* ---- Requests ---- */

struct request {
  struct fuse_in_header *in;
  const uint8_t *arg;
  size_t arglen;
};

/** The NUL-terminated name at `*at` within the request, advancing past it; NULL when malformed. */
static const char *take_name(const struct request *r, size_t *at) {
  if (*at >= r->arglen) return NULL;
  const char *start = (const char *)r->arg + *at;
  const char *nul = memchr(start, '\0', r->arglen - *at);
  if (!nul) return NULL;
  *at += (size_t)(nul - start) + 1;
  return start;
}

static struct node *node_of(struct view *v, const struct request *r) { return nodes_get(v->nodes, r->in->nodeid); }

static void op_init(struct view *v, const struct request *r) {
  const struct fuse_init_in *in = (const void *)r->arg;
  if (r->arglen < offsetof(struct fuse_init_in, flags) + sizeof in->flags || in->major != 7) return reply_error(v, r->in->unique, EPROTO);
  // No writeback cache: a write is decided (and fails: a full /tmp, a grant made read-only or revoked)
  // when the server makes it, not when the kernel flushes it later, where nobody would hear of it.
  // No atomic O_TRUNC: files are opened without asking (op_open), so a truncation must come as a
  // change of size, where it is decided.
  uint32_t want = FUSE_ASYNC_READ | FUSE_BIG_WRITES | FUSE_AUTO_INVAL_DATA | FUSE_DO_READDIRPLUS | FUSE_READDIRPLUS_AUTO | FUSE_PARALLEL_DIROPS |
                  FUSE_MAX_PAGES | FUSE_CACHE_SYMLINKS | FUSE_NO_OPEN_SUPPORT;
  struct fuse_init_out out = { 0 };
  out.major = 7;
  out.minor = in->minor < FUSE_KERNEL_MINOR_VERSION ? in->minor : FUSE_KERNEL_MINOR_VERSION;
  out.max_readahead = in->max_readahead;
  out.flags = in->flags & want;
  out.max_background = 64;
  out.congestion_threshold = 48;
  out.max_write = MAX_WRITE;
  out.time_gran = 1;
  out.max_pages = MAX_WRITE / 4096;
  reply_ok(v, r->in->unique, &out, sizeof out);
}

static void op_lookup(struct view *v, const struct request *r) {
  struct node *parent = node_of(v, r);
  size_t at = 0;
  const char *name = take_name(r, &at);
  if (!parent || !name) return reply_error(v, r->in->unique, EINVAL);
  struct fuse_entry_out e;
  int err = lookup(v, parent, name, &e);
  if (err == -ENOENT && (is_synthetic(parent) || parent->grant->alive)) {
    // A negative entry: the kernel may remember for a while that the name is not there.
    memset(&e, 0, sizeof e);
    fill_entry(&e, 0, timeout_in(parent), 0);
    return reply_ok(v, r->in->unique, &e, sizeof e);
  }
  if (err) return reply_error(v, r->in->unique, -err);
  reply_ok(v, r->in->unique, &e, sizeof e);
}

static void op_forget(struct view *v, const struct request *r) {
  const struct fuse_forget_in *in = (const void *)r->arg;
  struct node *node = node_of(v, r);
  if (node && r->arglen >= sizeof *in) nodes_forget(v->nodes, node, in->nlookup);
}

static void op_batch_forget(struct view *v, const struct request *r) {
  const struct fuse_batch_forget_in *in = (const void *)r->arg;
  if (r->arglen < sizeof *in) return;
  const struct fuse_forget_one *one = (const void *)(in + 1);
  size_t count = (r->arglen - sizeof *in) / sizeof *one;
  if (in->count < count) count = in->count;
  for (size_t i = 0; i < count; i++) {
    struct node *node = nodes_get(v->nodes, one[i].nodeid);
    if (node) nodes_forget(v->nodes, node, one[i].nlookup);
  }
}

static int attr_of(struct view *v, struct node *node, struct fuse_attr *attr) {
  if (is_synthetic(node)) {
    if (!node->tn && node->id != FUSE_ROOT_ID) return -ENOENT;
    synthetic_attr(v, node, attr);
    return 0;
  }
  // Known to the kernel from before a revoke (an open file, a working folder): cut, not merely gone.
  if (!node->grant->alive) return -EACCES;
  struct stat st;
  int err = stat_node(v, node, &st);
  if (err) return err;
  attr_of_stat(v, &st, st.st_ino, attr);
  return 0;
}

static void reply_attr(struct view *v, const struct request *r, struct node *node) {
  struct fuse_attr_out out = { 0 };
  int err = attr_of(v, node, &out.attr);
  if (err) return reply_error(v, r->in->unique, -err);
  out.attr_valid = attr_timeout(node);
  reply_ok(v, r->in->unique, &out, sizeof out);
}

static void op_getattr(struct view *v, const struct request *r) {
  struct node *node = node_of(v, r);
  if (!node) return reply_error(v, r->in->unique, ENOENT);
  const struct fuse_getattr_in *in = (const void *)r->arg;
  if (r->arglen >= sizeof *in && (in->getattr_flags & FUSE_GETATTR_FH)) {
    struct handle *h = handle_get(v, in->fh);
    if (h && h->fd >= 0 && !h->dir && handle_live(h) == 0) {
      struct stat st;
      struct fuse_attr_out out = { 0 };
      if (fstat(h->fd, &st) != 0) return reply_error(v, r->in->unique, errno);
      attr_of_stat(v, &st, st.st_ino, &out.attr);
      out.attr_valid = attr_timeout(h->node);
      return reply_ok(v, r->in->unique, &out, sizeof out);
    }
  }
  reply_attr(v, r, node);
}

static void op_setattr(struct view *v, const struct request *r) {
  struct node *node = node_of(v, r);
  const struct fuse_setattr_in *in = (const void *)r->arg;
  if (!node || r->arglen < sizeof *in) return reply_error(v, r->in->unique, EINVAL);
  int err = may_change(v, node);
  if (err) {
    if (in->valid & (FATTR_SIZE | FATTR_MODE)) audit_refused(v, (in->valid & FATTR_SIZE) ? AUDIT_TRUNCATE : AUDIT_CHMOD, node, NULL, err);
    return reply_error(v, r->in->unique, -err);
  }
  struct handle *h = (in->valid & FATTR_FH) ? handle_get(v, in->fh) : NULL;
  if (h && (err = handle_live(h))) return reply_error(v, r->in->unique, -err);
  if (in->valid & (FATTR_UID | FATTR_GID)) {
    // Nobody but the app's user is mapped inside: a chown to anyone else is refused, as it would be there.
    if (((in->valid & FATTR_UID) && in->uid != 0) || ((in->valid & FATTR_GID) && in->gid != 0)) return reply_error(v, r->in->unique, EPERM);
  }
  if (in->valid & FATTR_SIZE) {
    int fd = h && h->fd >= 0 && !h->dir ? h->fd : -1;
    int own = -1;
    if (fd < 0) {
      if (node->type != S_IFREG) return reply_error(v, r->in->unique, node->type == S_IFDIR ? EISDIR : EINVAL);
      own = fd = reopen(node, O_WRONLY);
      if (fd < 0) return reply_error(v, r->in->unique, -fd);
    }
    audit_keep(v, node);
    int rc = ftruncate(fd, (off_t)in->size);
    int saved = errno;
    if (own >= 0) close(own);
    if (rc != 0) return reply_error(v, r->in->unique, saved);
  }
  if (in->valid & (FATTR_MODE | FATTR_ATIME | FATTR_MTIME | FATTR_ATIME_NOW | FATTR_MTIME_NOW)) {
    // A symlink has no mode of its own to change; its times it has (set without following it).
    int fd = node->fd >= 0 ? fcntl(node->fd, F_DUPFD_CLOEXEC, 3) : node->parent ? openat(node->parent->fd, node->name, O_PATH | O_NOFOLLOW | O_CLOEXEC) : -1;
    if (fd < 0) return reply_error(v, r->in->unique, ESTALE);
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_ino != node->ino) {
      close(fd);
      return reply_error(v, r->in->unique, ESTALE);
    }
    int rc = 0;
    if ((in->valid & FATTR_MODE) && !S_ISLNK(st.st_mode)) {
      // By the descriptor's /proc name: it is the checked inode itself (a folder or a file, never a link).
      char proc[64];
      snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
      rc = chmod(proc, in->mode & SETTABLE_MODE);
    } else if (in->valid & FATTR_MODE) {
      rc = -1;
      errno = EOPNOTSUPP;
    }
    if (rc == 0 && (in->valid & (FATTR_ATIME | FATTR_MTIME | FATTR_ATIME_NOW | FATTR_MTIME_NOW))) {
      struct timespec times[2] = { { .tv_nsec = UTIME_OMIT }, { .tv_nsec = UTIME_OMIT } };
      if (in->valid & FATTR_ATIME_NOW) times[0].tv_nsec = UTIME_NOW;
      else if (in->valid & FATTR_ATIME) times[0] = (struct timespec){ (time_t)in->atime, (long)in->atimensec };
      if (in->valid & FATTR_MTIME_NOW) times[1].tv_nsec = UTIME_NOW;
      else if (in->valid & FATTR_MTIME) times[1] = (struct timespec){ (time_t)in->mtime, (long)in->mtimensec };
      if (S_ISLNK(st.st_mode)) {
        // A link's own times, by its name in its folder, never followed (an O_PATH descriptor cannot set times).
        rc = node->parent ? utimensat(node->parent->fd, node->name, times, AT_SYMLINK_NOFOLLOW) : -1;
      } else {
        // By the descriptor's /proc name: the checked inode itself (a folder or a file, never a link).
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        rc = utimensat(AT_FDCWD, proc, times, 0);
      }
    }
    int saved = errno;
    close(fd);
    if (rc != 0) return reply_error(v, r->in->unique, saved);
  }
  if (in->valid & FATTR_SIZE) audit(v, AUDIT_TRUNCATE, node, NULL, NULL, NULL, in->size, 0, NULL);
  if (in->valid & FATTR_MODE) audit(v, AUDIT_CHMOD, node, NULL, NULL, NULL, in->mode & SETTABLE_MODE, 0, NULL);
  reply_attr(v, r, node);
}

static void op_readlink(struct view *v, const struct request *r) {
  struct node *node = node_of(v, r);
  if (!node) return reply_error(v, r->in->unique, ENOENT);
  if (is_synthetic(node)) {
    if (!node->tn || !node->tn->link) return reply_error(v, r->in->unique, EINVAL);
    return reply_ok(v, r->in->unique, node->tn->link, strlen(node->tn->link));
  }
  if (!node->grant->alive) return reply_error(v, r->in->unique, ENOENT);
  if (node->type != S_IFLNK || !node->parent) return reply_error(v, r->in->unique, EINVAL);
  char target[4096];
  ssize_t n = readlinkat(node->parent->fd, node->name, target, sizeof target);
  if (n < 0) return reply_error(v, r->in->unique, errno);
  reply_ok(v, r->in->unique, target, (size_t)n);
}

/** Replies with the entry of what was just made at (parent, name). */
static void reply_made(struct view *v, const struct request *r, struct node *parent, const char *name) {
  own_change(v, parent, name, IN_CREATE);
  struct fuse_entry_out e;
  int err = lookup(v, parent, name, &e);
  if (err) return reply_error(v, r->in->unique, -err);
  reply_ok(v, r->in->unique, &e, sizeof e);
}

static void op_mknod(struct view *v, const struct request *r) {
  struct node *parent = node_of(v, r);
  const struct fuse_mknod_in *in = (const void *)r->arg;
  size_t at = sizeof *in;
  const char *name = r->arglen >= sizeof *in ? take_name(r, &at) : NULL;
  if (!parent || !name) return reply_error(v, r->in->unique, EINVAL);
  int err = may_create(v, parent, name);
  if (err) {
    audit_refused(v, AUDIT_CREATE, parent, name, err);
    return reply_error(v, r->in->unique, -err);
  }
  mode_t type = in->mode & S_IFMT;
  int rc;
  if (type == S_IFREG) {
    int fd = openat(parent->fd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, in->mode & SETTABLE_MODE);
    rc = fd < 0 ? -1 : close(fd);
  } else if (type == S_IFIFO || type == S_IFSOCK) {
    rc = mknodat(parent->fd, name, type | (in->mode & SETTABLE_MODE), 0);
  } else {
    // Devices: a sandbox has no business making them.
    return reply_error(v, r->in->unique, EPERM);
  }
  if (rc != 0) return reply_error(v, r->in->unique, errno);
  audit(v, AUDIT_CREATE, parent, name, NULL, NULL, 0, 0, NULL);
  reply_made(v, r, parent, name);
}

static void op_mkdir(struct view *v, const struct request *r) {
  struct node *parent = node_of(v, r);
  const struct fuse_mkdir_in *in = (const void *)r->arg;
  size_t at = sizeof *in;
  const char *name = r->arglen >= sizeof *in ? take_name(r, &at) : NULL;
  if (!parent || !name) return reply_error(v, r->in->unique, EINVAL);
  int err = may_create(v, parent, name);
  if (err) {
    audit_refused(v, AUDIT_MKDIR, parent, name, err);
    return reply_error(v, r->in->unique, -err);
  }
  if (mkdirat(parent->fd, name, in->mode & SETTABLE_MODE) != 0) return reply_error(v, r->in->unique, errno);
  audit(v, AUDIT_MKDIR, parent, name, NULL, NULL, 0, 0, NULL);
  reply_made(v, r, parent, name);
}

static void op_symlink(struct view *v, const struct request *r) {
  struct node *parent = node_of(v, r);
  size_t at = 0;
  const char *name = take_name(r, &at);
  const char *target = name ? take_name(r, &at) : NULL;
  if (!parent || !target) return reply_error(v, r->in->unique, EINVAL);
  int err = may_create(v, parent, name);
  if (err) {
    audit_refused(v, AUDIT_SYMLINK, parent, name, err);
    return reply_error(v, r->in->unique, -err);
  }
  if (symlinkat(target, parent->fd, name) != 0) return reply_error(v, r->in->unique, errno);
  audit(v, AUDIT_SYMLINK, parent, name, NULL, NULL, 0, 0, NULL);
  reply_made(v, r, parent, name);
}

static void op_link(struct view *v, const struct request *r) {
  struct node *newparent = node_of(v, r);
  const struct fuse_link_in *in = (const void *)r->arg;
  size_t at = sizeof *in;
  const char *name = r->arglen >= sizeof *in ? take_name(r, &at) : NULL;
  struct node *old = name ? nodes_get(v->nodes, in->oldnodeid) : NULL;
  if (!newparent || !old) return reply_error(v, r->in->unique, EINVAL);
  if (is_synthetic(old) || is_synthetic(newparent) || old->grant != newparent->grant) return reply_error(v, r->in->unique, EXDEV);
  // A protected file linked elsewhere would be written by its other name.
  int err = may_change(v, old);
  if (!err) err = may_create(v, newparent, name);
  if (err) {
    audit_refused(v, AUDIT_LINK, newparent, name, err);
    return reply_error(v, r->in->unique, -err);
  }
  if (old->type != S_IFREG) return reply_error(v, r->in->unique, EPERM);
  int fd = reopen(old, O_PATH);
  if (fd < 0) return reply_error(v, r->in->unique, -fd);
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  int rc = linkat(AT_FDCWD, proc, newparent->fd, name, AT_SYMLINK_FOLLOW);
  int saved = errno;
  close(fd);
  if (rc != 0) return reply_error(v, r->in->unique, saved);
  audit(v, AUDIT_LINK, old, NULL, newparent, name, 0, 0, NULL);
  reply_made(v, r, newparent, name);
}

static void op_unlink(struct view *v, const struct request *r, bool dir) {
  struct node *parent = node_of(v, r);
  size_t at = 0;
  const char *name = take_name(r, &at);
  if (!parent || !name) return reply_error(v, r->in->unique, EINVAL);
  int err = may_remove(v, parent, name);
  if (err) {
    audit_refused(v, dir ? AUDIT_RMDIR : AUDIT_DELETE, parent, name, err);
    return reply_error(v, r->in->unique, -err);
  }
  audit_settle_now(v, nodes_by_name(v->nodes, parent, name));
  if (!dir) audit_keep(v, nodes_by_name(v->nodes, parent, name));
  if (unlinkat(parent->fd, name, dir ? AT_REMOVEDIR : 0) != 0) return reply_error(v, r->in->unique, errno);
  audit(v, dir ? AUDIT_RMDIR : AUDIT_DELETE, parent, name, NULL, NULL, 0, 0, NULL);
  own_change(v, parent, name, IN_DELETE);
  struct node *gone = nodes_by_name(v->nodes, parent, name);
  if (gone) nodes_unplace(v->nodes, gone);
  reply_ok(v, r->in->unique, NULL, 0);
}

static void op_rename(struct view *v, const struct request *r, bool two) {
  struct node *oldparent = node_of(v, r);
  uint64_t newdir;
  uint32_t flags = 0;
  size_t at;
  if (two) {
    const struct fuse_rename2_in *in = (const void *)r->arg;
    if (r->arglen < sizeof *in) return reply_error(v, r->in->unique, EINVAL);
    newdir = in->newdir;
    flags = in->flags;
    at = sizeof *in;
  } else {
    const struct fuse_rename_in *in = (const void *)r->arg;
    if (r->arglen < sizeof *in) return reply_error(v, r->in->unique, EINVAL);
    newdir = in->newdir;
    at = sizeof *in;
  }
  const char *oldname = take_name(r, &at);
  const char *newname = oldname ? take_name(r, &at) : NULL;
  struct node *newparent = nodes_get(v->nodes, newdir);
  if (!oldparent || !newparent || !newname) return reply_error(v, r->in->unique, EINVAL);
  if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE)) return reply_error(v, r->in->unique, EINVAL);
  if (!is_synthetic(oldparent) && !is_synthetic(newparent) && oldparent->grant != newparent->grant) return reply_error(v, r->in->unique, EXDEV);
  int err = may_remove(v, oldparent, oldname);
  if (!err) err = may_create(v, newparent, newname);
  if (!err && (flags & RENAME_EXCHANGE)) {
    err = may_remove(v, newparent, newname);
    if (!err) err = may_create(v, oldparent, oldname);
  }
  // Onto a name that exists: that name goes away; onto the way to a protected name: refused too.
  if (!err && !(flags & RENAME_NOREPLACE)) {
    err = may_remove(v, newparent, newname);
    if (err == -ENOENT) err = 0;
  }
  if (err) {
    audit_refused(v, AUDIT_RENAME, oldparent, oldname, err);
    return reply_error(v, r->in->unique, -err);
  }
  audit_settle_now(v, nodes_by_name(v->nodes, oldparent, oldname));
  audit_settle_now(v, nodes_by_name(v->nodes, newparent, newname));
  // A file renamed over another replaces it: the one replaced is kept as it was.
  if (!(flags & RENAME_NOREPLACE)) audit_keep(v, nodes_by_name(v->nodes, newparent, newname));
  if (syscall(SYS_renameat2, oldparent->fd, oldname, newparent->fd, newname, flags) != 0) return reply_error(v, r->in->unique, errno);
  audit(v, AUDIT_RENAME, oldparent, oldname, newparent, newname, 0, 0, NULL);
  own_change(v, oldparent, oldname, IN_MOVED_FROM | ((flags & RENAME_EXCHANGE) ? IN_MOVED_TO : 0));
  own_change(v, newparent, newname, IN_MOVED_TO | ((flags & RENAME_EXCHANGE) ? IN_MOVED_FROM : 0));
  struct node *moved = nodes_by_name(v->nodes, oldparent, oldname);
  struct node *other = nodes_by_name(v->nodes, newparent, newname);
  if (flags & RENAME_EXCHANGE) {
    if (other) nodes_unplace(v->nodes, other);
    if (moved) nodes_place(v->nodes, moved, newparent, newname);
    if (other) nodes_place(v->nodes, other, oldparent, oldname);
  } else {
    if (other) nodes_unplace(v->nodes, other);
    if (moved) nodes_place(v->nodes, moved, newparent, newname);
  }
  reply_ok(v, r->in->unique, NULL, 0);
}

static int open_flags(int flags) { return flags & ~(O_CREAT | O_EXCL | O_NOCTTY); }

static bool writes(int flags) { return (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC); }

static void reply_open(struct view *v, const struct request *r, uint64_t fh, bool keep) {
  struct fuse_open_out out = { .fh = fh, .open_flags = keep ? FOPEN_KEEP_CACHE : 0 };
  reply_ok(v, r->in->unique, &out, sizeof out);
}

static void op_open(struct view *v, const struct request *r) {
  struct node *node = node_of(v, r);
  const struct fuse_open_in *in = (const void *)r->arg;
  if (!node || r->arglen < sizeof *in) return reply_error(v, r->in->unique, EINVAL);
  if (is_synthetic(node)) {
    // An empty file the plan shows (a mount point for a file bwrap binds): read, it is empty.
    if (node->type != S_IFREG || !node->tn) return reply_error(v, r->in->unique, node->tn ? EISDIR : ENOENT);
    if (writes((int)in->flags)) return reply_error(v, r->in->unique, EROFS);
    return reply_open(v, r, handle_add(v, -1, node, false), true);
  }
  // No open round trip: the kernel opens files by itself from now on (no_open, with its page cache
  // kept), and each read or write is decided by node when it comes (op_read, op_write); a truncation
  // comes as a change of size (op_setattr). Half the requests of reading a file, gone.
  (void)in;
  reply_error(v, r->in->unique, ENOSYS);
}

static void op_create(struct view *v, const struct request *r) {
  struct node *parent = node_of(v, r);
  const struct fuse_create_in *in = (const void *)r->arg;
  size_t at = sizeof *in;
  const char *name = r->arglen >= sizeof *in ? take_name(r, &at) : NULL;
  if (!parent || !name) return reply_error(v, r->in->unique, EINVAL);
  int err = may_create(v, parent, name);
  // An existing name opened with O_CREAT is a write of that file: may_create refused only what it may not make.
  if (err) {
    audit_refused(v, AUDIT_CREATE, parent, name, err);
    return reply_error(v, r->in->unique, -err);
  }
  int flags = open_flags((int)in->flags) | O_CREAT | O_NOFOLLOW | O_CLOEXEC | ((int)in->flags & O_EXCL);
  int fd = openat(parent->fd, name, flags, in->mode & SETTABLE_MODE);
  if (fd < 0) return reply_error(v, r->in->unique, errno);
  struct {
    struct fuse_entry_out e;
    struct fuse_open_out o;
  } out;
  memset(&out, 0, sizeof out);
  err = lookup(v, parent, name, &out.e);
  if (err) {
    close(fd);
    return reply_error(v, r->in->unique, -err);
  }
  struct node *node = nodes_get(v->nodes, out.e.nodeid);
  struct stat st;
  if (!node || fstat(fd, &st) != 0 || st.st_ino != node->ino || node->sticky) {
    // sticky: an existing file, reached once by a protected name (a hard link), opened by another.
    bool sticky = node && node->sticky;
    close(fd);
    if (node) nodes_forget(v->nodes, node, 1);
    return reply_error(v, r->in->unique, sticky ? EROFS : ESTALE);
  }
  out.o.fh = handle_add(v, fd, node, false);
  // Its own new file: nothing of the person's to keep before it changes it.
  node->audit_kept = true;
  own_change(v, parent, name, IN_CREATE);
  // The kernel asks to create only a name it does not know (an existing file it opens by itself).
  audit(v, AUDIT_CREATE, parent, name, NULL, NULL, 0, 0, NULL);
  reply_ok(v, r->in->unique, &out, sizeof out);
}

/** Each serving thread's own: the data of a read, and of a folder's entries (replies are sent without the lock). */
static __thread uint8_t *read_buffer;
static __thread uint8_t *dir_out;

/**
 * A folder's read-ahead: the first time a file of a folder is read, its other small files the
 * kernel knows (a listing told it of them) are handed to its page cache (FUSE_NOTIFY_STORE). A
 * program reading one file of a folder mostly reads the rest (a search, a build, an index), and a
 * read that is already there costs no round trip to this process, which on a virtual machine is
 * most of a small file's cost. Bounded per folder; a listing alone reads nothing.
 *
 * Done by a thread of its own, never the one answering requests: a store waits for a page the
 * kernel may hold locked for a read that only that thread can answer.
 */
struct ahead_file {
  uint64_t id;
  dev_t dev;
  ino_t ino;
  char *name;
};

struct ahead_job {
  int dir;
  struct ahead_file *files;
  size_t nfiles;
  struct ahead_job *next;
};

static pthread_mutex_t ahead_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ahead_ready = PTHREAD_COND_INITIALIZER;
static struct ahead_job *ahead_queue;

/** Picks a folder's small files the kernel knows (under the view's lock) and queues them for the read-ahead thread. */
static void read_ahead(struct view *v, struct node *dir, const struct node *first) {
  if (!dir || dir->read_ahead || dir->fd < 0 || !dir->grant || !dir->grant->alive) return;
  dir->read_ahead = true;
  int list = openat(dir->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (list < 0) return;
  struct ahead_job *job = calloc(1, sizeof *job);
  if (!job) fail("out of memory");
  job->files = calloc(READ_AHEAD_FILES, sizeof *job->files);
  if (!job->files) fail("out of memory");
  char buf[32768];
  for (long n; job->nfiles < READ_AHEAD_FILES && (n = syscall(SYS_getdents64, list, buf, sizeof buf)) > 0;) {
    for (long at = 0; at < n && job->nfiles < READ_AHEAD_FILES;) {
      struct dirent64 *d = (struct dirent64 *)(buf + at);
      at += d->d_reclen;
      if (d->d_type != DT_REG) continue;
      struct node *node = nodes_by_name(v->nodes, dir, d->d_name);
      // Only files the kernel knows (a store for one it does not is refused), other than the one being read.
      if (!node || node == first || node->lookups == 0 || node->type != S_IFREG) continue;
      job->files[job->nfiles++] = (struct ahead_file){ node->id, node->dev, node->ino, strdup(d->d_name) };
    }
  }
  close(list);
  job->dir = job->nfiles ? fcntl(dir->fd, F_DUPFD_CLOEXEC, 3) : -1;
  if (job->dir < 0) {
    for (size_t i = 0; i < job->nfiles; i++) free(job->files[i].name);
    free(job->files);
    free(job);
    return;
  }
  pthread_mutex_lock(&ahead_lock);
  job->next = ahead_queue;
  ahead_queue = job;
  pthread_cond_signal(&ahead_ready);
  pthread_mutex_unlock(&ahead_lock);
}

/** The read-ahead thread: reads each queued file (the same inode, never through a symlink) and hands it to the kernel. */
static void *read_ahead_loop(void *arg) {
  struct view *v = arg;
  uint8_t *data = malloc(READ_AHEAD_FILE);
  if (!data) fail("out of memory");
  for (;;) {
    pthread_mutex_lock(&ahead_lock);
    while (!ahead_queue) pthread_cond_wait(&ahead_ready, &ahead_lock);
    struct ahead_job *job = ahead_queue;
    ahead_queue = job->next;
    pthread_mutex_unlock(&ahead_lock);
    size_t bytes = 0;
    for (size_t i = 0; i < job->nfiles; i++) {
      struct ahead_file *file = &job->files[i];
      int fd = bytes < READ_AHEAD_BYTES ? openat(job->dir, file->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) : -1;
      struct stat st;
      ssize_t got = -1;
      if (fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == file->dev && st.st_ino == file->ino && st.st_size > 0 && st.st_size <= (off_t)READ_AHEAD_FILE)
        got = pread(fd, data, (size_t)st.st_size, 0);
      if (fd >= 0) close(fd);
      free(file->name);
      if (got <= 0) continue;
      struct fuse_notify_store_out out = { .nodeid = file->id, .offset = 0, .size = (uint32_t)got };
      struct fuse_out_header head = { .len = (uint32_t)(sizeof head + sizeof out + (size_t)got), .error = FUSE_NOTIFY_STORE, .unique = 0 };
      struct iovec iov[3] = { { &head, sizeof head }, { &out, sizeof out }, { data, (size_t)got } };
      // Refused (ENOENT: the kernel forgot the file meanwhile) costs nothing: it is read when asked.
      if (writev(v->fuse, iov, 3) > 0) bytes += (size_t)got;
    }
    close(job->dir);
    free(job->files);
    free(job);
  }
  return NULL;
}

static void op_read(struct view *v, const struct request *r) {
  const struct fuse_read_in *in = (const void *)r->arg;
  if (r->arglen < sizeof *in) return reply_error(v, r->in->unique, EINVAL);
  int fd;
  if (in->fh == 0) {
    // Opened by the kernel alone (no_open): read by node.
    struct node *node = node_of(v, r);
    if (!node) return reply_error(v, r->in->unique, EBADF);
    if (is_synthetic(node)) return reply_ok(v, r->in->unique, NULL, 0);
    if (!node->grant->alive) return reply_error(v, r->in->unique, EACCES);
    fd = cached_fd(v, node, O_RDONLY);
    if (fd < 0) return reply_error(v, r->in->unique, -fd);
  } else {
    struct handle *h = handle_get(v, in->fh);
    int err = handle_live(h);
    if (err) return reply_error(v, r->in->unique, -err);
    if (h->fd < 0) return reply_ok(v, r->in->unique, NULL, 0);
    fd = h->fd;
  }
  size_t size = in->size > MAX_WRITE ? MAX_WRITE : in->size;
  ssize_t n = pread(fd, read_buffer, size, (off_t)in->offset);
  if (n < 0) return reply_error(v, r->in->unique, errno);
  audit_io(v, in->fh ? handle_get(v, in->fh)->node : node_of(v, r), false, (uint64_t)n);
  reply_ok(v, r->in->unique, read_buffer, (size_t)n);
  // After the answer: the reader goes on with this file while the rest of its folder is handed over.
  struct node *node = in->fh ? handle_get(v, in->fh)->node : node_of(v, r);
  if (in->offset == 0 && node && node->grant) read_ahead(v, node->parent, node);
}

static void op_write(struct view *v, const struct request *r) {
  const struct fuse_write_in *in = (const void *)r->arg;
  if (r->arglen < sizeof *in || r->arglen - sizeof *in < in->size) return reply_error(v, r->in->unique, EINVAL);
  int fd;
  if (in->fh == 0) {
    struct node *node = node_of(v, r);
    if (!node) return reply_error(v, r->in->unique, EBADF);
    if (!is_synthetic(node) && !node->grant->alive) return reply_error(v, r->in->unique, EACCES);
    int err = may_change(v, node);
    if (err) {
      audit_refused(v, AUDIT_WRITE, node, NULL, err);
      return reply_error(v, r->in->unique, -err);
    }
    fd = cached_fd(v, node, O_WRONLY);
    if (fd < 0) return reply_error(v, r->in->unique, -fd);
  } else {
    struct handle *h = handle_get(v, in->fh);
    int err = handle_live(h);
    if (!err) err = may_change(v, h->node);
    if (err) return reply_error(v, r->in->unique, -err);
    fd = h->fd;
  }
  struct node *written = in->fh ? handle_get(v, in->fh)->node : node_of(v, r);
  audit_keep(v, written);
  written->wrote_at = now_ns();
  ssize_t n = pwrite(fd, (const uint8_t *)(in + 1), in->size, (off_t)in->offset);
  if (n < 0) return reply_error(v, r->in->unique, errno);
  audit_io(v, written, true, (uint64_t)n);
  struct fuse_write_out out = { .size = (uint32_t)n };
  reply_ok(v, r->in->unique, &out, sizeof out);
}

static void op_release(struct view *v, const struct request *r) {
  const struct fuse_release_in *in = (const void *)r->arg;
  struct handle *h = r->arglen >= sizeof *in ? handle_get(v, in->fh) : NULL;
  if (h) handle_free(v, h);
  reply_ok(v, r->in->unique, NULL, 0);
}

static void op_fsync(struct view *v, const struct request *r) {
  const struct fuse_fsync_in *in = (const void *)r->arg;
  if (r->arglen < sizeof *in) return reply_error(v, r->in->unique, EINVAL);
  int fd = -1;
  if (in->fh == 0) {
    struct node *node = node_of(v, r);
    if (node && !is_synthetic(node)) {
      if (!node->grant->alive) return reply_error(v, r->in->unique, EACCES);
      fd = cached_fd(v, node, O_RDONLY);
      if (fd < 0) return reply_error(v, r->in->unique, -fd);
    }
  } else {
    struct handle *h = handle_get(v, in->fh);
    int err = handle_live(h);
    if (err) return reply_error(v, r->in->unique, -err);
    fd = h->fd;
  }
  if (fd >= 0 && ((in->fsync_flags & 1) ? fdatasync(fd) : fsync(fd)) != 0) return reply_error(v, r->in->unique, errno);
  reply_ok(v, r->in->unique, NULL, 0);
}

static void op_fallocate(struct view *v, const struct request *r) {
  const struct fuse_fallocate_in *in = (const void *)r->arg;
  if (r->arglen < sizeof *in) return reply_error(v, r->in->unique, EINVAL);
  struct handle *h = in->fh ? handle_get(v, in->fh) : NULL;
  struct node *node = h ? h->node : node_of(v, r);
  int err = h ? handle_live(h) : node ? 0 : -EBADF;
  if (!err && !is_synthetic(node) && !node->grant->alive) err = -EACCES;
  if (!err) err = may_change(v, node);
  if (err) return reply_error(v, r->in->unique, -err);
  int fd = h ? h->fd : cached_fd(v, node, O_WRONLY);
  if (fd < 0) return reply_error(v, r->in->unique, -fd);
  if (fallocate(fd, (int)in->mode, (off_t)in->offset, (off_t)in->length) != 0) return reply_error(v, r->in->unique, errno);
  reply_ok(v, r->in->unique, NULL, 0);
}

static void op_lseek(struct view *v, const struct request *r) {
  const struct fuse_lseek_in *in = (const void *)r->arg;
  if (r->arglen < sizeof *in) return reply_error(v, r->in->unique, EINVAL);
  struct handle *h = in->fh ? handle_get(v, in->fh) : NULL;
  struct node *node = h ? h->node : node_of(v, r);
  int err = h ? handle_live(h) : node && !is_synthetic(node) ? (node->grant->alive ? 0 : -EACCES) : -EBADF;
  if (err) return reply_error(v, r->in->unique, -err);
  int fd = h ? h->fd : cached_fd(v, node, O_RDONLY);
  if (fd < 0) return reply_error(v, r->in->unique, -fd);
  off_t at = lseek(fd, (off_t)in->offset, (int)in->whence);
  if (at < 0) return reply_error(v, r->in->unique, errno);
  struct fuse_lseek_out out = { .offset = (uint64_t)at };
  reply_ok(v, r->in->unique, &out, sizeof out);
}

static void op_statfs(struct view *v, const struct request *r) {
  struct node *node = node_of(v, r);
  struct fuse_statfs_out out = { 0 };
  struct statfs st;
  if (node && !is_synthetic(node) && node->grant->alive && fstatfs(node->grant->fd, &st) == 0) {
    out.st.blocks = (uint64_t)st.f_blocks;
    out.st.bfree = (uint64_t)st.f_bfree;
    out.st.bavail = (uint64_t)st.f_bavail;
    out.st.files = (uint64_t)st.f_files;
    out.st.ffree = (uint64_t)st.f_ffree;
    out.st.bsize = (uint32_t)st.f_bsize;
    out.st.frsize = (uint32_t)st.f_frsize;
  } else {
    out.st.bsize = out.st.frsize = 4096;
  }
  out.st.namelen = 255;
  reply_ok(v, r->in->unique, &out, sizeof out);
}

/* ---- Folders ---- */

static int cmp_entry(const void *a, const void *b) { return strcmp(((const struct snapshot_entry *)a)->name, ((const struct snapshot_entry *)b)->name); }

static void snapshot_add(struct handle *h, const char *name, uint64_t ino, unsigned type) {
  struct snapshot_entry *more = realloc(h->snapshot, (h->nsnapshot + 1) * sizeof *more);
  if (!more) fail("out of memory");
  h->snapshot = more;
  h->snapshot[h->nsnapshot++] = (struct snapshot_entry){ strdup(name), ino, type };
}

static unsigned plan_type(const struct tnode *tn) { return tn->kind == ENTRY_LINK ? DT_LNK : tn->kind == ENTRY_FILE ? DT_REG : DT_DIR; }

/**
 * A folder that shows entries of the plan: a synthetic one (only those), or a real one with a mask
 * or a nested grant inside (its own entries, each plan entry in place of the real one of its name).
 */
static int snapshot_folder(struct view *v, struct handle *h, struct tnode *plan) {
  if (h->fd >= 0) {
    char buf[32768];
    if (lseek(h->fd, 0, SEEK_SET) < 0) return -errno;
    for (;;) {
      long n = syscall(SYS_getdents64, h->fd, buf, sizeof buf);
      if (n < 0) return -errno;
      if (n == 0) break;
      for (long at = 0; at < n;) {
        struct dirent64 *d = (struct dirent64 *)(buf + at);
        at += d->d_reclen;
        if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) continue;
        if (plan && tnode_child(plan, d->d_name)) continue;
        snapshot_add(h, d->d_name, d->d_ino, d->d_type);
      }
    }
  }
  for (size_t i = 0; plan && i < plan->nkids; i++) snapshot_add(h, plan->kids[i]->name, 0, plan_type(plan->kids[i]));
  qsort(h->snapshot, h->nsnapshot, sizeof *h->snapshot, cmp_entry);
  (void)v;
  return 0;
}

/**
 * Opens a folder for reading its entries: a synthetic one has only the plan's (a snapshot); a real
 * one with a mask or a nested grant inside, its own merged with the plan's (a snapshot); any other
 * is read as it is, from its descriptor. Returns 0 or -errno; `h` is filled (not in the table).
 */
static int dir_open(struct view *v, struct node *node, struct handle *h) {
  *h = (struct handle){ .used = true, .fd = -1, .node = node, .dir = true };
  if (is_synthetic(node)) {
    if ((!node->tn && node->id != FUSE_ROOT_ID) || node->type != S_IFDIR) return -ENOENT;
    return snapshot_folder(v, h, node->tn);
  }
  if (!node->grant->alive) return -ENOENT;
  int fd = reopen(node, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return fd;
  h->fd = fd;
  struct tnode *plan = overlay_at(v, node, NULL);
  if (plan && plan->nkids > 0) return snapshot_folder(v, h, plan);
  return 0;
}

static void dir_close(struct handle *h) {
  if (h->fd >= 0) close(h->fd);
  for (size_t i = 0; i < h->nsnapshot; i++) free(h->snapshot[i].name);
  free(h->snapshot);
  *h = (struct handle){ .used = false, .fd = -1 };
}

static void op_opendir(struct view *v, const struct request *r) {
  // No open round trip for folders either: the kernel opens them by itself and keeps what it read
  // of them (no_opendir implies a cached folder), and each read of entries is by node (op_readdir).
  reply_error(v, r->in->unique, ENOSYS);
}

/** Appends one entry to a READDIR(PLUS) reply; false when it does not fit. */
static bool add_dirent(uint8_t *out, size_t *used, size_t size, bool plus, const char *name, uint64_t ino, unsigned type, uint64_t off, const struct fuse_entry_out *e) {
  size_t namelen = strlen(name);
  size_t base = plus ? FUSE_NAME_OFFSET_DIRENTPLUS : FUSE_NAME_OFFSET;
  size_t len = plus ? FUSE_DIRENTPLUS_SIZE(&(struct fuse_direntplus){ .dirent.namelen = (uint32_t)namelen }) : FUSE_DIRENT_SIZE(&(struct fuse_dirent){ .namelen = (uint32_t)namelen });
  if (*used + len > size) return false;
  uint8_t *at = out + *used;
  memset(at, 0, len);
  struct fuse_dirent *d;
  if (plus) {
    struct fuse_direntplus *dp = (struct fuse_direntplus *)at;
    if (e) dp->entry_out = *e;
    d = &dp->dirent;
  } else {
    d = (struct fuse_dirent *)at;
  }
  d->ino = ino;
  d->off = off;
  d->namelen = (uint32_t)namelen;
  d->type = type;
  memcpy(at + base, name, namelen);
  *used += len;
  return true;
}


/** One entry of READDIRPLUS: looked up (counted) only if it fits, so that nothing is counted twice. */
static bool add_plus(struct view *v, struct node *dir, uint8_t *out, size_t *used, size_t size, const char *name, uint64_t ino, unsigned type, uint64_t off) {
  size_t need = FUSE_DIRENTPLUS_SIZE(&(struct fuse_direntplus){ .dirent.namelen = (uint32_t)strlen(name) });
  if (*used + need > size) return false;
  struct fuse_entry_out e;
  memset(&e, 0, sizeof e);
  if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0 && lookup(v, dir, name, &e) == 0) {
    ino = e.attr.ino;
    type = (e.attr.mode & S_IFMT) >> 12;
  } else {
    memset(&e, 0, sizeof e);
  }
  return add_dirent(out, used, size, true, name, ino, type, off, &e);
}

static void op_readdir(struct view *v, const struct request *r, bool plus) {
  const struct fuse_read_in *in = (const void *)r->arg;
  if (r->arglen < sizeof *in) return reply_error(v, r->in->unique, EINVAL);
  struct handle own;
  struct handle *h;
  if (in->fh == 0) {
    // Opened by the kernel alone (no_opendir): read by node, from a folder opened for this read.
    struct node *node = node_of(v, r);
    if (!node) return reply_error(v, r->in->unique, EBADF);
    int err = dir_open(v, node, &own);
    if (err) {
      dir_close(&own);
      return reply_error(v, r->in->unique, -err);
    }
    h = &own;
  } else {
    h = handle_get(v, in->fh);
    int err = handle_live(h);
    if (!err && !h->dir) err = -ENOTDIR;
    if (err) return reply_error(v, r->in->unique, -err);
  }
  size_t size = in->size > MAX_WRITE ? MAX_WRITE : in->size;
  size_t used = 0;
  int err = 0;
  struct node *dir = h->node;
  if (h->snapshot || h->fd < 0) {
    // Offsets in a snapshot: 1 ".", 2 "..", then 3 + index.
    for (uint64_t off = in->offset; off < h->nsnapshot + 2; off++) {
      const char *name = off == 0 ? "." : off == 1 ? ".." : h->snapshot[off - 2].name;
      uint64_t ino = off < 2 ? dir->id : h->snapshot[off - 2].ino;
      unsigned type = off < 2 ? DT_DIR : h->snapshot[off - 2].type;
      bool fits = plus ? add_plus(v, dir, dir_out, &used, size, name, ino ? ino : 1, type, off + 1) : add_dirent(dir_out, &used, size, false, name, ino ? ino : 1, type, off + 1, NULL);
      if (!fits) break;
    }
  } else if (lseek(h->fd, (off_t)in->offset, SEEK_SET) < 0) {
    err = errno;
  } else {
    char buf[32768];
    for (bool full = false; !full && !err;) {
      long n = syscall(SYS_getdents64, h->fd, buf, size < sizeof buf ? size : sizeof buf);
      if (n < 0) err = errno;
      if (n <= 0) break;
      for (long at = 0; at < n;) {
        struct dirent64 *d = (struct dirent64 *)(buf + at);
        at += d->d_reclen;
        bool fits = plus ? add_plus(v, dir, dir_out, &used, size, d->d_name, d->d_ino, d->d_type, (uint64_t)d->d_off)
                         : add_dirent(dir_out, &used, size, false, d->d_name, d->d_ino, d->d_type, (uint64_t)d->d_off, NULL);
        if (!fits) {
          full = true;
          break;
        }
      }
    }
  }
  if (h == &own) dir_close(&own);
  if (err && used == 0) return reply_error(v, r->in->unique, err);
  reply_ok(v, r->in->unique, dir_out, used);
}

static void op_releasedir(struct view *v, const struct request *r) {
  const struct fuse_release_in *in = (const void *)r->arg;
  struct handle *h = r->arglen >= sizeof *in ? handle_get(v, in->fh) : NULL;
  if (h) handle_free(v, h);
  reply_ok(v, r->in->unique, NULL, 0);
}

/* ---- The loop ---- */

/** Requests by opcode, said at the end when MCP_ROOTS_VIEW_STATS is set (what a workload costs, for the benchmark). */
static uint64_t counts[64];

static void dispatch(struct view *v, const struct request *r) {
  caller = r->in->pid;
  counts[r->in->opcode & 63]++;
  switch (r->in->opcode) {
  case FUSE_INIT: return op_init(v, r);
  case FUSE_LOOKUP: return op_lookup(v, r);
  case FUSE_FORGET: return op_forget(v, r);
  case FUSE_BATCH_FORGET: return op_batch_forget(v, r);
  case FUSE_GETATTR: return op_getattr(v, r);
  case FUSE_SETATTR: return op_setattr(v, r);
  case FUSE_READLINK: return op_readlink(v, r);
  case FUSE_MKNOD: return op_mknod(v, r);
  case FUSE_MKDIR: return op_mkdir(v, r);
  case FUSE_SYMLINK: return op_symlink(v, r);
  case FUSE_LINK: return op_link(v, r);
  case FUSE_UNLINK: return op_unlink(v, r, false);
  case FUSE_RMDIR: return op_unlink(v, r, true);
  case FUSE_RENAME: return op_rename(v, r, false);
  case FUSE_RENAME2: return op_rename(v, r, true);
  case FUSE_OPEN: return op_open(v, r);
  case FUSE_CREATE: return op_create(v, r);
  case FUSE_READ: return op_read(v, r);
  case FUSE_WRITE: return op_write(v, r);
  case FUSE_RELEASE: return op_release(v, r);
  // Nothing to do at each close (no locks are kept here): ENOSYS tells the kernel to stop asking.
  case FUSE_FLUSH: return reply_error(v, r->in->unique, ENOSYS);
  case FUSE_FSYNC: return op_fsync(v, r);
  case FUSE_FSYNCDIR: return reply_ok(v, r->in->unique, NULL, 0);
  case FUSE_FALLOCATE: return op_fallocate(v, r);
  case FUSE_LSEEK: return op_lseek(v, r);
  case FUSE_STATFS: return op_statfs(v, r);
  case FUSE_OPENDIR: return op_opendir(v, r);
  case FUSE_READDIR: return op_readdir(v, r, false);
  case FUSE_READDIRPLUS: return op_readdir(v, r, true);
  case FUSE_RELEASEDIR: return op_releasedir(v, r);
  case FUSE_INTERRUPT: return;  // each request is answered quickly; nothing to stop
  case FUSE_DESTROY: return reply_ok(v, r->in->unique, NULL, 0);
  default: return reply_error(v, r->in->unique, ENOSYS);  // xattrs, locks (kept in the kernel), ioctl, poll
  }
}

struct view *view_new(int fuse_fd, int control_fd, struct table *initial) {
  struct view *v = calloc(1, sizeof *v);
  if (!v) fail("out of memory");
  v->fuse = fuse_fd;
  v->control = control_fd;
  pthread_mutex_init(&v->lock, NULL);
  pthread_mutex_init(&v->notes_lock, NULL);
  v->table = initial;
  v->nodes = nodes_new();
  nodes_on_release(v->nodes, node_released, v);
  v->inotify = getenv("MCP_ROOTS_VIEW_NO_WATCH") ? -1 : inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (v->inotify < 0) say("view: no inotify (%s): changes made outside show within a second", strerror(errno));
  v->next_id = FUSE_ROOT_ID;
  v->uid = getuid();
  v->gid = getgid();
  clock_gettime(CLOCK_REALTIME, &v->started);
  v->insize = MAX_WRITE + 4096;
  pthread_t ahead;
  if (pthread_create(&ahead, NULL, read_ahead_loop, v) != 0) fail("no read-ahead thread");
  app_pid = getppid();
  pthread_t reporter;
  if (pthread_create(&reporter, NULL, audit_loop, v) != 0) fail("no record thread");
  pthread_detach(reporter);
  pthread_detach(ahead);
  // The root of the sandbox: the plan's root, node 1.
  synthetic_node(v, initial->root);
  view_apply(v, NULL);
  return v;
}

static void say_counts(void) {
  if (!getenv("MCP_ROOTS_VIEW_STATS")) return;
  char line[1024] = "";
  size_t used = 0;
  for (int op = 0; op < 64; op++)
    if (counts[op]) used += (size_t)snprintf(line + used, sizeof line - used, " %d:%llu", op, (unsigned long long)counts[op]);
  say("view: requests by opcode:%s", line);
}

/** How many threads answer requests: a second one overlaps the wake-ups of round trips (git's parallel lstat). */
#define SERVING_THREADS 2

/** One serving thread: reads requests and answers them, until the kernel ends the connection (0) or reading fails (-1). */
static int serve_loop(struct view *v) {
  uint8_t *in = malloc(v->insize);
  read_buffer = malloc(MAX_WRITE);
  dir_out = malloc(MAX_WRITE);
  if (!in || !read_buffer || !dir_out) fail("out of memory");
  for (;;) {
    ssize_t n = read(v->fuse, in, v->insize);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == ENOENT) continue;
      if (errno == ENODEV) return 0;
      say("view: the kernel's requests could not be read: %s", strerror(errno));
      return -1;
    }
    if ((size_t)n < sizeof(struct fuse_in_header)) continue;
    struct request r = { (struct fuse_in_header *)in, in + sizeof(struct fuse_in_header), (size_t)n - sizeof(struct fuse_in_header) };
    if (r.in->len != (uint32_t)n) continue;
    pthread_mutex_lock(&v->lock);
    dispatch(v, &r);
    pthread_mutex_unlock(&v->lock);
  }
}

static void *serve_thread(void *arg) {
  serve_loop(arg);
  return NULL;
}

bool view_serve(struct view *v) {
  for (int i = 1; i < SERVING_THREADS; i++) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, serve_thread, v) != 0) fail("no serving thread");
    pthread_detach(thread);
  }
  int rc = serve_loop(v);
  if (rc == 0) say_counts();
  return rc == 0;
}

void view_lock(struct view *v) { pthread_mutex_lock(&v->lock); }
void view_unlock(struct view *v) { pthread_mutex_unlock(&v->lock); }
struct table *view_table(struct view *v) { return v->table; }

/* ---- A new table ---- */

static void note(struct view *v, int kind, uint64_t id, const char *name) {
  struct note *more = realloc(v->notes, (v->nnotes + 1) * sizeof *more);
  if (!more) fail("out of memory");
  v->notes = more;
  v->notes[v->nnotes++] = (struct note){ kind, id, name ? strdup(name) : NULL };
}

/** The view's node for a plan path's folder, if the kernel knows one (else it has nothing cached there). */
static struct node *known_node(struct view *v, const struct tnode *tn) {
  if (!tn->parent) return nodes_get(v->nodes, FUSE_ROOT_ID);
  if (tn->node) return tn->node;
  if (tn->kind == ENTRY_BACKING) return tn->grant->root;
  struct node *parent = known_node(v, tn->parent);
  if (!parent || is_synthetic(parent)) return NULL;
  return nodes_by_name(v->nodes, parent, tn->name);
}

struct sweep {
  struct view *v;
};

static void note_dead(struct node *node, void *arg) {
  struct view *v = arg;
  if (node->grant && !node->grant->alive) note(v, FUSE_NOTIFY_INVAL_INODE, node->id, NULL);
}

/** A plan node's path from the root, as names (at most MAX_DEPTH); returns how many. */
static size_t tnode_path(const struct tnode *node, char *parts[MAX_DEPTH]) {
  size_t n = 0;
  for (const struct tnode *at = node; at->parent && n < MAX_DEPTH; at = at->parent) parts[n++] = at->name;
  for (size_t k = 0; k < n / 2; k++) {
    char *t = parts[k];
    parts[k] = parts[n - 1 - k];
    parts[n - 1 - k] = t;
  }
  return n;
}

/** Tells the kernel about every new or changed plan path (so a cached "not there" goes), recursively. */
static void note_new(struct view *v, const struct tnode *tn, const struct table *old) {
  for (size_t i = 0; i < tn->nkids; i++) {
    const struct tnode *kid = tn->kids[i];
    char *parts[MAX_DEPTH];
    size_t n = tnode_path(kid, parts);
    const struct tnode *before = old ? tnode_at(old->root, parts, n) : NULL;
    bool changed = !before || before->kind != kid->kind || before->grant != kid->grant || (kid->link && (!before->link || strcmp(kid->link, before->link) != 0));
    if (changed) {
      struct node *parent = known_node(v, tn);
      if (parent) note(v, FUSE_NOTIFY_INVAL_ENTRY, parent->id, kid->name);
    }
    note_new(v, kid, old);
  }
}

/** Tells the kernel what the notes say (without the view's lock: it may wait on a page a request being answered holds). */
static void send_notes(struct view *v) {
  pthread_mutex_lock(&v->notes_lock);
  for (size_t i = 0; i < v->nnotes; i++) {
    struct note *n = &v->notes[i];
    if (n->kind == FUSE_NOTIFY_INVAL_ENTRY) {
      struct fuse_notify_inval_entry_out out = { .parent = n->id, .namelen = (uint32_t)strlen(n->name) };
      struct fuse_out_header head = { .len = (uint32_t)(sizeof head + sizeof out + out.namelen + 1), .error = FUSE_NOTIFY_INVAL_ENTRY, .unique = 0 };
      struct iovec iov[4] = { { &head, sizeof head }, { &out, sizeof out }, { n->name, out.namelen }, { "", 1 } };
      if (writev(v->fuse, iov, 4) < 0 && errno != ENOENT) say("view: the kernel could not be told of %s: %s", n->name, strerror(errno));
    } else {
      // Data and attributes, or (ATTR) the attributes only: a page the kernel keeps stays good.
      struct fuse_notify_inval_inode_out out = { .ino = n->id, .off = n->kind == FUSE_NOTIFY_INVAL_INODE_ATTR ? -1 : 0, .len = 0 };
      struct fuse_out_header head = { .len = (uint32_t)(sizeof head + sizeof out), .error = FUSE_NOTIFY_INVAL_INODE, .unique = 0 };
      struct iovec iov[2] = { { &head, sizeof head }, { &out, sizeof out } };
      if (writev(v->fuse, iov, 2) < 0 && errno != ENOENT) say("view: the kernel could not be told to forget a file: %s", strerror(errno));
    }
    free(n->name);
  }
  v->nnotes = 0;
  pthread_mutex_unlock(&v->notes_lock);
}

/** Tells the kernel to drop each name the old plan showed and the new one does not (or shows otherwise). */
static void note_gone(struct view *v, const struct tnode *tn, const struct table *now) {
  for (size_t i = 0; i < tn->nkids; i++) {
    const struct tnode *kid = tn->kids[i];
    char *parts[MAX_DEPTH];
    size_t n = tnode_path(kid, parts);
    const struct tnode *after = tnode_at(now->root, parts, n);
    if (!after || after->kind != kid->kind || after->grant != kid->grant) {
      struct node *parent = known_node(v, tn);
      if (parent) note(v, FUSE_NOTIFY_INVAL_ENTRY, parent->id, kid->name);
    }
    note_gone(v, kid, now);
  }
}

static void mark_grants(struct tnode *tn, bool alive) {
  if (tn->kind == ENTRY_BACKING && tn->grant) {
    tn->grant->alive = alive;
    if (alive) {
      tn->grant->flags = tn->flags;
      tn->grant->optouts = tn->optouts;
      tn->grant->has_overlays = tn->nkids > 0;
    }
  }
  for (size_t i = 0; i < tn->nkids; i++) mark_grants(tn->kids[i], alive);
}

/** Gone from the plan: the path in the new plan where a synthetic node's path was, or NULL. */
static struct tnode *tnode_by_path(const struct table *table, const char *path) {
  char copy[4096], *parts[MAX_DEPTH];
  size_t n = 0;
  snprintf(copy, sizeof copy, "%s", path);
  for (char *save = NULL, *part = strtok_r(copy, "/", &save); part && n < MAX_DEPTH; part = strtok_r(NULL, "/", &save)) parts[n++] = part;
  return tnode_at(table->root, parts, n);
}

void view_apply(struct view *v, struct table *table) {
  struct table *old = NULL;
  pthread_mutex_lock(&v->lock);
  if (table) {
    old = v->table;
    mark_grants(old->root, false);
    mark_grants(table->root, true);
    // While the old plan's nodes are still its own: what it showed and the new one does not.
    note_gone(v, old->root, table);
    // Synthetic nodes follow their path into the new plan, or are gone from it.
    for (size_t i = 0; i < v->nsynthetic; i++) {
      struct node *node = v->synthetic[i];
      struct tnode *now = tnode_by_path(table, node->spath);
      bool same = now && now->kind != ENTRY_BACKING && kind_type(now->kind) == node->type &&
                  (!now->link || !node->tn || !node->tn->link || strcmp(now->link, node->tn->link) == 0);
      if (node->tn) node->tn->node = NULL;
      node->tn = same ? now : NULL;
      if (same) now->node = node;
      else note(v, FUSE_NOTIFY_INVAL_INODE, node->id, NULL);
    }
    note_new(v, table->root, old);
    // What lay in a revoked grant: its pages and attributes go from the kernel's caches, and its
    // files' descriptors kept here are closed.
    nodes_each(v->nodes, note_dead, v);
    uncache(v, NULL);
    v->table = table;
  } else {
    mark_grants(v->table->root, true);
  }
  pthread_mutex_unlock(&v->lock);

  // Sent without the lock: the kernel may wait on a page that a request being answered holds.
  send_notes(v);
  if (old) {
    pthread_mutex_lock(&v->lock);
    table_free(old);
    pthread_mutex_unlock(&v->lock);
  }
}

/* ---- Changes made outside ---- */

int view_inotify_fd(struct view *v) { return v->inotify; }

/** Every folder of the view this inotify watch is (one folder may be in two grants). */
static void note_event(struct view *v, const struct inotify_event *ev) {
  for (size_t i = 0; i < v->nwatched; i++) {
    struct node *dir = v->watched[i];
    if (dir->wd != ev->wd) continue;
    if (ev->len == 0 || ev->name[0] == '\0') {
      // The folder itself: its attributes, or it moved or went away.
      note(v, FUSE_NOTIFY_INVAL_INODE_ATTR, dir->id, NULL);
      if ((ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) && dir->parent) note(v, FUSE_NOTIFY_INVAL_ENTRY, dir->parent->id, dir->name);
      continue;
    }
    struct node *child = nodes_by_name(v->nodes, dir, ev->name);
    if ((ev->mask & (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)) && !was_own(v, ev)) {
      // A name came or went outside: what the kernel remembers of it (even "not there") goes, and the folder's times.
      note(v, FUSE_NOTIFY_INVAL_ENTRY, dir->id, ev->name);
      note(v, FUSE_NOTIFY_INVAL_INODE_ATTR, dir->id, NULL);
      if (child) note(v, FUSE_NOTIFY_INVAL_INODE_ATTR, child->id, NULL);
    }
    // A file's content or attributes changed: its attributes go, and with them (the kernel compares
    // the time and size it gets anew: auto_inval_data) its pages where they changed.
    bool own_write = child && (ev->mask & (IN_MODIFY | IN_CLOSE_WRITE)) && now_ns() - child->wrote_at < OWN_WRITE_NS;
    if (child && (ev->mask & (IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB)) && !own_write) note(v, FUSE_NOTIFY_INVAL_INODE_ATTR, child->id, NULL);
  }
}

/** Every name and file the kernel knows: after events were lost (the queue overflowed). */
static void note_everything(struct node *node, void *arg) {
  struct view *v = arg;
  if (!node->grant) return;
  note(v, FUSE_NOTIFY_INVAL_INODE, node->id, NULL);
  if (node->parent) note(v, FUSE_NOTIFY_INVAL_ENTRY, node->parent->id, node->name);
}

void view_watch_events(struct view *v) {
  char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
  for (;;) {
    ssize_t n = read(v->inotify, buf, sizeof buf);
    if (n <= 0) break;
    pthread_mutex_lock(&v->lock);
    for (char *at = buf; at < buf + n;) {
      const struct inotify_event *ev = (const struct inotify_event *)at;
      if (ev->mask & IN_Q_OVERFLOW) nodes_each(v->nodes, note_everything, v);
      else note_event(v, ev);
      at += sizeof *ev + ev->len;
    }
    pthread_mutex_unlock(&v->lock);
    send_notes(v);
  }
}
