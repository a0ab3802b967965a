// The vocabulary shared by the sandbox module's files: a granted folder, a mount, a setup error.
import type { GrantMode } from '../../../shared/domain.js';
import type { SandboxSetupCode } from '../../../shared/sandbox.js';

/** One effective root of a server: a canonical host path (realpath) and its grant's mode. */
export interface GrantedFolder {
  path: string;
  /** The registry's grant mode: what the server may do there. */
  mode: GrantMode;
  /** Protected names the person chose to leave writable in this grant; honoured only when read-write. */
  writableByChoice?: readonly string[] | undefined;
}

/** What a confined server may reach, whatever the OS mechanism (bwrap plan, Seatbelt profile). */
export interface ConfinementInput {
  /** Files and folders of the server's own program, read-only. */
  programPaths: readonly string[];
  /** Its effective roots: canonical host paths with their grant modes. */
  roots: readonly GrantedFolder[];
  /** Private, persistent HOME and TMPDIR folders (they exist on the host). */
  home: string;
  tmp: string;
  /** The app's data folder: hidden wherever a root or program path covers it. */
  dataDir: string;
  network: boolean;
}

/** Why a path is visible inside a sandbox: the self-check and the UI explain each one. */
/** 'protected': a path inside a read-write root that stays read-only (protected-paths.ts); 'anchor': a folder on the way to the data folder or a protected path, pinned so it cannot be renamed (bwrap-plan.ts). */
export type MountPurpose = 'system' | 'program' | 'root' | 'home' | 'tmp' | 'mask' | 'protected' | 'anchor';

/** One path as the confined server sees it (same path inside and out). */
export interface SandboxMount {
  path: string;
  writable: boolean;
  purpose: MountPurpose;
}

/** A server that cannot be prepared for its sandbox: it is not started, never started unconfined. */
export class SandboxSetupError extends Error {
  constructor(
    readonly code: SandboxSetupCode,
    message: string,
  ) {
    super(message);
    this.name = 'SandboxSetupError';
  }
}

/** True when `inner` is `outer` or lies beneath it (both absolute and normalized). */
export function isWithin(inner: string, outer: string): boolean {
  if (outer === '/') return inner.startsWith('/');
  return inner === outer || inner.startsWith(`${outer}/`);
}
