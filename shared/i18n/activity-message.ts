// An activity entry's words in a language, from its code and parameters (or its failure's code, or
// its grants). The host words its English `message` with this too (activity-log.ts), and the proxy
// its stderr lines: one table for every UI and the CLI (#29 item 3).
import type { ActivityCode, ActivityEvent, LiveRestartWhy } from '../activity-event.js';
import { REPO_SEARCH_DEPTH } from '../protected-names.js';
import type { ActivityEntry, ChangedFolder, ChangeSource, GrantChanges } from '../domain.js';
import type { MessageKey } from './messages.js';
import { createTranslator, type Translate } from './translate.js';
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
  'held-exits-at-start': 'activityMsg.heldExitsAtStart',
  'config-enabled': 'activityMsg.configEnabled',
  'config-disabled': 'activityMsg.configDisabled',
  'config-sharing-on': 'activityMsg.configSharingOn',
  'config-sharing-off': 'activityMsg.configSharingOff',
  'config-sandbox-on': 'activityMsg.configSandboxOn',
  'config-sandbox-off': 'activityMsg.configSandboxOff',
  'config-network-on': 'activityMsg.configNetworkOn',
  'config-network-off': 'activityMsg.configNetworkOff',
  'config-own-sandboxes-on': 'activityMsg.configOwnSandboxesOn',
  'config-own-sandboxes-off': 'activityMsg.configOwnSandboxesOff',
  'config-local-ports': 'activityMsg.configLocalPorts',
  'config-writable': 'activityMsg.configWritable',
  'config-hosts-limited': 'activityMsg.configHostsLimited',
  'config-hosts-any': 'activityMsg.configHostsAny',
  'hosts-live': 'activityMsg.hostsLive',
  'network-refused': 'activityMsg.networkRefused',
  'config-changed': 'activityMsg.configChanged',
  'config-limits': 'activityMsg.configLimits',
  'limit-tasks': 'activityMsg.limitTasks',
  'limit-memory': 'activityMsg.limitMemory',
  'limit-tmp': 'activityMsg.limitTmp',
  'limit-files': 'activityMsg.limitFiles',
  'sandbox-verified': 'activityMsg.sandboxVerified',
  'sandbox-verified-view': 'activityMsg.sandboxVerifiedView',
  'sandbox-unverified': 'activityMsg.sandboxUnverified',
  'live-applied': 'activityMsg.liveApplied',
  'restart-live': 'activityMsg.restartLive.failed',
  'sandbox-blocked': 'activityMsg.sandboxBlocked',
  'sandbox-blocked-read-only': 'activityMsg.sandboxBlockedReadOnly',
  'read-paced': 'activityMsg.readPaced',
  'read-paused': 'activityMsg.readPaused',
  'flood-closed': 'activityMsg.floodClosed',
  'long-line': 'activityMsg.longLine',
  'grants-changed': 'activityMsg.granted',
  'drain-waiting': 'lifecycle.drainNote',
  'drain-cut': 'activityMsg.drainCut',
  'file-op': 'activityMsg.file.write',
  'network-row': 'activityMsg.network.allowedLookup',
  'server-failure': 'activityMsg.errorText',
  'error-text': 'activityMsg.errorText',
  stderr: 'activityMsg.stderr',
};

/** A live change that became a restart, by why (live-grants.ts and the sandbox say which). */
const LIVE_RESTART_KEYS: Record<LiveRestartWhy, MessageKey> = {
  unavailable: 'activityMsg.restartLive.unavailable',
  'not-running': 'activityMsg.restartLive.notRunning',
  failed: 'activityMsg.restartLive.failed',
  unverified: 'activityMsg.restartLive.unverified',
  'view-gone': 'activityMsg.restartLive.viewGone',
  'view-refused': 'activityMsg.restartLive.viewRefused',
  'hosts-failed': 'activityMsg.restartLive.hostsFailed',
};

/** A file operation of a server's record, by its op (view.c's words). */
const FILE_OP_KEYS: Record<string, MessageKey> = {
  create: 'activityMsg.file.create',
  mkdir: 'activityMsg.file.mkdir',
  write: 'activityMsg.file.write',
  truncate: 'activityMsg.file.truncate',
  rename: 'activityMsg.file.rename',
  delete: 'activityMsg.file.delete',
  rmdir: 'activityMsg.file.rmdir',
  chmod: 'activityMsg.file.chmod',
  symlink: 'activityMsg.file.symlink',
  link: 'activityMsg.file.link',
};

/** The rule that refused it, as the view names it (view.c refusal_rule). */
const FILE_RULE_KEYS: Record<string, MessageKey> = {
  'read-only grant': 'activityMsg.fileRule.readOnly',
  'protected name': 'activityMsg.fileRule.protected',
  'its grant was revoked': 'activityMsg.fileRule.revoked',
  'a protected path or a mount point lies there': 'activityMsg.fileRule.pinned',
};

