// Folders whose grant deserves a plain warning before it is made: the home folder itself, where
// keys, tokens and keychains live, browser profiles (cookies, saved passwords), the app's own data
// folder (the registry: a server that could write it could widen its own grants), and the system.
// A server names a folder in its own output ("ENOENT … ~/.ssh/id_ed25519") and the app offers to
// grant it; that offer is a suggestion the server controls, so the confirmation says what is at stake.
import path from 'node:path';
import type { SensitiveFolderKind } from '../../../shared/sandbox.js';
import { isWithin } from './sandbox-types.js';

/** Below HOME: credentials and keychains. */
const SECRETS = ['.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker', '.config/gcloud', '.netrc', '.password-store', '.local/share/keyrings', 'Library/Keychains', '.config/gh', '.npmrc', '.pypirc'];
/** Below HOME: browser profiles. */
const BROWSERS = [
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.var/app/org.mozilla.firefox',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Safari',
];
const SYSTEM = ['/', '/etc', '/root', '/boot', '/usr', '/var', '/proc', '/sys', '/dev'];

/** What is at stake, in the CLI's words (the app words the same in each language: grantSuggestion.sensitive.*). */
export const SENSITIVE_WHY: Record<SensitiveFolderKind, string> = {
  home: 'it is your home folder, or holds it: every project, key and token in it would be open to the server',
  credentials: 'it holds keys or credentials (SSH, GPG, cloud, keychains): a server that can read them can act as you elsewhere',
  'browser-profile': 'it is a browser profile: its cookies and saved passwords would be open to the server',
  'app-data': "it is, or holds, this app's data folder, where every grant is kept (hidden from every server, but a grant this wide is rarely what a server needs)",
  system: "it is a system folder: the system's files and configuration would be open to the server",
};

/** Why granting `folder` is risky, or undefined for an ordinary folder. A folder that holds a sensitive one counts as it. */
export function sensitiveFolder(folder: string, places: { home: string; dataDir: string }): SensitiveFolderKind | undefined {
  const holdsOrIsIn = (place: string) => isWithin(folder, place) || isWithin(place, folder);
  if (SYSTEM.includes(folder)) return 'system';
  // The home folder itself or above it: everything of the person's at once.
  if (isWithin(places.home, folder)) return 'home';
  if (SECRETS.some((entry) => holdsOrIsIn(path.join(places.home, entry)))) return 'credentials';
  if (holdsOrIsIn(places.dataDir)) return 'app-data';
  if (BROWSERS.some((entry) => holdsOrIsIn(path.join(places.home, entry)))) return 'browser-profile';
  return undefined;
}
