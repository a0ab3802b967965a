// A network-on server's own network namespace, connected to the outside by pasta (Debian package
// `passt`, user-mode networking), instead of the host's namespace shared.
//
// Why: abstract Unix socket names (X11, D-Bus, the Secret Service, …) belong to a network
// namespace, not to the file tree. With the host's namespace shared they are one connect() away,
// so the seccomp filter had to refuse socket(AF_UNIX) to every network-on server, and a browser
// (Chromium's singleton socket, its zygote) could not start with the network on. In a namespace of
// its own the host's abstract names do not exist; Unix sockets with a path are governed by the
// mounts, as every other file is. So socket(AF_UNIX) is allowed again there.
//
// How: a keeper process in front of bwrap makes a user and a network namespace (NAMESPACE_KEEPER);
// bwrap shares that network namespace and waits on --block-fd before the server runs; pasta joins
// it (through the keeper's user namespace) and configures it (addresses, routes, the tap
// interface), and stays, our child, until the server ends (or we do: a parent-death signal).
// Only once pasta says it is configured is bwrap released, so the server never sees a namespace
// without its network.
//
// What the server's network looks like (one decision, here, in pastaArgs):
// - outbound TCP, UDP and ICMP reach what the host reaches (that is what "network on" means);
// - this computer's loopback is closed: a browser's remote-debugging port, Jupyter, a database
//   without a password or the app's own serve port, bound on the host's 127.0.0.1, are out of reach
//   (`-T none -U none`). Only the ports the person opens for this server (`allowLocal`, `servers set
//   NAME --allow-local PORT`) are forwarded: 127.0.0.1:PORT inside is the host's 127.0.0.1:PORT
//   (mcp-remote to a local server is the model case). pasta forwards what it is given at start, so
//   a change of ports is a restart (roots-change-policy.ts);
// - DNS still works where the host's resolver is on its loopback (systemd-resolved's 127.0.0.53):
//   the server's /etc/resolv.conf names DNS_ADDRESS, and pasta forwards what is sent there to the
//   host's first nameserver (`--dns-forward`), from the host's side;
// - nothing reaches the server from outside: no port of the server is published on the host
//   (`-t none -u none`), where with the namespace shared a server could listen on the host's ports;
// - the gateway's address is the real gateway, not a second way to the host's loopback (`--no-map-gw`).
// What this does not close (SECURITY.md): a service of this computer bound to all addresses
// (0.0.0.0) is reached at the computer's own address, as from the local network.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { quote } from 'shell-quote';
import type { EgressGuard } from './egress/egress-guard.js';
import { SandboxSetupError } from './sandbox-types.js';

/** Where pasta is, when it can give servers a network of their own; otherwise why not, in words. */
export interface PrivateNetworkSupport {
  pasta?: string | undefined;
  reason: string;
}

/** Where a network-on server sends its DNS queries (its /etc/resolv.conf), for pasta to forward: a link-local address no network uses. */
export const DNS_ADDRESS = '169.254.1.53';

/**
 * See the header: what a network-on server can reach (this computer's loopback only at `localPorts`),
 * and what can reach it. With a list of allowed hosts (`dnsPort`: its answerer's, egress/), its
 * resolver is its own 127.0.0.1:53, forwarded to the app's answerer, and not this computer's.
 */
export function pastaPolicy(localPorts: readonly number[] = [], dnsPort?: number): string[] {
  const ports = [...new Set(localPorts)].sort((a, b) => a - b).map(String);
  if (dnsPort) ports.push(`53:${dnsPort}`);
  const forwarded = ports.length > 0 ? ports.join(',') : 'none';
  return ['--config-net', '-t', 'none', '-u', 'none', '-T', forwarded, '-U', forwarded, '--no-map-gw', ...(dnsPort ? [] : ['--dns-forward', DNS_ADDRESS])];
}

