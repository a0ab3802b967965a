import { describe, expect, it } from 'vitest';
import { editLimits } from '../../../electron/cli/limit-options.js';

describe('servers set limit flags', () => {
  it('sets each limit given, takes "default" back, and leaves the others as they were', () => {
    expect(editLimits({ tasks: 100, files: 512 }, { maxTasks: '256', memoryMib: 'default', tmpMib: '64' })).toEqual({
      limits: { tasks: 256, files: 512, tmpMiB: 64 },
      changes: ['max-tasks 256', 'memory-mib back to its default (8192)', 'tmp-mib 64'],
    });
    expect(editLimits({ tasks: 100 }, {})).toBeUndefined();
  });

  it('refuses a value out of bounds or not a whole number, with the bounds', () => {
    expect(() => editLimits(undefined, { maxTasks: '8' })).toThrow('--max-tasks 8: it must be between 16 and 65536');
    expect(() => editLimits(undefined, { memoryMib: '1.5' })).toThrow('--memory-mib 1.5: it must be a whole number');
    expect(() => editLimits(undefined, { maxFiles: 'lots' })).toThrow(/--max-files lots: it must be a whole number/);
  });
});
