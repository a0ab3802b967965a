// Plain-text tables for people; `--json` prints the same reports for scripts.
import { SECRET_STORAGE_WORDS } from '../../shared/secrets.js';
import { shellWord } from '../../shared/shell-word.js';
import { drainText } from '../host/connections/drain-wait.js';
import type { ProxyReport, RootReport, ServerReport, StatusReport } from './registry-view.js';

export function formatRoots(roots: readonly RootReport[]): string {
  if (roots.length === 0) return 'No roots yet. Add one: mcp-roots roots add PATH';
  const width = Math.max(...roots.map((root) => root.label.length));
  const stateWidth = Math.max(...roots.map((root) => root.access.state.length));
  return roots
    .map((root) => {
      const target = root.isLink ? ` -> ${root.canonicalPath}` : '';
      const reason = root.access.reason ? `  (${root.access.reason})` : '';
      return `${root.shortId}  ${root.label.padEnd(width)}  ${root.access.state.padEnd(stateWidth)}  ${root.path}${target}${reason}`;
    })
    .join('\n');
}

export function formatServers(servers: readonly ServerReport[], roots: readonly RootReport[], details = false): string {
  if (servers.length === 0) return 'No servers yet. Add one: mcp-roots servers add NAME -- COMMAND [ARG...]';
  const width = Math.max(...servers.map((server) => server.name.length));
  const indent = ' '.repeat((servers[0]?.shortId.length ?? 0) + 2);
  return servers
    .map((server) => {
      const lines = [`${server.shortId}  ${server.name.padEnd(width)}  ${flags(server)}`, `${indent}${commandLine(server)}`];
      if (details) lines.push(...pairsLines(server, indent), `${indent}${settings(server)}`);
      lines.push(`${indent}granted: ${granted(server, roots)}`, ...secretLines(server, indent));
      return lines.join('\n');
    })
    .join('\n');
}

export function formatStatus(report: StatusReport): string {
  const notices = report.notices.map((notice) => `${notice.level}: ${notice.message}`);
  return [
    `Registry: ${report.configPath}`,
    ...(report.running ? [runningLine(report.running)] : []),
    ...(notices.length > 0 ? ['', ...notices] : []),
    '',
    'Roots',
    indentBlock(formatRoots(report.roots)),
    '',
    'Servers',
    indentBlock(formatServers(report.servers, report.roots)),
    ...(report.proxies.length > 0 ? ['', 'Running behind mcp-roots proxy', indentBlock(report.proxies.map(formatProxy).join('\n'))] : []),
  ].join('\n');
}

/** Who runs the servers now: without an app or serve on this registry, their states are unknown. */
function runningLine(running: NonNullable<StatusReport['running']>): string {
  if (running.length === 0) return 'Running: no app or serve on this registry, so the servers\' states are unknown';
  return `Running: ${running.map((app) => `${app.kind === 'serve' ? 'mcp-roots serve' : 'the desktop app'} (pid ${app.pid})`).join(', ')}`;
}

/** One proxied session: which host runs it, its state, and how it is confined. */
function formatProxy(proxy: ProxyReport): string {
  const host = proxy.host ? ` for ${proxy.host.name} ${proxy.host.version}` : '';
  const draining = proxy.draining ? ` (${drainText(proxy.draining.calls, proxy.draining.limitMs).replace(/\.$/, '')})` : '';
  return `${proxy.serverName}${host} (pid ${proxy.proxyPid})  ${proxy.state}${draining}, ${confinementText(proxy.confinement)}`;
}

function confinementText(confinement: ProxyReport['confinement']): string {
  if (!confinement) return 'confinement not known yet';
  if (confinement.state === 'enforced') {
    const verified = confinement.selfCheck?.verified ? `, verified ${confinement.selfCheck.at}` : ', not verified yet';
    const grants = confinement.grants === 'view' ? ', file view' : confinement.grants === 'mounts' ? ', static protection: bind mounts' : '';
    return `sandbox enforced (${confinement.kind ?? 'os'}${grants}${confinement.network === false ? ', no network' : ''}${verified})`;
  }
  if (confinement.state === 'advisory') return `advisory: roots only${confinement.reason ? ` (${confinement.reason})` : ''}`;
  return 'sandbox off';
}

