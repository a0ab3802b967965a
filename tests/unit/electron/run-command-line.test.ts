// The command line inside the app's executable: the command's exit code, after stdout is drained.
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { runCommandLine } from '../../../electron/main/run-command-line.js';

describe('running the command line in the app', () => {
  it('exits with the command\'s code once everything written reached stdout', async () => {
    const stdout = new PassThrough();
    const order: string[] = [];
    const write = stdout.write.bind(stdout);
    stdout.write = ((chunk: unknown, ...rest: unknown[]) => {
      order.push('write');
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stdout.write;
    const exit = vi.fn((code: number) => order.push(`exit ${code}`));
    await runCommandLine(['status'], { main: async (args) => (stdout.write(`ran ${args.join(' ')}\n`), 3), exit, stdout, platform: 'linux' });
    expect(exit).toHaveBeenCalledWith(3);
    expect(order.at(-1)).toBe('exit 3');
    expect(stdout.read()?.toString()).toBe('ran status\n');
  });

  it('hides the Dock icon on macOS first, and exits 1 when the command throws', async () => {
    const hideDock = vi.fn(async () => undefined);
    const exit = vi.fn();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    await runCommandLine(['proxy', 'x'], {
      main: async () => {
        throw new Error('boom');
      },
      exit,
      stdout: new PassThrough(),
      platform: 'darwin',
      hideDock,
    });
    stderr.mockRestore();
    expect(hideDock).toHaveBeenCalledOnce();
    expect(exit).toHaveBeenCalledWith(1);
  });
});
