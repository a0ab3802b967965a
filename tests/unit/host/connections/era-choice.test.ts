import { describe, expect, it } from 'vitest';
import { preferredEra } from '../../../../electron/host/connections/era-choice.js';

describe('preferredEra', () => {
  it('puts folders first: 2025-11-25 over stdio while roots are carried, 2026-07-28 over HTTP', () => {
    expect(preferredEra({ transport: 'stdio', carriesRoots: true })).toBe('legacy-first');
    expect(preferredEra({ transport: 'http', carriesRoots: true })).toBe('modern-first');
    expect(preferredEra({ transport: 'sse', carriesRoots: true })).toBe('modern-first');
  });

  it('gives a server told no folders the newest era', () => {
    expect(preferredEra({ transport: 'stdio', carriesRoots: false })).toBe('modern-first');
    expect(preferredEra({ transport: 'http', carriesRoots: false })).toBe('modern-first');
  });

});
