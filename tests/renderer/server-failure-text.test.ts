// A failure's words in each language come from its code; the server's own stderr is never translated.
import { describe, expect, it } from 'vitest';
import type { ServerFailure } from '../../shared/domain.js';
import { createTranslator } from '../../shared/i18n/translate.js';
import { failureSummary, failureWords } from '../../shared/i18n/server-failure-text.js';

const exited: ServerFailure = {
  code: 'exited',
  message: 'exited with code 1: Error: GITHUB_TOKEN environment variable is required',
  exitCode: 1,
  stderr: ['Error: GITHUB_TOKEN environment variable is required'],
  detail: 'Version negotiation failed: the connection closed during the server/discover probe',
};
const typo: ServerFailure = { code: 'command-not-found', message: 'command not found: npxx (did you mean npx?)', command: 'npxx', suggestion: 'npx' };

describe('failureWords', () => {
  it('leads with the exit code in every language and keeps the server’s words as they are', () => {
    expect(failureWords(createTranslator('en'), exited)).toEqual({ lead: 'Exited with code 1.' });
    expect(failureWords(createTranslator('de'), exited).lead).toBe('Mit Code 1 beendet.');
    expect(failureWords(createTranslator('zh-CN'), exited).lead).toBe('已退出，退出码 1。');
    expect(failureSummary(createTranslator('de'), exited)).toBe('Mit Code 1 beendet. Error: GITHUB_TOKEN environment variable is required');
  });

  it('names the missing command and suggests the likely one', () => {
    expect(failureWords(createTranslator('en'), typo)).toEqual({ lead: 'Command not found: npxx', hint: 'Did you mean npx?' });
    expect(failureWords(createTranslator('de'), typo).hint).toBe('Meintest du npx?');
  });

  it('never shows the SDK’s negotiation message as the lead', () => {
    const words = failureWords(createTranslator('en'), { code: 'other', message: 'x', detail: 'Version negotiation failed: probe requires the base StdioClientTransport' });
    expect(words.lead).toBe('It closed the connection before the handshake finished.');
  });

  it('says a silent exit was silent', () => {
    expect(failureWords(createTranslator('en'), { code: 'exited', message: 'x', exitCode: 3, stderr: [] }).lead).toBe(
      'Exited with code 3. It wrote nothing to stderr before it stopped.',
    );
  });

  it('says pasta failed in every language, with pasta’s own line as it said it, and the narrow fix (never the sandbox off)', () => {
    const said = "Couldn't open network namespace /proc/4242/ns/net: Permission denied";
    const pasta: ServerFailure = { code: 'private-network', message: 'x', server: 'web', detail: said };
    expect(failureWords(createTranslator('en'), pasta)).toEqual({
      lead: `pasta, which gives this server a network of its own, could not set it up, so the server was not run. pasta said: ${said}`,
      hint: 'If it does not need the network, turn its network off. Otherwise repair pasta (package “passt”).',
    });
    for (const locale of ['de', 'zh-CN'] as const) {
      const words = failureWords(createTranslator(locale), pasta);
      expect(words.lead).toContain(said);
      expect(words.hint).toContain('passt');
      expect(`${words.lead} ${words.hint}`).not.toMatch(/sandbox|Sandbox|沙箱|沙盒/);
    }
  });
});
