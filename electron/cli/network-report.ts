// `mcp-roots status SERVER --network`: the server's record of network destinations (names looked
// up, addresses reached or refused), as the app and its proxies keep it (egress/network-record.ts).
import type { ServerRecord } from '../../shared/domain.js';
import type { NetworkRecordRow } from '../../shared/network-record.js';
import { networkRecordFile, readNetworkRecord } from '../host/sandbox/egress/network-record.js';

export interface NetworkReport {
  server: string;
  /** What its settings let it reach. */
  policy: 'off' | 'any host' | 'allowed hosts';
  allowHosts?: string[] | undefined;
  rows: NetworkRecordRow[];
}

export function networkReport(dataDir: string, server: ServerRecord): NetworkReport {
  const policy = !server.network ? 'off' : server.allowHosts ? 'allowed hosts' : 'any host';
  return { server: server.name, policy, ...(server.allowHosts ? { allowHosts: server.allowHosts } : {}), rows: readNetworkRecord(networkRecordFile(dataDir, server.id)) };
}

export function formatNetworkReport(report: NetworkReport): string {
  const head =
    report.policy === 'off'
      ? `${report.server}: network off`
      : report.policy === 'any host'
        ? `${report.server}: network on, any host (no record is kept: names and connections are recorded for a server with a list of allowed hosts)`
        : `${report.server}: network on, allowed hosts: ${report.allowHosts?.length ? report.allowHosts.join(', ') : 'none'}`;
  if (report.rows.length === 0) return report.policy === 'allowed hosts' ? `${head}\nNothing recorded yet.` : head;
  const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const lines = report.rows.map((row) => {
    const what = row.kind === 'lookup' ? `looked up ${row.target}` : `connected to ${row.target}`;
    const detail = row.kind === 'lookup' ? (row.addresses?.length ? ` → ${row.addresses.join(', ')}` : '') : row.names?.length ? ` (${row.names.join(', ')})` : '';
    return `  ${when(row.last)}  ${row.verdict === 'refused' ? 'REFUSED' : 'allowed'}  ${what}${detail}${row.count > 1 ? `  ×${row.count} since ${when(row.first)}` : ''}`;
  });
  return [head, ...lines].join('\n');
}
