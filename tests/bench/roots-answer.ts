// Section 4: how fast a roots/list is answered, timed on the server's side of the pipe, with 10,
// 1,000 and 10,000 granted roots; the floor is a bare SDK client answering the same list.
import { Client } from '@modelcontextprotocol/client';
import { pathToFileURL } from 'node:url';
import { InPlaceStdioClientTransport } from '../../electron/host/launch/transport-factory.js';
import { addServers, makeFolders, rootsAnswerTimes, startBenchHost, timingServer } from './bench-env.js';
import { percentile, type Figure } from './figures.js';

interface Timing {
  size: number;
  micros: number[];
}

async function timeViaTool(call: (n: number) => Promise<{ content?: unknown }>, n: number): Promise<Timing> {
  const result = await call(n);
  const text = ((result.content ?? []) as { text?: string }[])[0]?.text ?? '{}';
  return JSON.parse(text) as Timing;
}

export async function rootsAnswer(sizes: number[], rounds: number): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const size of sizes) {
    const folders = makeFolders(size);
    const host = await startBenchHost({ monitor: { sweepIntervalMs: 0 } });
    const bare = new Client({ name: 'bare', version: '1' }, { capabilities: { roots: { listChanged: true } } });
    try {
      const { added } = await host.addRoots(folders);
      const [serverId] = await addServers(host, 1);
      await host.setGrants([serverId as string], added.map((root) => root.id), true);
      const answer = folders.map((folder, i) => ({ uri: pathToFileURL(folder).href, name: `project-${i}` }));
      bare.setRequestHandler('roots/list', async () => ({ roots: answer }));
      await bare.connect(new InPlaceStdioClientTransport({ command: timingServer.command, args: timingServer.args }));
      // Warm up both, then measure.
      await timeViaTool((n) => host.callTool(serverId as string, 'time-list-roots', { n }), 20);
      await timeViaTool((n) => bare.callTool({ name: 'time-list-roots', arguments: { n } }), 20);
      rootsAnswerTimes.length = 0;
      const viaHost = await timeViaTool((n) => host.callTool(serverId as string, 'time-list-roots', { n }), rounds);
      const hostSide = [...rootsAnswerTimes];
      const viaBare = await timeViaTool((n) => bare.callTool({ name: 'time-list-roots', arguments: { n } }), rounds);
      if (viaHost.size !== size) throw new Error(`host answered ${viaHost.size} roots, expected ${size}`);
      const ms = (micros: number[], p: number) => percentile(micros, p) / 1000;
      figures.push(
        {
          id: `answer-host-p99-${size}`,
          label: `4. roots/list answered in the host (request read -> reply written), p99, ${size} roots`,
          value: percentile(hostSide, 99),
          unit: 'ms',
          budget: size === 1000 ? { max: 1, text: '< 1 ms (1,000 roots)' } : undefined,
          note: `${hostSide.length} requests timed`,
        },
        {
          id: `answer-p99-${size}`,
          label: `4. roots/list round trip seen by the server, p99, ${size} roots`,
          value: ms(viaHost.micros, 99),
          floor: ms(viaBare.micros, 99),
          unit: 'ms',
        },
        {
          id: `answer-p50-${size}`,
          label: `4. roots/list answered, p50, ${size} roots`,
          value: ms(viaHost.micros, 50),
          floor: ms(viaBare.micros, 50),
          unit: 'ms',
        },
      );
    } finally {
      await bare.close();
      await host.stop();
    }
  }
  return figures;
}
