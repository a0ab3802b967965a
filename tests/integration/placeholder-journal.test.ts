// An app killed outright leaves no placeholders for good (placeholder-journal.ts): a process that
// confined a server with a read-write grant of a plain folder is SIGKILLed, its empty `.vscode`,
// `.mcp.json`… stay behind, and the next process that confines with the same data folder removes
// them, except one the person wrote into meanwhile.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PlaceholderJournal } from '../../electron/host/sandbox/placeholder-journal.js';
import { probeSandbox } from '../../electron/host/sandbox/sandbox-probe.js';
import { removeTempDirs, tempDir, waitFor } from '../support/index.js';

const support = await probeSandbox();
const repoRoot = path.resolve(import.meta.dirname, '../..');
afterEach(removeTempDirs);

describe.skipIf(support.kind !== 'bwrap')('placeholders of a process killed outright', () => {
  it('are removed by the next process with the same data folder, unless the person wrote into one', async () => {
    const dataDir = tempDir('journal-data-');
    const project = tempDir('journal-project-');
    fs.writeFileSync(path.join(project, 'notes.txt'), 'mine\n');
    // Placeholders are made only where there is no file view (it holds missing names without them): the child runs without it.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'tests/fixtures/placeholders-then-killed.ts'), dataDir, project], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MCP_ROOTS_FILE_VIEW: 'off' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await waitFor(() => out.startsWith('ready'), { what: 'the confined server', timeoutMs: 60_000, explain: () => err });
    expect(out).toMatch(/^ready ERROR E(ROFS|BUSY|ACCES|PERM)/);
    const held = fs.readdirSync(project).sort();
    expect(held).toEqual(expect.arrayContaining(['.vscode', '.mcp.json', '.claude', 'notes.txt']));
    child.kill('SIGKILL');
    await exited;
    // Nothing cleaned up: the placeholders are still there, and the journal names them.
    expect(fs.readdirSync(project).sort()).toEqual(held);
    // The person writes into one meanwhile: that one is theirs now.
    fs.writeFileSync(path.join(project, '.mcp.json'), '{"mine":true}\n');

    PlaceholderJournal.for(dataDir);
    await waitFor(() => fs.readdirSync(project).sort().join(' ') === '.mcp.json notes.txt', {
      what: 'the dead process’s placeholders to be removed',
      timeoutMs: 30_000,
      explain: () => fs.readdirSync(project).join(' '),
    });
    expect(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8')).toBe('{"mine":true}\n');
    // Its journal is gone too, and this process's own is empty (nothing left to release).
    await waitFor(() => fs.readdirSync(path.join(dataDir, 'sandbox', 'placeholders')).length === 0, { what: 'the journals to be emptied', timeoutMs: 30_000 });
  }, 120_000);
});
