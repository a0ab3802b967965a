// The registry's secrets between memory and disk: the store opens them after every read and seals
// them before every write, so the host works with clear values (comparing configs, restarting
// servers) while config.json holds only sealed ones. A value that cannot be opened stays sealed
// in memory; the server that needs it then refuses to start with a SealedSecretError.
import type { Notice, Registry, ServerRecord, TransportConfig } from '../../../shared/domain.js';
import { hasPlainSecrets, openTransport, prefixOfCodec, SealedSecretError, sealTransport, type SecretCodec } from './secret-codec.js';

type StoreNotice = Omit<Notice, 'id' | 'at'>;

export class RegistrySecrets {
  /** Opened transport -> its sealed form, so an unchanged server is not re-encrypted on every write. */
  private readonly sealedOf = new WeakMap<TransportConfig, TransportConfig>();
  /** Same for a whole servers array: most edits (roots, grants) leave it as it was. */
  private readonly sealedServers = new WeakMap<readonly ServerRecord[], ServerRecord[]>();
  private warnedUnprotected = false;
  private pending: StoreNotice[] = [];

  constructor(private readonly codec: SecretCodec) {}

  /** After a read: clear values for the host; what cannot be opened stays sealed, with a notice. */
  open(registry: Registry): { registry: Registry; notices: StoreNotice[] } {
    const unopened: string[] = [];
    let changed = false;
    const servers = registry.servers.map((server) => {
      let opened: TransportConfig;
      try {
        opened = openTransport(server.transport, this.codec);
      } catch (error) {
        if (!(error instanceof SealedSecretError)) throw error;
        unopened.push(server.name);
        return server;
      }
      if (opened === server.transport) return server;
      changed = true;
      // Only a form fully sealed by our own codec may be reused: a plain value beside it must still
      // be sealed, and one sealed by the other codec is re-sealed so every process can read it.
      if (!hasPlainSecrets(server.transport, this.writerPrefix)) this.sealedOf.set(opened, server.transport);
      return { ...server, transport: opened };
    });
    const notices: StoreNotice[] = [];
    if (unopened.length > 0) {
      notices.push({
        level: 'warning',
        code: 'secrets-unreadable',
        message:
          `Secrets of ${unopened.join(', ')} cannot be decrypted on this system (encrypted by another user, machine or ` +
          'keychain). Those servers will not start until you re-enter them.',
      });
    }
    const result = changed ? { ...registry, servers } : registry;
    if (changed && !this.needsSealing(registry)) this.sealedServers.set(result.servers, registry.servers);
    return { registry: result, notices };
  }

  /**
   * Before a write: every secret sealed, where the OS offers protection. A value read sealed is
   * written back sealed even then (never downgraded to clear text).
   */
  seal(registry: Registry): Registry {
    const known = this.sealedServers.get(registry.servers);
    if (known) return known === registry.servers ? registry : { ...registry, servers: known };
    let changed = false;
    const servers = registry.servers.map((server) => {
      let sealed = this.sealedOf.get(server.transport);
      if (!sealed) {
        const tooLong: string[] = [];
        sealed = sealTransport(server.transport, this.codec, (name) => tooLong.push(name));
        if (tooLong.length > 0) this.pending.push(tooLongNotice(server.name, tooLong));
        // Cached even when nothing changed: a too-long value is then reported once, not per write.
        this.sealedOf.set(server.transport, sealed);
      }
      if (sealed === server.transport) return server;
      changed = true;
      return { ...server, transport: sealed };
    });
    const sealedServers = changed ? servers : registry.servers;
    this.sealedServers.set(registry.servers, sealedServers);
    return changed ? { ...registry, servers: sealedServers } : registry;
  }

  /** Notices raised while sealing (values too long to seal), each handed out once. */
  takeNotices(): StoreNotice[] {
    const notices = this.pending;
    this.pending = [];
    return notices;
  }

  /** True when the file holds a secret in clear (or sealed by the other codec) that this codec would seal. */
  needsSealing(registry: Registry): boolean {
    return this.codec.available && registry.servers.some((server) => hasPlainSecrets(server.transport, this.writerPrefix));
  }

  private get writerPrefix(): string {
    return prefixOfCodec(this.codec);
  }

  /**
   * Once per process: a notice that secrets are written in clear because the OS offers no
   * protection (no keychain; on Linux a "basic_text" store, whose key is built in).
   */
  unprotectedNotice(registry: Registry): StoreNotice | undefined {
    if (this.codec.available || this.warnedUnprotected) return undefined;
    if (!registry.servers.some((server) => hasPlainSecrets(server.transport))) return undefined;
    this.warnedUnprotected = true;
    const reason = this.codec.unavailableReason ?? 'No system keychain is available.';
    const why = keychainGap(reason);
    return {
      level: 'warning',
      code: why ? `secrets-unprotected-${why}` : 'secrets-unprotected',
      // The next step first, the keychain's own words last (#30 item 4): they are for a bug report.
      message: `Secrets in server configs (env values, HTTP headers and URL credentials) are stored unencrypted in config.json: no OS keychain answers this process.${why ? ` ${KEYCHAIN_STEPS[why]}` : ''} The keychain said: ${keychainWords(reason)}`,
    };
  }
}

/** The keychain library's own words, without the codec's frame ("No OS keychain is available to this process (…)."). */
function keychainWords(reason: string): string {
  const framed = /^No OS keychain is available to this process \((.*)\)\.$/s.exec(reason);
  const words = (framed?.[1] ?? reason).trim();
  return /[.!?]$/.test(words) ? words : `${words}.`;
}

/** What is missing, from the keychain library's words: no D-Bus session at all, or no Secret Service on it. */
export function keychainGap(reason: string): 'no-session' | 'no-service' | undefined {
  if (/DBUS_SESSION_BUS_ADDRESS|autolaunch|session bus|Failed to connect to socket/i.test(reason)) return 'no-session';
  if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service files|No such interface.*Secret/i.test(reason)) return 'no-service';
  return undefined;
}

/** The next step for each gap, in the CLI's words (the UI words them from the notice's code). */
export const KEYCHAIN_STEPS = {
  'no-session':
    'To keep them encrypted, run it in a desktop session, where D-Bus and a keychain run (over SSH or in a container there is none), or start a keychain for this shell: dbus-run-session -- sh, then gnome-keyring-daemon --unlock (Debian: apt install gnome-keyring dbus-daemon).',
  'no-service': 'To keep them encrypted, install and start a keychain that speaks the Secret Service (Debian: apt install gnome-keyring, then log in again), or KWallet on KDE.',
} as const;

function tooLongNotice(serverName: string, names: string[]): StoreNotice {
  return {
    level: 'warning',
    code: 'secrets-too-long',
    message: `${serverName}: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} too long to store encrypted and ${names.length === 1 ? 'is' : 'are'} stored unencrypted.`,
  };
}
