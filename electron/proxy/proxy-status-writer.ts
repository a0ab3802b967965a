// The write side of <configDir>/proxies/<serverId>-<pid>.json: what a running proxy is doing, so
// the app and `mcp-roots status` can show proxied servers like the app's own (host/status-file.ts
// says how such files are written and read).
import { proxyStatusFile, type ProxyStatus } from '../host/status/proxy-status.js';
import { StatusFileWriter, type StatusFileOptions } from '../host/status/status-file.js';

export class ProxyStatusWriter extends StatusFileWriter<ProxyStatus> {
  /** `options.refresh` is read at each write (and at the first, in here): the change forecast, as of that write. */
  constructor(configDir: string, initial: ProxyStatus, options: StatusFileOptions<ProxyStatus> = {}) {
    super(proxyStatusFile(configDir, initial.serverId, initial.proxyPid), initial, { minIntervalMs: 250, ...options });
  }
}
