// The few facts about this machine's system folders that a bwrap command line depends on, read once
// so that the plan itself stays a pure function (and tests can hand it another machine's layout).
import fs from 'node:fs';

/** Top-level runtime folders: on merged-/usr systems (Debian 12, Fedora, Arch) they are symlinks into /usr. */
export const RUNTIME_TOP_LEVEL = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'] as const;

/**
 * The part of /etc a program needs to run, resolve names and speak TLS, and nothing that holds a
 * secret (/etc/shadow, ssh host keys, sudoers, NetworkManager's Wi-Fi passwords) or identifies the
 * machine (machine-id: no D-Bus inside, so nothing needs it):
 * - dynamic linking: ld.so.cache / ld.so.conf(.d);
 * - users and names: passwd, group (world-readable; getpwuid and `id` need them), nsswitch.conf,
 *   hosts, host.conf, resolv.conf, gai.conf;
 * - TLS: ssl (Debian; openssl.cnf and certs), pki and crypto-policies (Fedora), ca-certificates;
 * - Debian's alternatives (python3, editor… are symlinks through it), localtime and timezone
 *   (logs in local time), os-release (some runtimes report it), mime.types;
 * - browsers and programs that draw text: fonts (fontconfig's configuration; a screenshot with no
 *   fonts has no text), chromium.d and chromium (Debian's /usr/bin/chromium wrapper sources
 *   chromium.d and aborts without it; its policies), gitconfig (git's system settings).
 * Flatpak binds or regenerates the same families; sandbox-runtime binds all of / read-only instead,
 * which is what we avoid: a server running as root would read /etc/shadow.
 */
export const ETC_ALLOWED = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'resolv.conf',
  'gai.conf',
  'ssl',
  'pki',
  'crypto-policies',
  'ca-certificates',
  'ca-certificates.conf',
  'alternatives',
  'localtime',
  'timezone',
  'os-release',
  'mime.types',
  'fonts',
  'chromium.d',
  'chromium',
  'gitconfig',
] as const;

export type TopLevelEntry = { path: string; symlinkTo: string } | { path: string; directory: true };

export interface HostLayout {
  /** Each runtime top-level folder that exists, as a symlink (kept as one) or a real folder. */
  topLevel: TopLevelEntry[];
  /** The allowed /etc entries that exist here, as absolute paths. */
  etc: string[];
}

export function readHostLayout(): HostLayout {
  const topLevel: TopLevelEntry[] = [];
  for (const entry of RUNTIME_TOP_LEVEL) {
    try {
      const stat = fs.lstatSync(entry);
      if (stat.isSymbolicLink()) topLevel.push({ path: entry, symlinkTo: fs.readlinkSync(entry) });
      else if (stat.isDirectory()) topLevel.push({ path: entry, directory: true });
    } catch {
      // Absent on this machine (lib32, libx32 usually).
    }
  }
  const etc = ETC_ALLOWED.map((name) => `/etc/${name}`).filter((entry) => fs.existsSync(entry));
  return { topLevel, etc };
}

let cached: HostLayout | undefined;

/** Read once per process: these folders do not change under a running app. */
export function hostLayout(): HostLayout {
  cached ??= readHostLayout();
  return cached;
}
