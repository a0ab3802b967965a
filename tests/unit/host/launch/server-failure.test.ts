// The words a failed server gets: its own stderr and exit code first, a typo's likely fix, never the
// SDK's internals. Spawn errors are real ones, from Node, not hand-built look-alikes.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { resolveCommand } from '../../../../electron/host/sandbox/program-location.js';
import { describeServerFailure, describeSetupFailure, holdReason, suggestCommand } from '../../../../electron/host/launch/server-failure.js';
import { PrivateNetworkError } from '../../../../electron/host/sandbox/private-network.js';

function spawnError(command: string): Promise<Error> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [], { stdio: 'ignore' });
    child.once('error', resolve);
    child.once('spawn', () => {
      child.kill();
      reject(new Error(`${command} started`));
    });
  });
}

/** What the SDK throws when the child closed during the version probe (its own words, Nov 2026). */
const PROBE_CLOSED = Object.assign(
  new Error(
    "Version negotiation failed: the connection closed during the server/discover probe (this transport probed in place — the disposable sibling probe requires the SDK's base StdioClientTransport)",
  ),
  { code: 'ERA_NEGOTIATION_FAILED' },
);

describe('describeServerFailure', () => {
  it('says "command not found" with the likely command for a typo', async () => {
    const failure = describeServerFailure({ error: await spawnError('npxx'), transport: 'stdio', command: 'npxx' });
    expect(failure).toMatchObject({ code: 'command-not-found', command: 'npxx', suggestion: 'npx' });
    expect(failure.message).toBe('command not found: npxx (did you mean npx?)');
  });

  it('names a missing working folder as the other possible cause of ENOENT', async () => {
    const failure = describeServerFailure({ error: await spawnError('no-such-mcp-server'), transport: 'stdio', command: 'no-such-mcp-server', cwd: '/no/such/folder' });
    expect(failure.code).toBe('command-not-found');
    expect(failure.suggestion).toBeUndefined();
    expect(failure.message).toBe('command not found: no-such-mcp-server, or the working folder /no/such/folder does not exist');
  });

  it('reads bubblewrap’s own report of a missing program (a sandboxed server)', () => {
    // What bwrap 0.x prints, as run here: `bwrap --ro-bind / / npxx`.
    const failure = describeServerFailure({ error: PROBE_CLOSED, transport: 'stdio', command: 'npxx', exit: { code: 1, signal: null }, stderr: ['bwrap: execvp npxx: No such file or directory'] });
    expect(failure).toMatchObject({ code: 'command-not-found', suggestion: 'npx', message: 'command not found: npxx (did you mean npx?)' });
  });

  it('says a folder is not a program', async () => {
    const failure = describeServerFailure({ error: await spawnError(os.tmpdir()), transport: 'stdio', command: os.tmpdir() });
    expect(failure.code).toBe('not-executable');
    expect(failure.message).toContain(`cannot run ${os.tmpdir()}`);
  });

  it('leads with the exit code and the server’s last stderr lines, not the SDK’s probe message', () => {
    const failure = describeServerFailure({
      error: PROBE_CLOSED,
      transport: 'stdio',
      command: 'npx',
      exit: { code: 1, signal: null },
      stderr: ['', 'Error: GITHUB_TOKEN environment variable is required'],
    });
    expect(failure).toMatchObject({ code: 'exited', exitCode: 1, stderr: ['Error: GITHUB_TOKEN environment variable is required'] });
    expect(failure.message).toBe('exited with code 1: Error: GITHUB_TOKEN environment variable is required');
    expect(failure.message).not.toMatch(/negotiation|probe/i);
    expect(failure.detail).toBe(PROBE_CLOSED.message);
  });

  it('says a browser could not make its own sandbox, with the narrow fix for that server (never the sandbox off)', () => {
    const chromium =
      '[2:2:1128/122630.579464:ERROR:content/browser/zygote_host/zygote_host_impl_linux.cc:130] No usable sandbox! If this is a Debian system, please install the chromium-sandbox package to solve this problem.';
    const failure = describeServerFailure({ error: new Error('Connection closed'), transport: 'stdio', command: 'npx', server: "Tom's browser", exit: { code: 1, signal: null }, stderr: ['Launching the browser', chromium] });
    expect(failure).toMatchObject({ code: 'browser-sandbox', exitCode: 1, stderr: ['Launching the browser', chromium] });
    expect(failure.message).toBe(
      `exited with code 1: its browser (Chromium) could not make a sandbox of its own inside this one; allow it its own sandboxes (mcp-roots servers set "Tom's browser" --own-sandboxes on, or the server's "Own sandboxes" switch), or start its browser with --no-sandbox`,
    );
  });

  it('keeps only the last few stderr lines, in their order', () => {
    const stderr = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`);
    const failure = describeServerFailure({ error: PROBE_CLOSED, transport: 'stdio', command: 'node', exit: { code: 2, signal: null }, stderr });
    expect(failure.stderr).toEqual(['line 8', 'line 9', 'line 10', 'line 11', 'line 12']);
    expect(failure.message).toBe('exited with code 2: line 8 / line 9 / line 10 / line 11 / line 12');
  });

  it('says so when the process exited without a word', () => {
    const failure = describeServerFailure({ error: PROBE_CLOSED, transport: 'stdio', command: 'node', exit: { code: 3, signal: null }, stderr: [] });
    expect(failure.message).toBe('exited with code 3 before answering, and wrote nothing to stderr');
  });

  it('names a signal', () => {
    const failure = describeServerFailure({ error: PROBE_CLOSED, transport: 'stdio', command: 'node', exit: { code: null, signal: 'SIGKILL' } });
    expect(failure).toMatchObject({ code: 'exited', signal: 'SIGKILL', message: 'was stopped by SIGKILL before answering, and wrote nothing to stderr' });
  });

  it('says a silent server did not answer in time, with what it did say', () => {
    const failure = describeServerFailure({
      error: Object.assign(new Error('Request timed out'), { code: 'REQUEST_TIMEOUT' }),
      transport: 'stdio',
      command: 'uvx',
      stderr: ['Downloading 120 packages…'],
      timeoutMs: 20_000,
    });
    expect(failure).toMatchObject({ code: 'timed-out', timeoutMs: 20_000 });
    expect(failure.message).toBe('did not answer in time (20 s): Downloading 120 packages…');
  });

  it('never leads with the SDK’s words even when nothing else is known', () => {
    const failure = describeServerFailure({ error: PROBE_CLOSED, transport: 'stdio', command: 'node' });
    expect(failure.code).toBe('other');
    expect(failure.message).toBe('closed the connection before the handshake finished');
  });

  it('says an HTTP server cannot be reached, and why, from the cause chain', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:65001'), { code: 'ECONNREFUSED' });
    const error = Object.assign(new Error('Version negotiation probe failed: fetch failed', { cause: new TypeError('fetch failed', { cause: refused }) }), {
      code: 'ERA_NEGOTIATION_FAILED',
    });
    const failure = describeServerFailure({ error, transport: 'http', url: 'http://127.0.0.1:65001/mcp' });
    expect(failure).toMatchObject({ code: 'unreachable', url: 'http://127.0.0.1:65001/mcp' });
    expect(failure.message).toBe('cannot reach http://127.0.0.1:65001/mcp (connection refused: is the server running?)');
  });

  it('names an HTTP error status', () => {
    const error = Object.assign(new Error('Unauthorized'), { code: 'CLIENT_HTTP_AUTHENTICATION', data: { status: 401 } });
    const failure = describeServerFailure({ error, transport: 'http', url: 'https://example.test/mcp' });
    expect(failure).toMatchObject({ code: 'http-status', httpStatus: 401, message: 'https://example.test/mcp answered HTTP 401' });
  });
});

describe('suggestCommand', () => {
  it('suggests the launcher a typo was meant to be, and nothing for a real one', () => {
    expect(suggestCommand('npxx')).toBe('npx');
    expect(suggestCommand('nod')).toBe('node');
    expect(suggestCommand('uxv')).toBe('uvx');
    expect(suggestCommand('pyhton3')).toBe('python3');
    expect(suggestCommand('/usr/local/bin/npxx')).toBe('npx');
    expect(suggestCommand('npx')).toBeUndefined();
    expect(suggestCommand('my-own-server')).toBeUndefined();
  });

  it('words a sandboxed typo like an unsandboxed one, from the sandbox’s real refusal', () => {
    const refusal = (command: string) => {
      try {
        resolveCommand(command, os.tmpdir(), process.env.PATH);
      } catch (error) {
        return error as Parameters<typeof describeSetupFailure>[0];
      }
      throw new Error(`${command} was found`);
    };
    expect(describeSetupFailure(refusal('nod'), 'nod')).toMatchObject({ code: 'command-not-found', message: 'command not found: nod (did you mean node?)', suggestion: 'node' });
    // A path may exist without being runnable: the sandbox's own words, not a guess.
    const pathRefusal = describeSetupFailure(refusal('./no-such-server'), './no-such-server');
    expect(pathRefusal.code).toBe('other');
    expect(pathRefusal.message).toBe('Not started: "./no-such-server" is not an executable file.');
  });
});

describe('holdReason: which failures wait for a change instead of a timer', () => {
  it('holds a path the sandbox blocked and a command line the sandbox cannot prepare; retries what may be fixed outside the app', () => {
    expect(holdReason({ blocked: true })).toBe('blocked-path');
    expect(holdReason({ blocked: false, setup: 'npx-unsupported' })).toBe('setup');
    for (const setup of ['command-not-found', 'package-install-failed', 'uv-missing'] as const) expect(holdReason({ blocked: false, setup })).toBeUndefined();
    expect(holdReason({ blocked: false })).toBeUndefined();
  });

  it('words pasta failing at a start with its own line and the fix for that server, before how bwrap ended', () => {
    const error = new PrivateNetworkError("Couldn't open network namespace /proc/4242/ns/net: Permission denied");
    const failure = describeServerFailure({ error, transport: 'stdio', command: 'npx', server: "Tom's browser", exit: { code: null, signal: 'SIGKILL' } });
    expect(failure).toMatchObject({ code: 'private-network', server: "Tom's browser", command: 'npx', detail: error.pastaSaid });
    expect(failure.message).toBe(
      `pasta could not give it a network of its own (${error.pastaSaid}): if it does not need the network, turn its network off (mcp-roots servers set "Tom's browser" --network off); otherwise repair pasta (package "passt"), which gives each network-on server a network of its own`,
    );
    expect(failure.message).not.toMatch(/sandbox off|without (the )?sandbox/i);
  });
});
