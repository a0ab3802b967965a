// Paths as a server sees them. A server in a container, in WSL or on another machine finds the
// host's folders at other paths (`docker run -v /home/me/proj:/projects/proj`): its `pathMap` says
// where, and the longest hostPath that contains a folder wins. What the server is told (its roots'
// URIs, `${roots}` in its arguments) uses the mapped path; what the host itself does with the folder
// (the sandbox's mounts, watching it, docker's `-v` source) uses the host path.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PathMapping } from '../../../shared/domain.js';

/** Which path rules a server path follows: `C:\…` and `\\server\share` are Windows', the rest POSIX. */
export function serverPathFlavor(serverPath: string): 'posix' | 'windows' {
  return /^[a-zA-Z]:[\\/]|^[\\/]{2}[^\\/]/.test(serverPath) ? 'windows' : 'posix';
}

/**
 * The path the server sees `hostPath` at, or undefined when no mapping covers it. A mapping covers
 * its own folder and everything below it, never a sibling that merely starts with the same letters
 * (`/home/me/proj` does not cover `/home/me/project`).
 */
export function mapToServer(hostPath: string, pathMap: readonly PathMapping[] | undefined): string | undefined {
  if (!pathMap || pathMap.length === 0) return undefined;
  const host = hostPaths(hostPath);
  let best: { mapping: PathMapping; rest: string[] } | undefined;
  let bestLength = -1;
  for (const mapping of pathMap) {
    const from = host.normalize(mapping.hostPath).replace(trailingSeparators(host), '') || host.sep;
    const rest = below(host, from, hostPath);
    if (rest && from.length > bestLength) {
      best = { mapping, rest };
      bestLength = from.length;
    }
  }
  if (!best) return undefined;
  const server = serverPathFlavor(best.mapping.serverPath) === 'windows' ? path.win32 : path.posix;
  return best.rest.length === 0 ? best.mapping.serverPath : server.join(best.mapping.serverPath, ...best.rest);
}

/** The file:// URI of a path in the server's own file system (its rules, not the host's). */
export function serverPathToUri(serverPath: string): string {
  return pathToFileURL(serverPath, { windows: serverPathFlavor(serverPath) === 'windows' }).href;
}

const hostPaths = (hostPath: string) => (serverPathFlavor(hostPath) === 'windows' ? path.win32 : path.posix);
const trailingSeparators = (paths: typeof path.posix) => (paths === path.win32 ? /[\\/]+$/ : /\/+$/);

/** The segments of `target` below `folder` ([] for the folder itself), or undefined when it is not inside. */
function below(paths: typeof path.posix, folder: string, target: string): string[] | undefined {
  const relative = paths.relative(folder, paths.normalize(target));
  if (relative === '') return [];
  if (relative === '..' || relative.startsWith(`..${paths.sep}`) || paths.isAbsolute(relative)) return undefined;
  return relative.split(paths.sep);
}
