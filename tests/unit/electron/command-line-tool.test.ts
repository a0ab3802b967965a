// The "Install Command Line Tool…" menu item: it installs for real (into a temp HOME) and says
// where, in the system's language.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', async () => (await import('./electron-mock.js')).electronModule);

import { commandLineToolItem, commandLineToolWords, outcomeMessage } from '../../../electron/main/command-line-tool.js';
import { productionMenuTemplate } from '../../../electron/main/app-menu.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { waitFor } from '../../support/wait-for.js';
import { electronMock, resetElectronMock } from './electron-mock.js';

const home = process.env.HOME;
beforeEach(() => resetElectronMock());
afterEach(() => {
  process.env.HOME = home;
  removeTempDirs();
});

describe('Install Command Line Tool…', () => {
  it('installs mcp-roots into ~/.local/bin and says where', async () => {
    process.env.HOME = tempDir('home-');
    const item = commandLineToolItem('linux');
    expect(item?.label).toBe('Install Command Line Tool…');
    (item?.click as () => void)();
    const installed = path.join(process.env.HOME, '.local', 'bin', 'mcp-roots');
    await waitFor(() => electronMock.dialog.showMessageBox.mock.calls.length > 0, { what: 'the outcome dialog' });
    expect(electronMock.dialog.showMessageBox).toHaveBeenCalledWith(expect.objectContaining({ message: `The mcp-roots command is installed: ${installed}` }));
    expect(fs.readFileSync(installed, 'utf8')).toContain('bin/mcp-roots.js');
  });

  it('is not offered on Windows; is in the tray-less macOS menu bar under File', () => {
    expect(commandLineToolItem('win32')).toBeUndefined();
    const item = { label: 'Install Command Line Tool…' };
    expect(productionMenuTemplate('darwin', [item])).toEqual([{ role: 'appMenu' }, { role: 'fileMenu', submenu: [item] }, { role: 'editMenu' }, { role: 'windowMenu' }]);
    expect(productionMenuTemplate('linux', [item])).toBeNull();
  });

  it('words each outcome in English, German and Chinese', () => {
    const notOnPath = { ok: true as const, path: '/home/me/.local/bin/mcp-roots', replaced: false, onPath: false };
    expect(outcomeMessage(notOnPath, commandLineToolWords('en-US'))).toMatchObject({ type: 'warning', detail: expect.stringContaining('/home/me/.local/bin is not on your PATH') });
    expect(outcomeMessage(notOnPath, commandLineToolWords('de-DE')).detail).toContain('noch nicht in Ihrem PATH');
    expect(outcomeMessage(notOnPath, commandLineToolWords('zh-CN')).detail).toContain('还不在您的 PATH 中');
    const refused = { ok: false as const, reason: 'not-ours' as const, detail: 'x exists' };
    expect(outcomeMessage(refused, commandLineToolWords('de'))).toEqual({ type: 'error', message: 'Der Befehl mcp-roots konnte nicht installiert werden', detail: 'x exists' });
  });
});
