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
  | 'uv-missing';

/** The result of checking a running confined server from outside. */
export interface SandboxSelfCheck {
  verified: boolean;
  /** Epoch ms of the check. */
  at: number;
  /** English: what was checked, or what failed. */
  detail: string;
}
