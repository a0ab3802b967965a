// `mcp-roots status SERVER --network`: the server's record of network destinations (names looked
// up, addresses reached or refused), as the app and its proxies keep it (egress/network-record.ts).
import type { ServerRecord } from '../../shared/domain.js';
import type { NetworkRecordRow } from '../../shared/network-record.js';
import { suggestedHosts } from '../../shared/known-server-hosts.js';
import { networkRecordFile, readNetworkRecord } from '../host/sandbox/egress/network-record.js';
import { shellWord } from '../../shared/shell-word.js';

export interface NetworkReport {
  server: string;
  /** Hosts its package usually needs (shared/known-server-hosts.ts) and its list lacks: offered, never added. */
  suggested: string[];
  /** What its settings let it reach. */
  policy: 'off' | 'any host' | 'allowed hosts';
  allowHosts?: string[] | undefined;
  rows: NetworkRecordRow[];
}

export function networkReport(dataDir: string, server: ServerRecord): NetworkReport {
  const policy = !server.network ? 'off' : server.allowHosts ? 'allowed hosts' : 'any host';
  const commandLine = server.transport.type === 'stdio' ? [server.transport.command, ...server.transport.args] : [];
  const suggested = server.network ? suggestedHosts(commandLine).filter((host) => !server.allowHosts?.includes(host)) : [];
  return { server: server.name, suggested, policy, ...(server.allowHosts ? { allowHosts: server.allowHosts } : {}), rows: readNetworkRecord(networkRecordFile(dataDir, server.id)) };
}

export function formatNetworkReport(report: NetworkReport): string {
  const head =
    report.policy === 'off'
      ? `${report.server}: network off`
      : report.policy === 'any host'
        ? `${report.server}: network on, any host (no record is kept: names and connections are recorded for a server with a list of allowed hosts)`
        : `${report.server}: network on, allowed hosts: ${report.allowHosts?.length ? report.allowHosts.join(', ') : 'none'}`;
  const offer = report.suggested.length ? [`Its package usually needs: ${report.suggested.join(', ')} (mcp-roots servers set ${shellWord(report.server)} ${report.suggested.map((host) => `--allow-host ${host}`).join(' ')})`] : [];
  if (report.rows.length === 0) return [head, ...offer, ...(report.policy === 'allowed hosts' ? ['Nothing recorded yet.'] : [])].join('\n');
  const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const lines = report.rows.map((row) => {
    const what = row.kind === 'lookup' ? `looked up ${row.target}` : `connection to ${row.target}`;
    const detail = row.kind === 'lookup' ? (row.addresses?.length ? ` → ${row.addresses.join(', ')}` : '') : row.names?.length ? ` (${row.names.join(', ')})` : '';
    return `  ${when(row.last)}  ${row.verdict === 'refused' ? 'REFUSED' : 'allowed'}  ${what}${detail}${row.count > 1 ? `  ×${row.count} since ${when(row.first)}` : ''}`;
  });
  return [head, ...offer, ...lines].join('\n');
}
