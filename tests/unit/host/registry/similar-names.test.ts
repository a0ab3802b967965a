// "Did you mean": a mistyped server or root name gets commander's suggestion, ready to paste.
import { describe, expect, it } from 'vitest';
import { didYouMean } from '../../../../electron/host/registry/similar-names.js';

describe('did you mean', () => {
  it('suggests a close name, quoted for a shell where it needs it (#30 item 8)', () => {
    expect(didYouMean('filesytem', ['filesystem', 'github'])).toBe(' (did you mean filesystem?)');
    expect(didYouMean('my projct', ['my project', 'other'])).toBe(" (did you mean 'my project'?)");
    expect(didYouMean('zzzz', ['filesystem'])).toBe('');
    // A candidate given twice (a root's name and its label) is suggested once.
    expect(didYouMean('projct-a', ['project-a', 'project-a', 'other'])).toBe(' (did you mean project-a?)');
  });

  it('names every tie, each quoted on its own', () => {
    expect(didYouMean('abcx', ['ab cx', 'abcy'])).toMatch(/^ \(did you mean one of ('ab cx', abcy|abcy, 'ab cx')\?\)$/);
  });
});
