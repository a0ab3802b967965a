// `mcp-roots status SERVER --network`: what its settings let it reach, then its record, newest first.
import { afterEach, describe, expect, it } from 'vitest';
import { formatNetworkReport, networkReport } from '../../../electron/cli/network-report.js';
import { NetworkRecord, networkRecordFile } from '../../../electron/host/sandbox/egress/network-record.js';
import type { ServerRecord } from '../../../shared/domain.js';
import { removeTempDirs, tempDir } from '../../support/index.js';

afterEach(() => removeTempDirs());

const server = (patch: Partial<ServerRecord>): ServerRecord => ({
  id: 'srv-1',
  name: 'github',
  transport: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env: {} },
  enabled: true,
  sharing: true,
  sandbox: true,
  network: true,
  askForFolders: true,
  addedAt: '2026-11-28T00:00:00.000Z',
  ...patch,
});

describe('status --network', () => {
  it('says what the settings allow, and lists the record with its verdicts and counts', () => {
    const dataDir = tempDir('net-report-');
    expect(formatNetworkReport(networkReport(dataDir, server({ network: false })))).toBe('github: network off');
    expect(formatNetworkReport(networkReport(dataDir, server({})))).toContain('github: network on, any host (no record is kept');
    expect(formatNetworkReport(networkReport(dataDir, server({ allowHosts: ['api.github.com'] })))).toBe('github: network on, allowed hosts: api.github.com\nNothing recorded yet.');
    // A known server's hosts are offered while its list lacks them, never added.
    expect(formatNetworkReport(networkReport(dataDir, server({ allowHosts: [] }))).split('\n')).toEqual([
      'github: network on, allowed hosts: none',
      'Its package usually needs: api.github.com (mcp-roots servers set github --allow-host api.github.com)',
      'Nothing recorded yet.',
    ]);
    const record = new NetworkRecord(networkRecordFile(dataDir, 'srv-1'));
    record.note({ kind: 'lookup', target: 'api.github.com', verdict: 'allowed', addresses: ['192.0.2.7'] }, Date.UTC(2026, 10, 28, 10, 0, 0));
    record.note({ kind: 'lookup', target: 'api.github.com', verdict: 'allowed', addresses: ['192.0.2.7'] }, Date.UTC(2026, 10, 28, 10, 0, 5));
    record.note({ kind: 'connect', target: '203.0.113.9:443/tcp', verdict: 'refused' }, Date.UTC(2026, 10, 28, 10, 1, 0));
    record.flush();
    const report = networkReport(dataDir, server({ allowHosts: ['api.github.com'] }));
    expect(report.rows).toHaveLength(2);
    expect(formatNetworkReport(report).split('\n')).toEqual([
      'github: network on, allowed hosts: api.github.com',
      '  2026-11-28 10:01:00Z  REFUSED  connection to 203.0.113.9:443/tcp',
      '  2026-11-28 10:00:05Z  allowed  looked up api.github.com → 192.0.2.7  ×2 since 2026-11-28 10:00:00Z',
    ]);
  });
});