/** One line per secret, saying where it is kept: nobody should learn later that it was in clear. */
function secretLines(server: ServerReport, indent: string): string[] {
  return server.secrets.map(
    (secret) => `${indent}secret ${secret.kind === 'url' ? `URL ${secret.name}` : `${secret.name} (${secret.kind})`}: ${SECRET_STORAGE_WORDS[secret.storage]}`,
  );
}

function flags(server: ServerReport): string {
  const stored = [server.enabled ? 'enabled' : 'disabled', server.sharing ? 'sharing' : 'not sharing'].join(', ');
  return server.live ? `${stored}  ${liveText(server.live)}` : stored;
}

/** The live state, with the era it speaks and whether changes reach it by a restart. */
export function liveText(live: NonNullable<ServerReport['live']>): string {
  const notes = [
    ...(live.protocolVersion ? [`protocol ${live.protocolVersion}`] : []),
    ...(live.rereadsRoots === false ? ['restarts to apply changes: it does not re-read its folders'] : []),
    ...(live.error ? [live.error] : []),
  ];
  if (live.draining) notes.unshift(drainText(live.draining.calls, live.draining.limitMs).replace(/\.$/, ''));
  // The lifecycle says more than 'connected' (restarting, draining...); 'ready' is what 'connected' already says.
  // Said once where both say the same ("connecting, connecting", #30 item 5).
  const lifecycle = live.lifecycle && live.lifecycle !== 'ready' && live.lifecycle !== live.state && live.state !== 'disabled' ? `, ${live.lifecycle}` : '';
  const state = live.state === 'unknown' ? 'state unknown' : `${live.state}${lifecycle}`;
  return notes.length > 0 ? `${state} (${notes.join('; ')})` : state;
}

/** Stored settings, named as settings: whether the OS enforces the sandbox is the app's to say, not the CLI's. */
function settings(server: ServerReport): string {
  const onOff = (on: boolean) => (on ? 'on' : 'off');
  return `settings: sandbox ${onOff(server.sandbox)}, network ${onOff(server.network)}${server.ownSandboxes ? ', own sandboxes on' : ''}${server.allowLocal?.length ? `, ports of this computer open to it: ${server.allowLocal.join(', ')}` : ''}${server.allowHosts ? `, allowed hosts: ${server.allowHosts.length ? server.allowHosts.join(', ') : 'none'}` : ''}, ask for folders ${onOff(server.askForFolders)}`;
}

function commandLine(server: ServerReport): string {
  const transport = server.transport;
  if (transport.type !== 'stdio') return `${transport.type} ${transport.url}`;
  const cwd = transport.cwd ? `  (in ${transport.cwd})` : '';
  return `${[transport.command, ...transport.args].map(shellWord).join(' ')}${cwd}`;
}

function pairsLines(server: ServerReport, indent: string): string[] {
  const transport = server.transport;
  const [label, values] = transport.type === 'stdio' ? ['env', transport.env] : ['headers', transport.headers];
  const entries = Object.entries(values);
  return entries.length > 0 ? [`${indent}${label}: ${entries.map(([key, value]) => `${key}=${value}`).join(', ')}`] : [];
}

/** Granted roots by label; those the server is not told right now say why. */
function granted(server: ServerReport, roots: readonly RootReport[]): string {
  if (server.grantedRootIds.length === 0) return 'nothing';
  const byId = new Map(roots.map((root) => [root.id, root]));
  const effective = new Set(server.effectiveRootIds);
  const readOnly = new Set(server.readOnlyRootIds);
  const names = server.grantedRootIds.map((id) => {
    const root = byId.get(id);
    if (!root) return id;
    // Each root its own mode: "a, b (read-only)" read as both read-only (#30).
    const mode = readOnly.has(id) ? 'read-only' : 'read-write';
    if (effective.has(id) || !server.enabled || !server.sharing) return `${root.label} (${mode})`;
    return `${root.label} (${mode}, hidden: ${root.access.state})`;
  });
  const off = !server.enabled ? ' (not told: disabled)' : !server.sharing ? ' (not told: sharing off)' : '';
  return `${names.join(', ')}${off}`;
}


const indentBlock = (text: string) =>
  text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