/** What pasta needs to give one server its network: the program, and the ports of this computer it may reach. */
export interface PrivateNetwork {
  pasta: string;
  localPorts: readonly number[];
  /** Its allowed hosts, enforced in its namespace once pasta has configured it (egress/egress-guard.ts). Absent: any host. */
  egress?: { guard: EgressGuard; helper: string; nft: string } | undefined;
}

/**
 * The server's /etc/resolv.conf with a network of its own: the host's search domains and options,
 * with DNS_ADDRESS as its only nameserver (the host's may be on a loopback the server cannot reach);
 * `guarded` (a list of allowed hosts): its own 127.0.0.1, where pasta forwards to the app's answerer.
 */
export function privateResolvConf(hostResolvConf: string, guarded = false): string {
  const kept = hostResolvConf.split('\n').filter((line) => /^\s*(search|domain|options)\s/.test(line));
  const header = guarded ? `# Written by MCP Roots Manager: DNS through the app, which answers only this server's allowed hosts.` : `# Written by MCP Roots Manager: DNS through pasta to this computer's resolver.`;
  return [header, `nameserver ${guarded ? '127.0.0.1' : DNS_ADDRESS}`, ...kept, ''].join('\n');
}

/** Writes privateResolvConf under the data folder (hidden from every server) and returns its path, for bwrap to show at /etc/resolv.conf. */
export function writePrivateResolvConf(dataDir: string, guarded = false): string {
  let host = '';
  try {
    host = fs.readFileSync('/etc/resolv.conf', 'utf8');
  } catch {
    // No resolver configured here: the server gets DNS_ADDRESS alone, and pasta answers nothing.
  }
  const file = path.join(dataDir, 'sandbox', guarded ? 'resolv-guarded.conf' : 'resolv.conf');
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const text = privateResolvConf(host, guarded);
  // Rewritten only when it changed: a running server's bind shows the file it was started with.
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  if (current !== text) {
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, text, { mode: 0o644 });
    fs.renameSync(temp, file);
  }
  return file;
}

/** The narrowest fixes for a browser that cannot start with the network shared, in the order offered. */
export const BROWSER_FIX = 'install the "passt" package (pasta gives each network-on server a network of its own, where browsers run), or turn this server\'s network off if it does not need the network';

/** pasta could not set up a server's network at its start: `pastaSaid` is pasta's own last line. */
export class PrivateNetworkError extends Error {
  constructor(readonly pastaSaid: string) {
    super(`pasta could not set up the server's network: ${pastaSaid}`);
    this.name = 'PrivateNetworkError';
  }
}

/**
 * The narrowest fixes when pasta fails for a server, in the order offered: its network off where it
 * does not need one, else pasta repaired. Never the sandbox off: the server can run confined either way.
 */
export function privateNetworkFix(serverName: string): string {
  // Quoted for pasting into a shell, as shell-quote quotes (a plain name stays as it is).
  const name = quote([serverName]);
  return `if it does not need the network, turn its network off (mcp-roots servers set ${name} --network off); otherwise repair pasta (package "passt"), which gives each network-on server a network of its own`;
}

/** pasta's command line to configure the network namespace of bwrap's first child (host pid). */
export function pastaArgs(childPid: number, localPorts: readonly number[], uid: number | undefined = process.getuid?.(), pidFile?: string, dnsPort?: number): string[] {
  return [
    ...pastaPolicy(localPorts, dnsPort),
    '--quiet',
    // Where it says its own pid once configured: it must be stopped with the sandbox (below).
    ...(pidFile ? ['--pid', pidFile] : []),
    // Its messages go to our stderr (kept for the failure's words), never to a syslog that may not exist.
    '--stderr',
    // Started as root, pasta changes to nobody before it joins the namespace, and nobody may not
    // enter a user namespace that root owns: it stays uid 0 (it still drops its capabilities and
    // isolates itself once set up, see passt's isolation.c).
    ...(uid === 0 ? ['--runas', '0'] : []),
    '--netns',
    `/proc/${childPid}/ns/net`,
    '--userns',
    `/proc/${childPid}/ns/user`,
  ];
}

