// Domain types shared by the host, the UIs and the CLI. Plain data only: no platform imports.
import type { ActivityCode, ActivityEvent } from './activity-event.js';
import type { ArgumentFolderView, SensitiveFolderKind, ServerConfinement } from './sandbox.js';
import type { SecretPlacement } from './secrets.js';
import type { WritableByChoice } from './protected-names.js';
import type { ServerLimits } from './server-limits.js';

export type RootId = string;
export type ServerId = string;

/** A folder the user picked once. `path` is what they picked; `canonicalPath` is its realpath. */
export interface RootRecord {
  id: RootId;
  path: string;
  canonicalPath: string;
  name: string;
  addedAt: string;
}

export interface StdioTransportConfig {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string | undefined;
}

export interface HttpTransportConfig {
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

export type TransportConfig = StdioTransportConfig | HttpTransportConfig;

/** A host folder and the path a server sees it at (a container's mount, a WSL share). */
export interface PathMapping {
  hostPath: string;
  serverPath: string;
}

export interface ServerRecord {
  id: ServerId;
  name: string;
  transport: TransportConfig;
  enabled: boolean;
  /** Roots sharing on/off: off means the client does not even declare the roots capability. */
  sharing: boolean;
  /** Run a stdio server confined by the OS to its effective roots, where the OS allows it. */
  sandbox: boolean;
  /** Network access from inside the sandbox (only enforced while the sandbox is). */
  network: boolean;
  /**
   * Let it make sandboxes of its own inside its sandbox (user namespaces): a browser's (Chromium's)
   * own sandbox needs them. Off (absent) by default: the kernel code they reach is attack surface.
   */
  ownSandboxes?: boolean | undefined;
  /**
   * Ports of this computer's loopback (127.0.0.1, ::1) that it may reach with its network on: a local
   * MCP server behind mcp-remote, a dev server. None (absent) by default: a browser's debugging
   * port, Jupyter or a database without a password on this computer stay out of its reach.
   */
  allowLocal?: number[] | undefined;
  /**
   * With the network on: the only hosts it may reach (shared/host-patterns.ts: names, `*.` wildcards,
   * addresses, each with an optional port). Absent: any host. Enforced in its own network namespace
   * where pasta and nftables work; where not, it is not started. A change applies live.
   */
  allowHosts?: string[] | undefined;
  /** Raise a consent request when it asks for roots with none granted ("Don't ask again" clears it). */
  askForFolders: boolean;
  /** Folders are told to the server at these paths instead of the host's (longest hostPath wins). */
  pathMap?: PathMapping[] | undefined;
  /** Tasks, memory, /tmp and open files inside its sandbox (server-limits.ts); absent ones take the defaults. */
  limits?: ServerLimits | undefined;
  /**
   * Per grant (by root id): protected names the person chose to leave writable in that folder
   * (shared/protected-names.ts). Honoured only while the grant is read-write; dropped with the grant.
   */
  writableByChoice?: WritableByChoice | undefined;
  addedAt: string;
}

export type Locale = 'system' | 'en' | 'zh-CN' | 'de';
export type ThemePreference = 'system' | 'light' | 'dark';

export interface Settings {
  locale: Locale;
  theme: ThemePreference;
  /** The newest file-record entries kept per server (shared/file-record.ts RECORD_BOUNDS); absent: the default. */
  recordEntries?: number | undefined;
  /** The days a file-record entry is kept; absent: the default. */
  recordDays?: number | undefined;
}

/**
 * Who made a change to the registry, as the app names it in its activity: its own edits, the
 * `mcp-roots` command line, or anything else that wrote the file (another copy of the app, a hand edit).
 */
export type ChangeSource = 'this-app' | 'cli' | 'other';

/** What a server may do in a granted folder. Read-only is enforced only where the sandbox is. */
export type GrantMode = 'read-write' | 'read-only';

/**
 * A new grant's mode when none is chosen: a click in the Access grid, a bulk Share, `mcp-roots grant`
 * without a mode. Least privilege: read-write is a second, deliberate step (#30).
 */
export const NEW_GRANT_MODE: GrantMode = 'read-only';

/**
 * Everything persisted. `grants[serverId]` maps each root that server may see to its mode, in the
 * registry's root order.
 */
export interface Registry {
  schemaVersion: number;
  roots: RootRecord[];
  servers: ServerRecord[];
  grants: Record<ServerId, Record<RootId, GrantMode>>;
  settings: Settings;
}

export type AccessState =
  | 'checking'
  | 'ok'
  | 'missing'
  | 'not-directory'
  | 'permission-denied'
  /** The canonical path now resolves elsewhere (a folder was swapped for a symlink). */
  | 'target-changed'
  | 'error';

/** Why a root is not reachable, as a stable code the UI translates; `reason` is the English text. */
export type AccessReasonCode =
  | 'became-file'
  | 'leads-elsewhere'
  | 'deleted'
  | 'parent-not-folder'
  | 'no-permission'
  | 'symlink-loop'
  | 'other';

export interface RootAccess {
  state: AccessState;
  /** English, for the CLI and logs. */
  reason?: string | undefined;
  reasonCode?: AccessReasonCode | undefined;
  /** target-changed: where the folder leads now. */
  target?: string | undefined;
  checkedAt: number;
}

/** 'unknown': seen from a process that runs no servers (the CLI) while no app says how they run. */
export type ConnectionState = 'disabled' | 'connecting' | 'connected' | 'error' | 'disconnected' | 'unknown';

/**
 * Where a connection to a server is in its life (electron/host/connections/connection-lifecycle.ts has the
 * transitions). The app's connections use all of them; `mcp-roots proxy` a subset (ProxyState).
 */
export const LIFECYCLE_STATES = ['connecting', 'ready', 'applying-grants', 'draining', 'restarting', 'backing-off', 'held-off', 'stopped'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

/** How long a restart waits for running tool calls before it ends them with an error (shown where it applies). */
export const DRAIN_LIMIT_MS = 30_000;

/** The states a proxy session passes through: it never backs off (its host restarts it) and applies grants by notifying at once. */
export const PROXY_STATES = ['connecting', 'ready', 'draining', 'restarting', 'held-off', 'stopped'] as const satisfies readonly LifecycleState[];
export type ProxyState = (typeof PROXY_STATES)[number];

/** A restart that waits for running calls to finish: how many still run, and the latest it waits until. */
export interface DrainView {
  calls: number;
  /** Epoch ms: the remaining calls are ended with an error then. */
  until: number;
  limitMs: number;
  /** English: why it restarts (the activity log has the same words). */
  reason: string;
}

export interface RootsAnswer {
  at: number;
  uris: readonly string[];
}

/**
 * Why a session runs in its protocol era (electron/host/connections/era-choice.ts has the English):
 * legacy-only / modern-only: the server speaks only that era; folders-first: it speaks both and
 * 2025-11-25 carries its folders whichever way it asks; newest: both, and it is told no folders;
 * remote-modern: over HTTP 2026-07-28 carries its folders; probe-unanswered: no answer to the
 * 2026-07-28 probe in time; host-era: behind the proxy, the host's own choice.
 */
export const ERA_REASONS = ['legacy-only', 'modern-only', 'folders-first', 'newest', 'remote-modern', 'probe-unanswered', 'host-era'] as const;
export type EraReason = (typeof ERA_REASONS)[number];
/** Why a server could not start or connect, as a code the UI translates, with the server's own words. */
export type ServerFailureCode =
  /** The command is not on PATH (or the working folder does not exist). */
  | 'command-not-found'
  /** The command exists but cannot be run (a folder, no execute permission). */
  | 'not-executable'
  /** The process exited (or was killed) before the handshake finished. */
  | 'exited'
  /** The process ran but did not answer the handshake in time. */
  | 'timed-out'
  /** An HTTP server that cannot be reached. */
  | 'unreachable'
  /** An HTTP server that answered with an error status. */
  | 'http-status'
  /** A secret sealed by the desktop app, unreadable in this process. */
  | 'sealed-secret'
  /** pasta (package passt) could not give a network-on server its own network; `detail` is pasta's last line. */
  | 'private-network'
  /** Its browser (Chromium) could not make a sandbox of its own inside this one: its own sandboxes are off. */
  | 'browser-sandbox'
  | 'other';

export interface ServerFailure {
  code: ServerFailureCode;
  /** English, leading with the server's own words; for the CLI, logs and older UIs. */
  message: string;
  command?: string | undefined;
  /** private-network: the server's name, for the command that turns its network off. */
  server?: string | undefined;
  /** command-not-found: a likely intended command, e.g. `npx` for `npxx`. */
  suggestion?: string | undefined;
  cwd?: string | undefined;
  url?: string | undefined;
  exitCode?: number | undefined;
  signal?: string | undefined;
  httpStatus?: number | undefined;
  timeoutMs?: number | undefined;
  /** The last lines the server wrote to stderr before failing, oldest first (secrets redacted). */
  stderr?: readonly string[] | undefined;
  /** The underlying library's message, kept for the curious; never what the UI leads with. */
  detail?: string | undefined;
}

export interface ServerStatus {
  /**
   * Its lifecycle in one word, derived from it alone (connection-lifecycle.ts connectionStateOf):
   * 'error' is a backing-off, held-off or stopped lifecycle that failed. Never set on its own.
   */
  state: ConnectionState;
  /** Where the connection is in its life; absent in a status written before lifecycles were named. */
  lifecycle?: LifecycleState | undefined;
  /** Set while lifecycle is 'draining'. */
  draining?: DrainView | undefined;
  protocolVersion?: string | undefined;
  era?: 'legacy' | 'modern' | undefined;
  /** Why that era (shown beside it). */
  eraReason?: EraReason | undefined;
  serverInfo?: { name: string; version: string } | undefined;
  error?: string | undefined;
  /** The structured form of `error` when the server failed to start or connect. */
  failure?: ServerFailure | undefined;
  /** The last `roots/list` the server asked and what it was answered. */
  lastRootsRequest?: RootsAnswer | undefined;
  rootsRequestCount: number;
  listChangedCount: number;
  /**
   * Learned: true when it asked for its folders again after being told they changed; false when it
   * did not (changes then reach it by a restart); undefined until known.
   */
  rereadsRoots?: boolean | undefined;
  /** How it runs: in the OS sandbox (verified), advisory (roots only) or with the sandbox off. */
  confinement?: ServerConfinement | undefined;
  /** The last time the app limited what it reads from this server, and why (kept until a reconnect). */
  limited?: InboundLimitation | undefined;
  nextRetryAt?: number | undefined;
  /**
   * It failed in a way no timer fixes (a path the sandbox blocked, a start that cannot be prepared)
   * and is not retried until its grants or settings change, or the person asks to reconnect.
   */
  held?: { reason: 'blocked-path' | 'setup' | 'exits-at-start'; at: number } | undefined;
  /**
   * Set while its package is found or installed before it runs (an npx or uvx server's first start
   * in the sandbox can take many seconds): since when, and the command line (secrets redacted).
   */
  preparing?: { since: number; command: string } | undefined;
  pid?: number | undefined;
  /** When its current process (or its last, once stopped) was started: "Changes by this server" since then. */
  startedAt?: number | undefined;
}

/**
 * The app read a server more slowly than it wrote, or paused reading it ('message-rate'), ended its
 * session for a line too long to read ('long-line'), or for flooding on after its pauses ('flood'),
 * so that it could not slow the other servers down.
 */
export interface InboundLimitation {
  kind: 'message-rate' | 'long-line' | 'flood';
  /** The limit it went over: messages a second, or megabytes in one line. */
  limit: number;
  /** What the activity log says (worded by shared/i18n); the status line words `kind`. */
  event: ActivityEvent;
  at: number;
}

export interface RootView extends RootRecord {
  uri: string;
  access: RootAccess;
  /** True when the picked path is (or passes through) a symlink: the UI shows the target. */
  isLink: boolean;
  /** Set where granting it deserves a plain warning first (home, credentials, a browser profile, the data folder, the system). */
  sensitive?: SensitiveFolderKind | undefined;
}

/** A granted folder that its server sees at another path (its pathMap): both paths, and the URI it is told. */
export interface MappedFolderView {
  rootId: RootId;
  /** The path in the server's own file system (a container's, WSL's). */
  serverPath: string;
  /** What the server is told for it (`file:///projects/proj`). */
  uri: string;
}

/**
 * Why the roots-change policy restarts a server (electron/host/connections/roots-change-policy.ts decides, and has the English).
 * A list, not only a type: a reader checks the ones it did not make (a proxy's status file).
 */
export const RESTART_WHYS = [
  /** New folders as arguments. */
  'arguments',
  /** New sandbox mounts. */
  'mounts',
  /** Its last folder was revoked, and an empty list does not revoke it everywhere. */
  'forget',
  /** It does not ask again after list_changed: only a new session makes it ask. */
  'reask',
  /** It failed and was waiting to be retried: its new folders may be what it lacked. */
  'retry',
] as const;
export type RestartWhy = (typeof RESTART_WHYS)[number];

/**
 * What a change of one of its folders would do to the server now, by the roots-change policy:
 * the restart it takes, or absent when it applies without one. Shown before the change is made.
 */
export interface ChangeForecast {
  grant?: RestartWhy | undefined;
  revoke?: RestartWhy | undefined;
}

export interface ServerView extends ServerRecord {
  status: ServerStatus;
  /**
   * What granting or revoking a folder would do to it now, wherever it runs: this process and each
   * `mcp-roots proxy` session (absent where nothing known runs it; host/status/combined-forecast.ts).
   */
  changeRestarts?: ChangeForecast | undefined;
  grantedRootIds: RootId[];
  /** The granted roots whose grant is read-only (a subset of grantedRootIds). */
  readOnlyRootIds: RootId[];
  /** Granted AND accessible AND sharing on AND enabled: exactly what the server is told. */
  effectiveRootIds: RootId[];
  /** Folders its command line or env names (they bypass roots; confined, it reaches them only if granted). */
  argumentFolders: ArgumentFolderView[];
  /** Its granted folders that its pathMap maps: the detail shows both paths. Empty without a pathMap. */
  mappedFolders: MappedFolderView[];
  /** Where each of its secrets (env, headers, URL credentials) is kept. */
  secrets?: SecretPlacement[] | undefined;
}

export interface ConsentRequest {
  id: string;
  serverId: ServerId;
  at: number;
}

export type NoticeLevel = 'info' | 'warning' | 'error';

export interface Notice {
  id: string;
  level: NoticeLevel;
  code: string;
  message: string;
  at: number;
}

/** A server running through `mcp-roots proxy` in a process a host (Claude Desktop, Cursor…) started. */
export interface ProxiedSession {
  serverId: ServerId;
  proxyPid: number;
  /** The host that launched the proxy, as it introduced itself. */
  host?: { name: string; version: string } | undefined;
  state: ProxyState;
  /** Set while state is 'draining'. */
  draining?: DrainView | undefined;
  /** Whose roots the server is told: the registry's (default) or the host's own. */
  rootsPolicy: 'registry' | 'host';
  hostOffersRoots: boolean;
  /** The era the server is spoken to in, and why (the host's own may differ). */
  era?: 'legacy' | 'modern' | undefined;
  eraReason?: EraReason | undefined;
  protocolVersion?: string | undefined;
  lastRootsRequest?: RootsAnswer | undefined;
  rootsRequestCount: number;
  listChangedCount: number;
  startedAt: number;
  updatedAt: number;
  error?: string | undefined;
  /** How the server behind this proxy runs: in the OS sandbox, advisory, or with the sandbox off. */
  confinement?: ServerConfinement | undefined;
  /** What a grant or revoke would do to the server behind this proxy, as the proxy's own policy forecasts it. */
  changeRestarts?: ChangeForecast | undefined;
}

/** The immutable snapshot every UI renders. Secrets inside server configs are masked. */
export interface HostState {
  revision: number;
  configPath: string;
  roots: RootView[];
  servers: ServerView[];
  consentRequests: ConsentRequest[];
  notices: Notice[];
  /** Servers running through `mcp-roots proxy` right now, launched by other hosts. */
  proxies: ProxiedSession[];
  settings: Settings;
  /** Set by the desktop app: where the PATH its servers start with came from. */
  environment?: HostEnvironment;
}

/** How programs are found: an app opened from a menu or the Dock lacks the PATH a shell builds. */
export interface HostEnvironment {
  pathSource: 'login-shell' | 'inherited';
  /** The login shell that was asked, when one was. */
  shell?: string | undefined;
  /** The `npx` a server started as `npx …` runs, or null when none is on that PATH. */
  npx: string | null;
}

export type ActivityKind =
  | 'connect'
  | 'disconnect'
  | 'error'
  | 'roots-request'
  | 'list-changed'
  | 'stderr'
  | 'consent'
  | 'restart'
  | 'info'
  /** Its folders were granted, revoked or changed in mode (`grants` says which, `source` by whom). */
  | 'grants'
  /** From its record, for History: an operation in its grants (audit/file-record.ts), or a destination (egress/network-record.ts). */
  | 'file'
  | 'network';

/** A folder in a grant change: its path, as the person reads it (home as ~), and its mode (after the change; a revoke's: before). */
export interface ChangedFolder {
  path: string;
  shown: string;
  mode: GrantMode;
}

/** What one registry change did to one server's grants. */
export interface GrantChanges {
  granted: ChangedFolder[];
  revoked: ChangedFolder[];
  /** Still granted, in a new mode. */
  modeChanged: ChangedFolder[];
}

export interface ActivityEntry {
  seq: number;
  at: number;
  kind: ActivityKind;
  message: string;
  uris?: readonly string[] | undefined;
  /** How many identical events this entry stands for (a folded run of roots requests). */
  count?: number | undefined;
  /**
   * What happened, as a code every UI and the CLI word from the one table (shared/i18n); `message`
   * is its English, worded from that table too (for logs and exports).
   */
  code: ActivityCode;
  params?: Readonly<Record<string, string | number>> | undefined;
  /** An error entry for a failed start or connect: its words come from the failure's code. */
  failure?: ServerFailure | undefined;
  /** A 'grants' entry: which folders, in which modes. */
  grants?: GrantChanges | undefined;
  /** A change a person made (grants, settings): who made it. */
  source?: ChangeSource | undefined;
}

export type { ActivityCode } from './activity-event.js';

/** One server's activity entry, in the history across servers (and the live `activity` event). */
export interface ServerActivityEntry {
  serverId: ServerId;
  entry: ActivityEntry;
}

/** A root as it goes on the wire in a `roots/list` answer. */
export interface WireRoot {
  uri: string;
  name?: string;
}
