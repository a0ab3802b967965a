// A stdio server started as `docker run … IMAGE …` (or podman's same command line) runs in a
// container that sees only what is mounted into it. The app adds one `-v host:server[:ro]` per
// effective folder, read-only where the grant is, so the container's mounts are its grants; the
// server path is the folder's pathMap target, or the host path itself when unmapped.
//
// What this is not: the OS sandbox. The `docker` command only asks the docker daemon to start the
// container; wrapping that command in bwrap would confine the client, not the server. Such a server
// runs with its confinement "advisory", saying why (stdio-start.ts).
import path from 'node:path';
import type { StdioTransportConfig, TransportConfig } from '../../../shared/domain.js';
import { CodedError } from '../../../shared/result.js';
import type { ServerConfinement } from '../../../shared/sandbox.js';
import type { ExposedFolder } from '../access/exposure.js';

const CONTAINER_CLIS = new Set(['docker', 'podman']);

/** The index just after `run` (`docker run`, `docker container run`), or -1 when it is no container start. */
function runIndex(transport: TransportConfig): number {
  if (transport.type !== 'stdio') return -1;
  // win32's basename splits at both separators: a Windows path is recognised on any host.
  const command = path.win32.basename(transport.command).replace(/\.exe$/i, '').toLowerCase();
  if (!CONTAINER_CLIS.has(command)) return -1;
  const [first, second] = transport.args;
  if (first === 'run') return 1;
  if (first === 'container' && second === 'run') return 2;
  return -1;
}

export function isContainerRun(transport: TransportConfig): transport is StdioTransportConfig {
  return runIndex(transport) !== -1;
}

/**
 * The command line with a mount for each folder, placed right after `run` (before the image, so
 * docker reads them as its own options). A folder whose path holds `:` cannot be written in `-v`'s
 * syntax: it is refused by name rather than mounted somewhere else.
 */
export function withContainerMounts(transport: StdioTransportConfig, folders: readonly ExposedFolder[]): StdioTransportConfig {
  const at = runIndex(transport);
  if (at === -1) return transport;
  const mounts = folders.flatMap((folder) => {
    for (const side of [folder.path, folder.serverPath]) {
      // A Windows drive letter (`C:\…`) is docker's own syntax; any other `:` would split the spec.
      if (side.replace(/^[a-zA-Z]:[\\/]/, '').includes(':')) {
        throw new CodedError('invalid-input', `The folder "${side}" contains ":", which docker's -v cannot carry: it was not mounted, so the server was not started.`);
      }
    }
    return ['-v', `${folder.path}:${folder.serverPath}${folder.mode === 'read-only' ? ':ro' : ''}`];
  });
  return { ...transport, args: [...transport.args.slice(0, at), ...mounts, ...transport.args.slice(at)] };
}

export const CONTAINER_CONFINEMENT: ServerConfinement = {
  state: 'advisory',
  reasonCode: 'container',
  reason:
    'It runs in a container (docker run): the app mounts its granted folders into it (-v, read-only as granted), and the container sees those and whatever else its own arguments mount. ' +
    'The docker command only asks the docker daemon to start it, so the OS sandbox around that command would confine nothing; the app does not check the container.',
};