/**
 * What the spawn runs in front of bwrap (and prlimit): a user namespace (the user mapped to itself)
 * with a network namespace of its own, where bwrap runs with --share-net. This process, the keeper,
 * keeps both for the sandbox's whole life (unshare and prlimit exec in place), so pasta joins a
 * namespace that stays put. Joining bwrap's own would race it: --disable-userns moves bwrap's child
 * into a nested user namespace, from which pasta cannot reach the network namespace ("Couldn't
 * switch to pasta namespaces", 15 of 15 trials), and bwrap refuses --userns-block-fd beside it.
 */
export const NAMESPACE_KEEPER = ['unshare', '--user', '--map-current-user', '--net', '--'] as const;

function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      // pasta says this where no syslog is listening; it is not why it failed.
      .filter((line) => line && !/to syslog/.test(line))
      .slice(-1)[0] ?? ''
  );
}

/** Resolves once `pid` lives in another network namespace than ours (unshare has run); false if it ended first. */
async function unshared(pid: number, deadline: number): Promise<boolean> {
  const own = fs.readlinkSync('/proc/self/ns/net');
  while (Date.now() < deadline) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/ns/net`) !== own) return true;
    } catch {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return false;
}

/**
 * util-linux's setpriv, which starts pasta with a parent-death signal: pasta does not quit by itself
 * when the namespace's last process ends (it holds the namespace open, and a namespace named as
 * /proc/PID/ns/net is never "deleted" where it would look), so it must end with the process that
 * started it, however that one ends. A kill -9 of the app or a proxy left its pasta running for
 * good (one CI run left 4, one machine had 62; #27). setpriv is part of util-linux, which Debian
 * and Ubuntu always install; where it is missing, pasta is stopped with its server or at our exit
 * only.
 */
function findSetpriv(): string | undefined {
  return ['/usr/bin/setpriv', '/bin/setpriv'].find((candidate) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Every pasta this process started whose server has not yet been seen to end. */
const running = new Set<ChildProcess>();
let exitHooked = false;

/** Ends one pasta (our child: Node never signals a pid it has reaped, so no other process can be hit). */
function stopper(child: ChildProcess): () => void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  // A process that exits before it has seen its servers end (a proxy whose host left) stops their
  // pasta on its way out, as the parent-death signal would. One listener for all.
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      for (const each of running) each.kill('SIGTERM');
    });
  }
  return () => {
    running.delete(child);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
}

/**
 * Once the keeper (`pid`: the spawned process, or with a file view the helper's holder) has its
 * namespaces, pasta configures its network; then bwrap, which waits on --block-fd before it runs
 * the server, is released by a write to `block`. pasta runs in the foreground, as our child with a
 * parent-death signal (findSetpriv), and says it is configured by writing its pid file (it does so
 * exactly where it would otherwise fork into the background). Resolves to what stops that pasta:
 * call it when the sandbox has ended. Rejects (with pasta's own words) when that fails or takes over
 * `timeoutMs`; the caller then stops the sandbox, which never ran the server without its network.
 */
export async function attachPrivateNetwork(network: PrivateNetwork, pid: number | undefined, block: Writable | null | undefined, timeoutMs = 15_000): Promise<() => void> {
  const { pasta, localPorts } = network;
  if (!pid || !block) throw new Error('the sandbox was started without the pipe of its private network');
  const deadline = Date.now() + timeoutMs;
  if (!(await unshared(pid, deadline))) throw new Error('the sandbox ended, or did not make its network namespace, before pasta could set it up');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-roots-pasta-'));
  const pidFile = path.join(dir, 'pid');
  // Its messages go to a file, not a pipe: a pipe would hold our event loop open for its whole life,
  // and closing it would end pasta at its next message. Read for the failure's words, then let go.
  const errFile = path.join(dir, 'stderr');
  const errFd = fs.openSync(errFile, 'w+', 0o600);
  const args = [...pastaArgs(pid, localPorts, process.getuid?.(), pidFile, network.egress?.guard.dnsPort), '--foreground'];
  const setpriv = findSetpriv();
  let child: ChildProcess | undefined;
  try {
    child = setpriv ? spawn(setpriv, ['--pdeathsig', 'KILL', '--', pasta, ...args], { stdio: ['ignore', 'ignore', errFd] }) : spawn(pasta, args, { stdio: ['ignore', 'ignore', errFd] });
    const started = child;
    started.unref();
    await new Promise<void>((resolve, reject) => {
      const configured = () => {
        try {
          return fs.readFileSync(pidFile, 'utf8').trim() !== '';
        } catch {
          return false;
        }
      };
      const said = () => lastLine(fs.readFileSync(errFile, 'utf8'));
      const finish = (error?: Error) => {
        clearTimeout(timer);
        watcher.close();
        started.off('exit', ended);
        started.off('error', finish);
        if (error) reject(error);
        else resolve();
      };
      const ended = (code: number | null, signal: string | null) => finish(new PrivateNetworkError(said() || `it ended (${code ?? signal}) before the network was set up`));
      const timer = setTimeout(() => finish(new PrivateNetworkError(said() || `it did not finish within ${Math.round(timeoutMs / 1000)} s`)), Math.max(1, deadline - Date.now()));
      const watcher = fs.watch(dir, () => {
        if (configured()) finish();
      });
      started.once('exit', ended);
      started.once('error', finish);
      // Written before the watch began: seen now.
      if (configured()) finish();
    });
  } catch (error) {
    child?.kill('SIGKILL');
    throw error;
  } finally {
    fs.closeSync(errFd);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const stop = stopper(child);
  if (network.egress) {
    // Its allowed hosts hold before it runs: the rules are loaded, or it never starts.
    const { guard, helper, nft } = network.egress;
    try {
      await guard.attach({ helper, nft, pid });
    } catch (error) {
      stop();
      throw new SandboxSetupError('network-policy-unavailable', `its allowed hosts could not be set in its network namespace, so it was not started: ${(error as Error).message}`);
    }
  }
  await new Promise<void>((resolve) => block.end('x', () => resolve()));
  return stop;
}

/**
 * Whether pasta works here, by a trial: an empty bwrap sandbox with a network namespace of its own,
 * configured by pasta. pasta missing, or refused (a container without /dev/net/tun for this user,
 * a kernel without tap), leaves network-on servers in the host's namespace with Unix sockets refused.
 */
export async function probePrivateNetwork(bwrap: string, pasta: string | undefined, timeoutMs = 15_000): Promise<PrivateNetworkSupport> {
  if (!pasta) return { reason: 'pasta (package "passt") is not installed: network-on servers share the host\'s network, with Unix sockets refused' };
  const trial = spawn(
    NAMESPACE_KEEPER[0],
    [...NAMESPACE_KEEPER.slice(1), bwrap, '--unshare-all', '--unshare-user', '--disable-userns', '--share-net', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--block-fd', '3', '--', 'true'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  trial.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => {
    trial.once('error', () => resolve(null));
    trial.once('close', (code) => resolve(code));
  });
  try {
    const stop = await attachPrivateNetwork({ pasta, localPorts: [] }, trial.pid, trial.stdio[3] as Writable, timeoutMs);
    void exited.then(stop);
  } catch (error) {
    trial.kill('SIGKILL');
    trial.stdio[3]?.destroy();
    await exited;
    return { reason: `${(error as Error).message}${stderr ? ` (${lastLine(stderr)})` : ''}: network-on servers share the host's network, with Unix sockets refused` };
  }
  const code = await exited;
  if (code !== 0) return { reason: `the trial sandbox with pasta's network failed (${lastLine(stderr) || `exit ${code}`})` };
  // Not resolved through its link: one program is both passt and pasta, and its name says which.
  return { pasta, reason: 'pasta gives each network-on server a network namespace of its own' };
}
