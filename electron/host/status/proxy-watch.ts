// The app's view of proxied servers: every `mcp-roots proxy` keeps a status file in
// <configDir>/proxies/. A directory watch reacts at once; a slow poll drops proxies that died
// without cleaning up.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { ProxiedSession } from '../../../shared/domain.js';
import { listLiveProxies, proxiedSession, proxiesDir } from './proxy-status.js';

const POLL_MS = 2000;

export class ProxyWatch extends EventEmitter<{ change: [] }> {
  private sessions: ProxiedSession[] = [];
  private watcher: fs.FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private debounce: NodeJS.Timeout | undefined;
  private key = '[]';

  constructor(private readonly configDir: string) {
    super();
  }

  list(): ProxiedSession[] {
    return this.sessions;
  }

  start(): void {
    const dir = proxiesDir(this.configDir);
    fs.mkdirSync(dir, { recursive: true });
    try {
      this.watcher = fs.watch(dir, { persistent: false }, () => {
        clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.refresh(), 50);
      });
      this.watcher.on('error', () => undefined);
    } catch {
      // Polling alone still works.
    }
    this.timer = setInterval(() => void this.refresh(), POLL_MS);
    this.timer.unref();
    void this.refresh();
  }

  stop(): void {
    this.watcher?.close();
    clearInterval(this.timer);
    clearTimeout(this.debounce);
  }

  private async refresh(): Promise<void> {
    const sessions = (await listLiveProxies(this.configDir)).map(proxiedSession);
    const key = JSON.stringify(sessions);
    if (key === this.key) return;
    this.key = key;
    this.sessions = sessions;
    this.emit('change');
  }
}
