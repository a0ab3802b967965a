// Plain-text tables for people; `--json` prints the same data for scripts.
import type { HostState } from '../../shared/domain.js';

export function formatRoots(state: HostState): string {
  if (state.roots.length === 0) return 'No roots yet. Add one: mcp-roots roots add /path/to/folder';
  return state.roots
    .map((root) => {
      const target = root.isLink ? ` -> ${root.canonicalPath}` : '';
      const reason = root.access.reason ? ` (${root.access.reason})` : '';
      return `${root.id}  ${root.name}  ${root.path}${target}  [${root.access.state}]${reason}`;
    })
    .join('\n');
}

export function formatServers(state: HostState): string {
  if (state.servers.length === 0) {
    return 'No servers yet. Add one: mcp-roots servers add NAME --command CMD [--arg A]...';
  }
  const names = new Map(state.roots.map((root) => [root.id, root.name]));
  return state.servers
    .map((server) => {
      const where =
        server.transport.type === 'stdio'
          ? [server.transport.command, ...server.transport.args].join(' ')
          : `${server.transport.type} ${server.transport.url}`;
      const flags = [server.enabled ? 'enabled' : 'disabled', server.sharing ? 'sharing' : 'not sharing'].join(', ');
      const granted = server.grantedRootIds.map((id) => names.get(id) ?? id).join(', ') || 'nothing';
      return `${server.id}  ${server.name}  (${flags})\n    ${where}\n    granted: ${granted}`;
    })
    .join('\n');
}

export function formatStatus(state: HostState): string {
  return [`Registry: ${state.configPath}`, '', 'Roots:', formatRoots(state), '', 'Servers:', formatServers(state)].join('\n');
}
