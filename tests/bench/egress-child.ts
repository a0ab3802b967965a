// Run in the network world of tests/fixtures/egress-world.sh, as root in a mount namespace of its
// own (`unshare -n -m`): this world's resolver is the tests' own on 127.0.0.1:53 (/etc/resolv.conf
// bound over, in this namespace only), so a server with any host (pasta forwarding its DNS) and one
// with allowed hosts (the app's answerer) ask the same resolver. Times, inside each server, a
// connection with a 1 KiB request and answer to a "remote" listener, and a lookup of an allowed
// name; then, through the app, how long a change of the list takes to reach the running server.
// Prints the samples as JSON. Usage: egress-child.ts DATA_DIR ROUNDS
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { startFakeResolver } from '../support/fake-resolver.js';
import { anyPathServer, closeConfined, startConfined } from '../support/confined-client.js';
import { addConnectedServer, callText, startHost } from '../support/host-harness.js';

const [dataDir, roundsText = '100'] = process.argv.slice(2) as [string, string?];
const rounds = Number(roundsText);
const resolvConf = path.join(dataDir, 'resolv.conf');
fs.writeFileSync(resolvConf, 'nameserver 127.0.0.1\n');
execFileSync('mount', ['--make-rprivate', '/']);
execFileSync('mount', ['--bind', resolvConf, '/etc/resolv.conf']);
const resolver = await startFakeResolver('127.0.0.1', 53, { 'allowed.test': '198.18.0.2' });
const listeners: net.Server[] = [];
async function listen(host: string, serve: (socket: net.Socket) => void): Promise<number> {
  const listener = net.createServer(serve);
  listeners.push(listener);
  await new Promise<void>((resolve) => listener.listen(0, host, resolve));
  return (listener.address() as net.AddressInfo).port;
}
const echoPort = await listen('198.18.0.2', (socket) => socket.pipe(socket));
const otherPort = await listen('198.18.0.3', (socket) => socket.end());
const support = await probeSandbox();
const base = { roots: [], dataDir, network: true, support };
const open = await startConfined(anyPathServer(), { ...base, serverId: 'bench-any-host' });
const guarded = await startConfined(anyPathServer(), { ...base, serverId: 'bench-allowed-hosts', allowHosts: ['allowed.test'], onNetworkRefused: () => undefined });
const samples = async (server: typeof open, args: Record<string, unknown>) => JSON.parse(await server.call('rounds', args)) as number[];
// The guarded server's first lookup admits the address; both warm up once.
await samples(guarded, { kind: 'echo', host: 'allowed.test', port: echoPort, rounds: 3 });
await samples(open, { kind: 'echo', host: '198.18.0.2', port: echoPort, rounds: 3 });
const facts: Record<string, number[]> = { echoOpen: [], echoGuarded: [], lookupOpen: [], lookupGuarded: [] };
// Interleaved in blocks: the machine's load falls on both alike.
const block = 10;
for (let done = 0; done < rounds; done += block) {
  facts.echoOpen!.push(...(await samples(open, { kind: 'echo', host: '198.18.0.2', port: echoPort, rounds: block })));
  facts.echoGuarded!.push(...(await samples(guarded, { kind: 'echo', host: '198.18.0.2', port: echoPort, rounds: block })));
  facts.lookupOpen!.push(...(await samples(open, { kind: 'lookup', host: 'allowed.test', rounds: block })));
  facts.lookupGuarded!.push(...(await samples(guarded, { kind: 'lookup', host: 'allowed.test', rounds: block })));
}
await closeConfined();

// A change of the list through the app, until the running server's next connection shows it.
const host = await startHost({ configDir: path.join(dataDir, 'app') });
const id = await addConnectedServer(host, 'bench guarded', anyPathServer());
await host.updateServer(id, { allowHosts: ['allowed.test'] });
const connect = () => callText(host, id, 'connect', { host: '198.18.0.3', port: otherPort }).catch((error: Error) => `ERROR ${error.message}`);
const deadline = Date.now() + 60_000;
while ((await connect()) !== 'ERROR ECONNREFUSED connect ECONNREFUSED 198.18.0.3:' + otherPort && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
const pid = host.getState().servers.find((server) => server.id === id)?.status.pid;
facts.change = [];
for (let i = 0; i < Math.max(10, Math.round(rounds / 2)); i++) {
  const allow = i % 2 === 0;
  const start = performance.now();
  await host.updateServer(id, { allowHosts: allow ? ['allowed.test', '198.18.0.3'] : ['allowed.test'] });
  for (;;) {
    const seen = await connect();
    if ((seen === 'connected') === allow) break;
  }
  facts.change.push(performance.now() - start);
}
const samePid = host.getState().servers.find((server) => server.id === id)?.status.pid === pid;
await host.stop();
resolver.close();
for (const listener of listeners) listener.close();
fs.writeSync(1, `${JSON.stringify({ ...facts, samePid })}\n`);
// Written (synchronously): done. Left to end by itself, this process lingered ~10 s after its last
// line in about half the runs (nothing listed as a handle: a request still in flight in this
// world, its resolver closed), and the section waited for it: 13.4 s instead of 3.4 s.
process.exit(0);
