import { describe, expect, it } from 'vitest';
import { checkedServer, editTransport, transportFromFlags } from '../../../electron/cli/server-options.js';
import type { TransportConfig } from '../../../shared/domain.js';

const here = { cwd: '/home/me/app', home: '/home/me' };

describe('a new server from flags', () => {
  it('takes the command after -- with every argument as given, dashes and ${roots} included', () => {
    expect(transportFromFlags({}, ['npx', '-y', '@modelcontextprotocol/server-filesystem', '${roots}'], here)).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '${roots}'],
      env: {},
    });
  });

  it('takes --command and --arg, an env value exactly as typed, and a cwd made absolute', () => {
    expect(transportFromFlags({ command: 'node', arg: ['-e', 'x'], env: ['A= spaced ', 'B=1=2'], cwd: 'srv' }, [], here)).toEqual({
      type: 'stdio',
      command: 'node',
      args: ['-e', 'x'],
      env: { A: ' spaced ', B: '1=2' },
      cwd: '/home/me/app/srv',
    });
  });

  it('takes --url with headers', () => {
    expect(transportFromFlags({ url: 'https://x.test/mcp', header: ['Authorization: Bearer t'], transport: 'sse' }, [], here)).toEqual({
      type: 'sse',
      url: 'https://x.test/mcp',
      headers: { Authorization: 'Bearer t' },
    });
  });

  it('refuses a mix that cannot mean one thing', () => {
    expect(() => transportFromFlags({ command: 'a' }, ['b'], here)).toThrow('not both');
    expect(() => transportFromFlags({ url: 'https://x.test' }, ['b'], here)).toThrow('not both');
    expect(() => transportFromFlags({}, [], here)).toThrow('needs a command');
    expect(() => transportFromFlags({ command: 'a', header: ['x: y'] }, [], here)).toThrow('--url servers');
    expect(() => transportFromFlags({ command: 'a', env: ['NOEQUALS'] }, [], here)).toThrow('--env takes KEY=VALUE');
  });

  it('is checked against the contract schema', () => {
    expect(() => checkedServer({ name: 'x', transport: { type: 'http', url: 'ftp://x', headers: {} }, enabled: true, sharing: true }, false)).toThrow(/transport.url: must be an http\(s\) URL/);
  });
});

describe('changing a server from flags', () => {
  const stdio: TransportConfig = { type: 'stdio', command: 'npx', args: ['old'], env: { KEEP: '1', DROP: '2' }, cwd: '/srv' };

  it('changes only what is given, and names it', () => {
    expect(editTransport(stdio, { env: ['NEW=3'], unsetEnv: ['DROP'] }, [], here)).toEqual({
      transport: { type: 'stdio', command: 'npx', args: ['old'], env: { KEEP: '1', NEW: '3' }, cwd: '/srv' },
      changes: ['env'],
    });
    expect(editTransport(stdio, { arg: ['-y', 'pkg'], noCwd: true }, [], here)?.transport).toEqual({ type: 'stdio', command: 'npx', args: ['-y', 'pkg'], env: { KEEP: '1', DROP: '2' } });
    expect(editTransport(stdio, {}, ['node', 'server.js'], here)?.transport).toMatchObject({ command: 'node', args: ['server.js'], env: { KEEP: '1', DROP: '2' } });
    expect(editTransport(stdio, {}, [], here)).toBeUndefined();
  });

  it('turns a command server into a URL one only when told, and says what goes', () => {
    const edit = editTransport(stdio, { url: 'https://x.test/mcp' }, [], here);
    expect(edit?.transport).toEqual({ type: 'http', url: 'https://x.test/mcp', headers: {} });
    expect(edit?.changes[0]).toContain('its env is dropped');
  });

  it('refuses flags of the other kind of server, and unsetting what is not there', () => {
    expect(() => editTransport(stdio, { header: ['a: b'] }, [], here)).toThrow('this one runs a command');
    expect(() => editTransport({ type: 'http', url: 'https://x.test', headers: {} }, { env: ['A=1'] }, [], here)).toThrow('this one is reached by URL');
    expect(() => editTransport(stdio, { unsetEnv: ['NOPE'] }, [], here)).toThrow('There is no env variable NOPE to unset.');
  });
});
