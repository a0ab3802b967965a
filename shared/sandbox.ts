// What the OS sandbox can do for a stdio server, in words a UI can translate. Plain data only:
// the host decides (electron/host/sandbox/), the UIs and the CLI show it.

/** Which enforcement confines a server: bubblewrap (Linux), Seatbelt (macOS), or none (advisory). */
export type SandboxKind = 'bwrap' | 'seatbelt' | 'none';

/** Why enforcement is what it is; `ok` when the sandbox works. The English text travels beside it. */
export type SandboxReasonCode =
  | 'ok'
  /** Linux without the `bwrap` program on PATH (Debian/Ubuntu/Fedora package `bubblewrap`). */
  | 'bwrap-missing'
  /** bwrap is there but the kernel or a security module refuses user namespaces (Ubuntu 24.04 AppArmor, a container). */
  | 'userns-blocked'
  /** bwrap is there but its trial run failed for another reason; `reason` carries its message. */
  | 'bwrap-failed'
  /** macOS without /usr/bin/sandbox-exec. */
  | 'sandbox-exec-missing'
  /** Windows and every other OS: no sandbox this app can apply. */
  | 'platform-unsupported';

export interface SandboxEnforcement {
  kind: SandboxKind;
  reasonCode: SandboxReasonCode;
  /** English, for the CLI and logs. */
  reason: string;
}

/** Why a server could not be prepared for its sandbox. It is never started unconfined instead. */
export type SandboxSetupCode =
  /** The command is not on PATH (or not executable). */
  | 'command-not-found'
  /** An `npx` line this app cannot prepare outside the sandbox (e.g. `npx -c "…"`). */
  | 'npx-unsupported'
  /** The package behind `npx`/`uvx` could not be installed into the app's folder. */
  | 'package-install-failed'
  /** A `uvx` server, and `uv` is not on PATH to prepare its package outside the sandbox. */
  | 'uv-missing'
  /** A folder to mount was replaced (by a symlink, another folder) between the plan and the mount. */
  | 'folder-changed'
  /** Its list of allowed hosts cannot be enforced here (no network of its own, no nftables): it is not started with more. */
  | 'network-policy-unavailable';

/** The result of checking a running confined server from outside. */
export interface SandboxSelfCheck {
  verified: boolean;
  /** Epoch ms of the check. */
  at: number;
  /** English: what was checked, or what failed. */
  detail: string;
  /** Verified only: the checked facts every UI words (the activity log's 'sandbox-verified' event). */
  proven?: ProvenSandbox | undefined;
  /**
   * Verified only: each limit the check read in force from the running process (true), or found
   * not limited (false: root's tasks without a cgroup). Absent: not proven (no check, no limits).
   */
  limits?: LimitsProven | undefined;
}

/** What a verified self-check proved, as facts (the detail says the same in English, at length). */
export interface ProvenSandbox {
  pid: number;
  /** The grants it holds: bound folders, or folders of its file view. */
  grants: number;
  /** Bind mounts only: protected paths held read-only. */
  protected: number;
  /** Its grants are folders of its own file view (not bind mounts). */
  view: boolean;
  /** Unix sockets refused by its filter, or allowed in a network of its own (where the host's do not exist). */
  sockets: 'refused' | 'own-network';
  /** Its protection is what its start found (bind mounts without live changes). */
  static: boolean;
}

/** Per limit (server-limits.ts names), whether the self-check read it in force. */
export interface LimitsProven {
  tasks: boolean;
  memoryMiB: boolean;
  tmpMiB: boolean;
  files: boolean;
}

/**
 * How a server runs, as every UI shows it:
 * - 'enforced': in an OS sandbox that holds exactly its effective roots (verified after start);
 * - 'advisory': roots only, the server could read more (`reasonCode` says why: no sandbox on
 *   this OS, a remote server, ...);
 * - 'off': the person turned the sandbox off for this server.
 */
export type ConfinementState = 'enforced' | 'advisory' | 'off';

/** Why a server runs advisory although its sandbox setting is on. */
/** 'container': a `docker run` server, whose confinement is its container's mounts (docker-mounts.ts). */
export type AdvisoryReasonCode = Exclude<SandboxReasonCode, 'ok'> | 'remote-server' | 'container';

/** A failure the sandbox likely caused, read from the server's stderr after it failed. */
/**
 * Why a folder a server asked for deserves a warning before it is granted: the home folder itself
 * (or above it), credentials and keychains, a browser profile, the app's own data folder, the system.
 */
export type SensitiveFolderKind = 'home' | 'credentials' | 'browser-profile' | 'app-data' | 'system';

export interface SandboxBlock {
  kind: 'outside-grants' | 'read-only-grant' | 'sandbox-setup';
  /** The path the server failed on. */
  path: string;
  /** The folder to offer for a grant. */
  folder: string;
  /** The stderr line it was read from. */
  line: string;
  /** Set when granting `folder` would expose something sensitive: the confirmation warns. */
  sensitive?: SensitiveFolderKind | undefined;
}

export interface ServerConfinement {
  state: ConfinementState;
  /** 'bwrap' or 'seatbelt' while enforced. */
  kind?: SandboxKind | undefined;
  /** Advisory: why. */
  reasonCode?: AdvisoryReasonCode | undefined;
  /** English, for the CLI and logs. */
  reason?: string | undefined;
  /** Enforced: whether the server may use the network. */
  network?: boolean | undefined;
  /**
   * Enforced with the network on: this computer's loopback is 'closed' to it but the ports opened for
   * it (a network of its own, through pasta), or 'open' (it shares this computer's network).
   */
  loopback?: 'closed' | 'open' | undefined;
  /**
   * Enforced by bwrap: how its grants reach it. 'view': a file view of its own decides every file
   * operation, at any depth, and grants change live. 'mounts': bind mounts fixed at its start, with
   * the protected names found then (static protection: repositories made later are not covered).
   */
  grants?: 'view' | 'mounts' | undefined;
  /** Enforced: the check of the running process (what the UI shows as "verified at hh:mm"). */
  selfCheck?: SandboxSelfCheck | undefined;
  /** The last failure the sandbox likely caused. */
  blocked?: SandboxBlock | undefined;
  /** Why the server could not be prepared for its sandbox (it was not started). */
  setupError?: { code: SandboxSetupCode; message: string } | undefined;
}

/**
 * A folder named in a server's arguments or environment (`server-filesystem /a /b`): it bypasses
 * roots, so the UI flags it. Under enforcement the server cannot open it unless it is granted.
 */
export interface ArgumentFolderView {
  path: string;
  /** Where it is named: an argument (by index) or an environment variable (by name). */
  source: { kind: 'arg'; index: number } | { kind: 'env'; name: string };
  /** A root for this folder is granted to the server. */
  granted: boolean;
}