function recordWhat(t: Translate, entry: ActivityEntry): string | undefined {
  const params = entry.params ?? {};
  if (entry.code === 'file-op') {
    const key = FILE_OP_KEYS[String(params.op)];
    if (!key) return undefined;
    const what = t(key, params);
    if (params.rule === undefined) return what;
    const ruleKey = FILE_RULE_KEYS[String(params.rule)];
    return t('activityMsg.fileRefused', { what, rule: ruleKey ? t(ruleKey) : String(params.rule) });
  }
  if (entry.code === 'network-row') {
    const refused = params.verdict === 'refused';
    const key: MessageKey = params.what === 'lookup' ? (refused ? 'activityMsg.network.refusedLookup' : 'activityMsg.network.allowedLookup') : refused ? 'activityMsg.network.refusedConnect' : 'activityMsg.network.allowedConnect';
    return t(key, params);
  }
  return undefined;
}

const SOURCE_KEYS: Record<ChangeSource, MessageKey> = {
  'this-app': 'activitySource.thisApp',
  cli: 'activitySource.cli',
  other: 'activitySource.other',
};

export function activityMessage(t: Translate, entry: ActivityEntry): string {
  const what = activityWhat(t, entry);
  // A code this build does not know is shown in the host's English, which names its source already: said once (#30 item 5).
  if (!entry.source || what === entry.message) return what;
  // The message's own full stop gives way to the source's: "Switched off, from the CLI."
  return t('activityMsg.withSource', { what: what.replace(/[.。]$/, ''), source: t(SOURCE_KEYS[entry.source]) });
}

/** "Granted ~/code/a (read-only); revoked ~/b (read-write)" in the person's language. */
export function grantChangesText(t: Translate, changes: GrantChanges): string {
  const list = (folders: readonly ChangedFolder[]) =>
    folders
      .map((folder) => t('activityMsg.folderMode', { path: folder.shown, mode: t(folder.mode === 'read-only' ? 'grantMode.readOnly' : 'grantMode.readWrite') }))
      .join(t('activityMsg.listSeparator'));
  const parts: string[] = [];
  if (changes.granted.length > 0) parts.push(t('activityMsg.granted', { folders: list(changes.granted) }));
  if (changes.revoked.length > 0) parts.push(t('activityMsg.revoked', { folders: list(changes.revoked) }));
  if (changes.modeChanged.length > 0) parts.push(t('activityMsg.modeChanged', { folders: list(changes.modeChanged) }));
  return parts.join(t('activityMsg.partSeparator'));
}

function activityWhat(t: Translate, entry: ActivityEntry): string {
  if (entry.grants) return grantChangesText(t, entry.grants);
  if (entry.failure) {
    const { lead, hint } = failureWords(t, entry.failure);
    return hint ? `${lead} ${hint}` : lead;
  }
  const record = recordWhat(t, entry);
  if (record !== undefined) return record;
  // A code this build does not know (a newer host's): its English, as the host wrote it.
  const key = MESSAGE_KEYS[entry.code] as MessageKey | undefined;
  if (!key) return entry.message;
  const params = entry.params ?? {};
  if (entry.code === 'restart-live') {
    const liveKey = LIVE_RESTART_KEYS[params.why as LiveRestartWhy] as MessageKey | undefined;
    if (!liveKey) return entry.message;
    const what = t(liveKey);
    return params.detail ? t('activityMsg.withDetail', { what, detail: params.detail }) : t('activityMsg.plain', { what });
  }
  // A connect without a server name says only the protocol.
  if (entry.code === 'connected' && !params.server) return t('activityMsg.connectedBare', params);
  if (entry.code === 'sandbox-verified') {
    const verified = t(params.sockets === 'own-network' ? 'activityMsg.sandboxVerifiedOwnNetwork' : 'activityMsg.sandboxVerified', params);
    // Bind mounts protect what their start found: said with every check, as the host's detail says it.
    return params.static === 'yes' ? `${verified} ${t('activityMsg.staticProtection', { depth: REPO_SEARCH_DEPTH })}` : verified;
  }
  if (entry.code === 'sandbox-verified-view' && params.sockets === 'own-network') return t('activityMsg.sandboxVerifiedViewOwnNetwork', params);
  return t(key, params);
}

const english = createTranslator('en');

/** An entry's English: the activity log's `message`, the proxy's stderr line, an export's text. */
export function englishActivity(entry: Omit<ActivityEntry, 'seq' | 'at' | 'message'>): string {
  return activityMessage(english, { ...entry, seq: 0, at: 0, message: '' });
}

/** An event's English alone (no kind, no source): the proxy's stderr, a restart's reason, an error's text. */
export function englishOf(event: ActivityEvent): string {
  return englishActivity({ kind: 'info', ...event } as Omit<ActivityEntry, 'seq' | 'at' | 'message'>);
}
