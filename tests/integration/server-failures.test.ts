// What a person reads when a real server process fails to start: the words come from the real
// child (its exit code, its stderr) through the app's connection, not from a mock.
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, stopHosts } from '../support/host-harness.js';
import { removeTempDirs, waitFor } from '../support/index.js';

afterEach(async () => {
  await stopHosts();
  removeTempDirs();
});

describe('a server that fails to start', () => {
  it('reports the exit code and its last stderr line, not the SDK’s probe message', async () => {
    const host = await startHost({ connection: { reconnectDelaysMs: [60_000] } });
    const script = "console.error('Starting GitHub MCP server…'); console.error('Error: GITHUB_TOKEN environment variable is required'); process.exit(1)";
    const server = await host.addServer({ name: 'github', transport: { type: 'stdio', command: process.execPath, args: ['-e', script], env: {} }, enabled: true, sharing: true });
    const status = await waitFor(() => host.getState().servers.find((s) => s.id === server.id)?.status.failure && host.getState().servers.find((s) => s.id === server.id)?.status, {
      what: 'the failure',
      timeoutMs: 20_000,
    });
    expect(status.state).toBe('error');
    expect(status.failure).toMatchObject({ code: 'exited', exitCode: 1, stderr: ['Starting GitHub MCP server…', 'Error: GITHUB_TOKEN environment variable is required'] });
    expect(status.error).toBe('exited with code 1: Starting GitHub MCP server… / Error: GITHUB_TOKEN environment variable is required');
    expect(status.error).not.toMatch(/negotiation|probe/i);
  });

  it('says "command not found" for a mistyped command, with the likely one', async () => {
    const host = await startHost({ connection: { reconnectDelaysMs: [60_000] } });
    const server = await host.addServer({ name: 'typo', transport: { type: 'stdio', command: 'npxx', args: ['-y', 'x'], env: {} }, enabled: true, sharing: true });
    const failure = await waitFor(() => host.getState().servers.find((s) => s.id === server.id)?.status.failure, { what: 'the failure' });
    expect(failure).toMatchObject({ code: 'command-not-found', command: 'npxx', suggestion: 'npx', message: 'command not found: npxx (did you mean npx?)' });
  });
});
