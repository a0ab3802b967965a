// What the proxy says while an npx/uvx server's package is prepared: nothing for a package that is
// ready at once (it said "a first start installs it" at every start, cached or not: #30), and, for
// one that takes a while, what it does and how long it has taken, until it is done.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportPreparation } from '../../../electron/proxy/preparation-progress.js';
import type { StdioTransportConfig } from '../../../shared/domain.js';

const npx: StdioTransportConfig = { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem'], env: {} };

afterEach(() => {
  vi.useRealTimers();
});

describe('reportPreparation', () => {
  it('says nothing for a package ready within the quiet time', () => {
    vi.useFakeTimers();
    const said: (string | undefined)[] = [];
    const done = reportPreparation(npx, (text) => said.push(text), 3000, 1000);
    vi.advanceTimersByTime(999);
    done();
    vi.advanceTimersByTime(10_000);
    expect(said).toEqual([]);
  });

  it('says what it does once it takes a while, then how long, and clears it when done', () => {
    vi.useFakeTimers();
    const said: (string | undefined)[] = [];
    const done = reportPreparation(npx, (text) => said.push(text), 3000, 1000);
    vi.advanceTimersByTime(1000);
    expect(said).toEqual([expect.stringMatching(/^preparing its package \(npx -y @modelcontextprotocol\/server-filesystem\): a first start installs it/)]);
    vi.advanceTimersByTime(3000);
    expect(said.at(-1)).toBe('still preparing its package (4 s)');
    done();
    expect(said.at(-1)).toBeUndefined();
    const count = said.length;
    vi.advanceTimersByTime(10_000);
    expect(said.length).toBe(count);
  });

  it('says nothing for a server that is not launched from a package', () => {
    const said: (string | undefined)[] = [];
    reportPreparation({ type: 'stdio', command: 'node', args: ['server.js'], env: {} }, (text) => said.push(text))();
    expect(said).toEqual([]);
  });
});
