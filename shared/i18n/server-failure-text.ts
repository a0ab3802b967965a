// A server's start/connect failure in the person's language, from its code: what happened first,
// then what to try. The server's own stderr lines are shown as they are (they are its words).
import type { ServerFailure } from '../domain.js';
import type { Translate } from './translate.js';

export interface FailureWords {
  /** One or two sentences: what happened. */
  lead: string;
  /** What to try, when there is a likely fix. */
  hint?: string | undefined;
}

export function failureWords(t: Translate, failure: ServerFailure): FailureWords {
  switch (failure.code) {
    case 'command-not-found':
      return {
        lead: t('failure.commandNotFound', { command: failure.command ?? '' }),
        hint: [failure.suggestion ? t('failure.didYouMean', { suggestion: failure.suggestion }) : '', failure.cwd ? t('failure.orCwd', { cwd: failure.cwd }) : '']
          .filter(Boolean)
          .join(' ') || undefined,
      };
    case 'not-executable':
      return { lead: t('failure.notExecutable', { command: failure.command ?? '' }) };
    case 'exited': {
      const how = failure.exitCode !== undefined ? t('failure.exitedCode', { code: String(failure.exitCode) }) : t('failure.exitedSignal', { signal: failure.signal ?? '' });
      return { lead: (failure.stderr ?? []).length > 0 ? how : `${how} ${t('failure.silent')}` };
    }
    case 'timed-out':
      return { lead: t('failure.timedOut', { seconds: Math.round((failure.timeoutMs ?? 0) / 1000) }) };
    case 'unreachable':
      return { lead: t('failure.unreachable', { url: failure.url ?? '' }) };
    case 'http-status':
      return { lead: t('failure.httpStatus', { url: failure.url ?? '', status: String(failure.httpStatus ?? '') }) };
    case 'sealed-secret':
      return { lead: t('failure.sealedSecret') };
    case 'browser-sandbox':
      return { lead: t('failure.browserSandbox'), hint: t('failure.browserSandboxFix') };
    case 'private-network':
      // pasta's own last line, as it said it (like a server's stderr).
      return { lead: t('failure.privateNetwork', { said: failure.detail ?? '' }), hint: t('failure.privateNetworkFix') };
    default:
      return { lead: (failure.stderr ?? []).length > 0 ? t('failure.other') : (failure.detail && !/negotiation|probe/i.test(failure.detail) ? failure.detail : t('failure.other')) };
  }
}

/** The one line the server list shows: the server's own last words when it left any, else the lead. */
export function failureSummary(t: Translate, failure: ServerFailure): string {
  const lastWords = failure.stderr?.at(-1);
  const { lead } = failureWords(t, failure);
  return lastWords ? `${lead} ${lastWords}` : lead;
}
