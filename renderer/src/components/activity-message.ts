// An activity entry's words in the person's language, from its code (or its failure's code). The
// host's English is the fallback: a library's message has no code and is shown as written.
import type { ActivityCode, ActivityEntry } from '../../../shared/domain.js';
import type { MessageKey } from '../i18n/messages.js';
import type { Translate } from '../i18n/translate.js';
import { failureWords } from './server-failure-text.js';

const MESSAGE_KEYS: Record<ActivityCode, MessageKey> = {
  connected: 'activityMsg.connected',
  disconnected: 'activityMsg.disconnected',
  'closed-by-server': 'activityMsg.closedByServer',
  'closed-for-flooding': 'activityMsg.closedForFlooding',
  'reconnect-requested': 'activityMsg.reconnectRequested',
  'roots-answered': 'activityMsg.rootsAnswered',
  'list-changed-sent': 'activityMsg.listChangedSent',
  'list-changed-failed': 'activityMsg.listChangedFailed',
  'consent-raised': 'activityMsg.consentRaised',
  'started-with-folders': 'activityMsg.startedWithFolders',
  'no-reask': 'activityMsg.noReask',
  'slow-probe-answer': 'activityMsg.slowProbeAnswer',
  'restart-arguments': 'activityMsg.restartArguments',
  'restart-mounts': 'activityMsg.restartMounts',
  'restart-forget': 'activityMsg.restartForget',
  'restart-reask': 'activityMsg.restartReask',
  'restart-retry': 'activityMsg.restartRetry',
  'held-blocked-path': 'activityMsg.heldBlockedPath',
  'held-setup': 'activityMsg.heldSetup',
  'config-enabled': 'activityMsg.configEnabled',
  'config-disabled': 'activityMsg.configDisabled',
  'config-sharing-on': 'activityMsg.configSharingOn',
  'config-sharing-off': 'activityMsg.configSharingOff',
  'config-sandbox-on': 'activityMsg.configSandboxOn',
  'config-sandbox-off': 'activityMsg.configSandboxOff',
  'config-network-on': 'activityMsg.configNetworkOn',
  'config-network-off': 'activityMsg.configNetworkOff',
  'config-changed': 'activityMsg.configChanged',
  'sandbox-verified': 'activityMsg.sandboxVerified',
  'sandbox-unverified': 'activityMsg.sandboxUnverified',
  'sandbox-blocked': 'activityMsg.sandboxBlocked',
  'sandbox-blocked-read-only': 'activityMsg.sandboxBlockedReadOnly',
  'read-paced': 'activityMsg.readPaced',
  'read-paused': 'activityMsg.readPaused',
  'flood-closed': 'activityMsg.floodClosed',
  'long-line': 'activityMsg.longLine',
};

export function activityMessage(t: Translate, entry: ActivityEntry): string {
  if (entry.failure) {
    const { lead, hint } = failureWords(t, entry.failure);
    return hint ? `${lead} ${hint}` : lead;
  }
  const key = entry.code ? MESSAGE_KEYS[entry.code] : undefined;
  if (!key) return entry.message;
  const params = entry.params ?? {};
  // A connect without a server name says only the protocol.
  if (entry.code === 'connected' && !params.server) return t('activityMsg.connectedBare', params);
  return t(key, params);
}
