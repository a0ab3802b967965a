// Run by section 18 (file-record.ts) as `node --expose-gc`: the app, as `mcp-roots serve` runs it
// (a RootsHost on DATA_DIR and the UI's HTTP server), in a process of its own whose memory the bench
// asks for on stdin: `measure` answers after two full collections, so what is kept is told apart
// from what a collection would return. Prints `{"url":…}` once its one server runs verified in its
// sandbox. Usage: node --expose-gc --import tsx file-record-child.ts DATA_DIR RENDERER_DIR
import readline from 'node:readline';
import { RootsHost } from '../../electron/host/roots-host.js';
import { startServeServer } from '../../electron/serve/serve-server.js';
import { waitFor } from '../support/wait-for.js';

const [dataDir, rendererDir] = process.argv.slice(2) as [string, string];
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const host = new RootsHost({ configDir: dataDir, publishStatusAs: 'serve' });
await host.start();
const serve = await startServeServer({ host, port: 0, rendererDir });
const server = () => host.getState().servers[0];
await waitFor(() => server()?.status.confinement?.selfCheck?.verified === true, { what: 'the writer verified in its sandbox', timeoutMs: 60_000, explain: () => JSON.stringify(server()?.status ?? {}).slice(0, 800) });
const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
say({ url: serve.url, serverId: server()!.id, grants: server()!.status.confinement?.grants });

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line === 'measure') {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
    gc();
    const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
    say({ rss, heapUsed, external, arrayBuffers });
  } else if (line === 'stop') {
    await serve.close();
    await host.stop();
    process.exit(0);
  }
}
