// The 2026-07-28 Streamable HTTP fixture (tests/fixtures/modern-http-server.mjs) as a real process
// on a free port, stopped after the test.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { waitFor } from './wait-for.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const running: ChildProcess[] = [];

export async function startModernHttpServer(): Promise<string> {
  const child = spawn(process.execPath, [path.join(repoRoot, 'tests/fixtures/modern-http-server.mjs')], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const match = await waitFor(() => /listening (\S+)/.exec(output), { what: 'the HTTP fixture to listen' });
  return match[1] as string;
}

export function stopHttpServers(): void {
  for (const child of running.splice(0)) child.kill();
}
