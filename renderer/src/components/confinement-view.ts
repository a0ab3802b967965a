// How a server runs, reduced to what a screen may claim: the one place that decides which words a
// badge, a matrix cell and a read-only grant get. "Enforced" only when the host says the running
// process is in the OS sandbox; a server that is not running is never called enforced.
import type { ConnectionState, ProxiedSession, ServerView } from '../../../shared/domain.js';
import type { AdvisoryReasonCode, SandboxSetupCode } from '../../../shared/sandbox.js';
import type { MessageKey } from '../../../shared/i18n/messages.js';
import type { Translate } from '../../../shared/i18n/translate.js';
import type { Tone } from './access-badge.js';

export type ConfinementLook =
  | {
      state: 'enforced';
      /** 'pending': started confined, the self-check has not answered yet. */
      verified: 'yes' | 'no' | 'pending';
      at?: number | undefined;
      detail?: string | undefined;
      /** false: no network inside the sandbox (a fact only of enforced servers). */
      network: boolean;
      /** How its grants reach it, where the host says (bwrap): its own file view, or bind mounts fixed at start. */
      grants?: 'view' | 'mounts' | undefined;
    }
  | { state: 'advisory'; reasonCode: AdvisoryReasonCode | undefined; reason?: string | undefined }
  | { state: 'off' }
  /** The sandbox is on but the server could not be prepared for it: it was not started. */
  | { state: 'not-started'; code: SandboxSetupCode; message: string }
  /** Sandbox on, but the server is not running (switched off, or starting): nothing is enforced now. */
  | { state: 'idle' };

export function confinementLook(server: Pick<ServerView, 'transport' | 'enabled' | 'sandbox' | 'status'>): ConfinementLook {
  if (server.transport.type !== 'stdio') return { state: 'advisory', reasonCode: 'remote-server' };
  const { state } = server.status;
  const confinement = server.enabled && state !== 'disabled' ? server.status.confinement : undefined;
  if (!confinement) return server.sandbox ? { state: 'idle' } : { state: 'off' };
  if (confinement.state === 'off') return { state: 'off' };
  if (confinement.state === 'advisory') return { state: 'advisory', reasonCode: confinement.reasonCode, reason: confinement.reason };
  if (confinement.setupError) return { state: 'not-started', code: confinement.setupError.code, message: confinement.setupError.message };
  const check = confinement.selfCheck;
  // A failed check stopped the server: that is the news. Otherwise a process that exited or is
  // waiting to retry is confined by nothing right now, and "checking" would be untrue.
  if (check?.verified !== false && state !== 'connected' && state !== 'connecting') return { state: 'idle' };
  return {
    state: 'enforced',
    verified: !check ? 'pending' : check.verified ? 'yes' : 'no',
    at: check?.at,
    detail: check?.detail,
    network: confinement.network !== false,
    grants: confinement.grants,
  };
}

/** Read-only (and network off) bind only a server the OS confines right now. */
export function enforcesModes(look: ConfinementLook): boolean {
  return look.state === 'enforced' && look.verified !== 'no';
}

export const confinementTone: Record<ConfinementLook['state'], Tone> = {
  enforced: 'success',
  advisory: 'warning',
  off: 'danger',
  'not-started': 'danger',
  idle: 'neutral',
};

const longLabel: Record<ConfinementLook['state'], MessageKey> = {
  enforced: 'sandbox.enforced',
  advisory: 'sandbox.advisory',
  off: 'sandbox.off',
  'not-started': 'sandbox.notStarted',
  idle: 'sandbox.idle',
};

const shortLabel: Record<ConfinementLook['state'], MessageKey> = {
  enforced: 'sandbox.shortEnforced',
  advisory: 'sandbox.shortAdvisory',
  off: 'sandbox.shortOff',
  'not-started': 'sandbox.shortNotStarted',
  idle: 'sandbox.shortIdle',
};

const advisoryReason: Record<AdvisoryReasonCode, MessageKey> = {
  'bwrap-missing': 'sandbox.reason.bwrapMissing',
  'userns-blocked': 'sandbox.reason.usernsBlocked',
  'bwrap-failed': 'sandbox.reason.bwrapFailed',
  'sandbox-exec-missing': 'sandbox.reason.sandboxExecMissing',
  'platform-unsupported': 'sandbox.reason.platformUnsupported',
  'remote-server': 'sandbox.reason.remoteServer',
  container: 'sandbox.reason.container',
};

const setupReason: Record<SandboxSetupCode, MessageKey> = {
  'command-not-found': 'sandbox.setup.commandNotFound',
  'npx-unsupported': 'sandbox.setup.npxUnsupported',
  'package-install-failed': 'sandbox.setup.packageInstallFailed',
  'uv-missing': 'sandbox.setup.uvMissing',
  'folder-changed': 'sandbox.setup.folderChanged',
  'network-policy-unavailable': 'sandbox.setup.networkPolicyUnavailable',
};

/** The reason an advisory server is not confined, in the person's language (falls back to the host's English). */
export function advisoryReasonText(t: Translate, look: Extract<ConfinementLook, { state: 'advisory' }>): string {
  return look.reasonCode ? t(advisoryReason[look.reasonCode]) : (look.reason ?? t('sandbox.reason.unknown'));
}

/** The badge's one line: "Enforced (OS sandbox)", "Advisory (roots only): <reason>", "Off (you turned it off)". */
export function confinementLabel(t: Translate, look: ConfinementLook): string {
  switch (look.state) {
    case 'advisory':
      return t('sandbox.withReason', { label: t(longLabel.advisory), reason: advisoryReasonText(t, look) });
    case 'not-started':
      return t('sandbox.withReason', { label: t(longLabel['not-started']), reason: t(setupReason[look.code]) });
    default:
      return t(longLabel[look.state]);
  }
}

/** One word or two for the matrix column header. */
export function confinementShortLabel(t: Translate, look: ConfinementLook): string {
  return t(shortLabel[look.state]);
}

/** What a read-only grant means for this server: enforced, or only asked for. */
export function grantModeLabel(t: Translate, readOnly: boolean, look: ConfinementLook): string {
  if (!readOnly) return t('grantMode.readWrite');
  return enforcesModes(look) ? t('grantMode.readOnly') : t('grantMode.readOnlyAdvisory');
}

const proxyConnection: Record<ProxiedSession['state'], ConnectionState> = {
  connecting: 'connecting',
  restarting: 'connecting',
  draining: 'connected',
  ready: 'connected',
  'held-off': 'error',
  stopped: 'disabled',
};

/**
 * The same server run by `mcp-roots proxy` in another app's process: its sandbox is that process's
 * (it may differ: bwrap missing from that app's PATH), so its badge reads the session's report.
 */
export function proxySessionLook(server: Pick<ServerView, 'transport' | 'sandbox'>, session: Pick<ProxiedSession, 'state' | 'confinement'>): ConfinementLook {
  return confinementLook({
    transport: server.transport,
    sandbox: server.sandbox,
    enabled: true,
    status: { state: proxyConnection[session.state], rootsRequestCount: 0, listChangedCount: 0, confinement: session.confinement },
  });
}
