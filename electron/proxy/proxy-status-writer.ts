// The write side of <configDir>/proxies/<serverId>-<pid>.json: what a running proxy is doing, so
// the app can show proxied servers like its own. Written at most a few times per second (a chatty
// session must not turn into disk traffic), atomically (the app may read at any moment), and
// removed on exit.
import fs from 'node:fs';
import { writeFileSync as atomicWriteFileSync } from 'atomically';
import { PROXY_HEARTBEAT_MS, proxiesDir, proxyStatusFile, type ProxyStatus } from '../host/proxy-status.js';

export class ProxyStatusWriter {
  readonly file: string;
  private status: ProxyStatus;
  private timer: NodeJS.Timeout | undefined;
  private lastWriteAt = 0;
  private readonly heartbeat: NodeJS.Timeout;
  private removed = false;

  constructor(
    private readonly configDir: string,
    initial: ProxyStatus,
    private readonly minIntervalMs = 250,
    private readonly log: (line: string) => void = () => undefined,
  ) {
    this.status = initial;
    this.file = proxyStatusFile(configDir, initial.serverId, initial.proxyPid);
    this.write();
    this.heartbeat = setInterval(() => this.write(), PROXY_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  get current(): ProxyStatus {
    return this.status;
  }

  update(patch: Partial<ProxyStatus>): void {
    this.status = { ...this.status, ...patch };
    if (this.timer || this.removed) return;
    const wait = Math.max(0, this.lastWriteAt + this.minIntervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, wait);
    this.timer.unref();
  }

  remove(): void {
    this.removed = true;
    clearTimeout(this.timer);
    clearInterval(this.heartbeat);
    fs.rmSync(this.file, { force: true });
  }

  private write(): void {
    if (this.removed) return;
    this.lastWriteAt = Date.now();
    try {
      fs.mkdirSync(proxiesDir(this.configDir), { recursive: true });
      atomicWriteFileSync(this.file, JSON.stringify({ ...this.status, updatedAt: this.lastWriteAt }), { mode: 0o600 });
    } catch (error) {
      // The status is a courtesy to the app: failing to write it must never break the session.
      this.log(`could not write the status file: ${(error as Error).message}`);
    }
  }
}
