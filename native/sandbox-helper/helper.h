// mcp-roots-sandbox: the app's one native helper for the OS sandbox on Linux. It is the holder of a
// confined server's namespaces and the file view through which the server sees its grants. Why it
// is native: a helper with more rights than the server must act on descriptors (openat2 without
// symlinks, the new mount API, renameat2), never on a shell line or a text format, and answer the
// server's every file operation at C speed. See README.md beside this file for the whole picture.
#ifndef MCP_ROOTS_HELPER_H
#define MCP_ROOTS_HELPER_H

#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/** The exit status when the sandbox could not be set up; stderr says why, in one line. */
#define HELPER_FAILED 97

/** One line to stderr, prefixed so the app tells the helper's words from the server's. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** say(), then exit(HELPER_FAILED). */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ---- The plan table (table.c): what the view shows, sent by the app over the control socket. ---- */

/** A synthetic folder, a link, a folder passed through, an empty read-only file (a mount point for a file bwrap binds). */
enum entry_kind { ENTRY_DIR = 1, ENTRY_LINK = 2, ENTRY_BACKING = 3, ENTRY_FILE = 4 };

/** Entry flags, as the app sends them (view-table.ts says the same). */
#define ENTRY_WRITABLE 0x01u
/** Protected names are refused in it (a read-write grant). */
#define ENTRY_PROTECT 0x02u
/** A new .git may be made in it (the person allowed git init for this grant). */
#define ENTRY_GIT_INIT 0x04u
/** Backed by the sandbox's private /tmp (a tmpfs of the holder's), not a host folder. */
#define ENTRY_TMP 0x08u
/** Its operations are recorded for the person (the audit). */
#define ENTRY_RECORD 0x10u

/** A backing folder: a grant, or the private /tmp. Shared by the nodes below it; refcounted. */
struct grant {
  int refs;
  /** False once the table no longer has it: every operation on it is refused (a revoke cuts open files). */
  bool alive;
  /** Where the view shows it. */
  char *path;
  /** The host folder it passes through to (its own path, but for the private temp folder on disk). */
  char *source;
  /** Its path as components (the rules match against them). */
  char **abs;
  size_t nabs;
  dev_t dev;
  ino_t ino;
  /** O_PATH descriptor of the folder, opened without following any symlink and checked. */
  int fd;
  unsigned flags;
  /** Rule groups the person opted out of for this grant (bit i: group i). */
  uint64_t optouts;
  /** Some plan entry lies strictly inside it (a mask, a nested grant, a mount point). */
  bool has_overlays;
  /** Its top node (node.c), kept while the grant is alive. */
  struct node *root;
};

/** A path of the plan, or a folder on the way to one: the view's fixed part. */
struct tnode {
  char *name;
  struct tnode *parent;
  struct tnode **kids;
  size_t nkids;
  /** 0: only on the way to an entry (shown as an empty synthetic folder). */
  int kind;
  char *link;
  struct grant *grant;
  /** Its node in the view (synthetic folders and links), made when the kernel first looks it up. */
  struct node *node;
  /** A backing's flags and opt-outs as this table says them: copied into its grant when applied. */
  unsigned flags;
  uint64_t optouts;
};

/** A protected-name rule: path components, "*" one component, "**" any number. */
struct rule {
  /** Its group: the protected name a person may opt out of per grant. */
  unsigned group;
  /** NULL: matched at any depth below a grant; else only at this folder (absolute). */
  char **anchor;
  size_t nanchor;
  char **parts;
  size_t nparts;
  /** Leading components that are names, not wildcards: the protected folder itself. */
  size_t nfixed;
};

struct table {
  uint32_t seq;
  struct tnode *root;
  struct rule *rules;
  size_t nrules;
  /** Names of the rule groups, for the refusal's words and the record. */
  char **groups;
  size_t ngroups;
};

struct tnode *tnode_child(const struct tnode *parent, const char *name);
/** The tnode at a path given as components from the root, or NULL. */
struct tnode *tnode_at(const struct tnode *root, char *const *parts, size_t nparts);
void table_free(struct table *table);
void grant_put(struct grant *grant);

/** How a path stands against the rules: free, on the way to a protected path, or protected. */
enum guard { GUARD_NONE = 0, GUARD_PREFIX = 1, GUARD_PROTECTED = 2 };
/**
 * `rel` are the components below the grant's folder, `abs` the grant's own path as components.
 * Returns the strongest match, and in *group the rule group that matched (for the words).
 */
enum guard rules_match(const struct table *table, const struct grant *grant, char *const *abs, size_t nabs, char *const *rel, size_t nrel, unsigned *group);

/* ---- The control socket (control.c): frames from the app, replies to it. ---- */

/** Reads one frame (blocking); returns its type and a malloc'd payload, or -1 at the end. */
int control_read(int fd, uint8_t **payload, uint32_t *len);
/** Parses a TABLE frame. On failure returns NULL and sets *why. Opens and checks every backing. */
struct table *table_parse(const uint8_t *payload, uint32_t len, struct table *previous, int tmp_fd, const char **why);
/** The same, opening the backings only when asked (`inspect` reads a table without opening anything). */
struct table *table_read(const uint8_t *payload, uint32_t len, struct table *previous, int tmp_fd, bool open_folders, const char **why);
/** `inspect`: a table and rule queries on stdin, what the helper makes of them on stdout (inspect.c). */
int inspect_main(void);
void control_reply(int fd, uint32_t seq, int error, const char *message);
/** One line of the record (audit.c writes it); the socket is shared, so replies and records are framed. */
void control_send(int fd, uint8_t type, const void *payload, uint32_t len);

/* ---- The view (view.c): the FUSE file system. ---- */

struct view;
struct view *view_new(int fuse_fd, int control_fd, struct table *initial);
/** Serves requests until the kernel ends the connection (true), or until reading fails (false). */
bool view_serve(struct view *view);
/** Swaps in a new table and tells the kernel what it must forget; the lock is taken inside. */
void view_apply(struct view *view, struct table *table);
/** The inotify descriptor whose events view_watch_events reads (changes made outside), or -1. */
int view_inotify_fd(struct view *view);
/** Reads the waiting inotify events and tells the kernel what changed outside. */
void view_watch_events(struct view *view);
/** The table now in force (for the control thread's parse of the next one); call under view_lock. */
struct table *view_table(struct view *view);
void view_lock(struct view *view);
void view_unlock(struct view *view);

/* ---- The holder (holder.c): the child that makes the namespaces and execs bwrap. ---- */

struct holder_args {
  const char *fuse_device;
  const char *stage;
  unsigned long long tmp_bytes;
  bool network;
  /** Descriptors bwrap gets (kept open across the exec); everything else is closed. */
  int keep[64];
  int nkeep;
  char **argv;
  uid_t uid;
  gid_t gid;
};

/**
 * Forks the holder. It makes a user and mount namespace (and a network one), opens /dev/fuse
 * there, sends it and its private /tmp's mount to this process over `channel`, mounts the view on
 * the stage and execs bwrap. Returns the holder's pid.
 */
pid_t holder_start(const struct holder_args *args, int channel);

/** Sends descriptors with one byte of data; receives them. */
int fds_send(int socket, const int *fds, int nfds);
int fds_receive(int socket, int *fds, int nfds);

/** Checks whether this machine can host the view (the probe): prints one JSON line. */
int probe_main(const char *fuse_device);

/** netns-exec PID -- PROGRAM ARGS: PROGRAM in PID's user and network namespaces with CAP_NET_ADMIN (netns.c). */
int netns_exec_main(int argc, char **argv);

#endif
