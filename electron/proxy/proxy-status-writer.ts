// The write side of <configDir>/proxies/<serverId>-<pid>.json: what a running proxy is doing, so
// the app and `mcp-roots status` can show proxied servers like the app's own (host/status-file.ts
// says how such files are written and read).
import { proxyStatusFile, type ProxyStatus } from '../host/status/proxy-status.js';
import { StatusFileWriter } from '../host/status/status-file.js';

export class ProxyStatusWriter extends StatusFileWriter<ProxyStatus> {
  constructor(configDir: string, initial: ProxyStatus, minIntervalMs = 250, log: (line: string) => void = () => undefined) {
    super(proxyStatusFile(configDir, initial.serverId, initial.proxyPid), initial, { minIntervalMs, log });
  }
}
