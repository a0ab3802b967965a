// "Did you mean": a mistyped server or root name gets the suggestion a mistyped command gets. The
// algorithm is commander's own (lib/suggestSimilar.js: edit distance at most 3, 40% alike, ties
// all shown), loaded by file because commander's package exports only its entry point.
import { createRequire } from 'node:module';
import path from 'node:path';
import { quote } from 'shell-quote';

type SuggestSimilar = (word: string, candidates: string[]) => string;

let loaded: SuggestSimilar | null | undefined;

function commanderSuggestSimilar(): SuggestSimilar | null {
  if (loaded !== undefined) return loaded;
  try {
    const require = createRequire(import.meta.url);
    const file = path.join(path.dirname(require.resolve('commander')), 'lib', 'suggestSimilar.js');
    loaded = (require(file) as { suggestSimilar: SuggestSimilar }).suggestSimilar;
  } catch {
    // A layout without commander's file (it moved in a new version): no suggestion, the error stands.
    loaded = null;
  }
  return loaded;
}

/**
 * " (did you mean X?)", worded as the CLI words commander's suggestion for a command; '' for none.
 * A name that needs quoting in a shell is suggested quoted, ready to paste ('my project').
 */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const text = commanderSuggestSimilar()?.(word, [...candidates]) ?? '';
  const match = /\(Did you mean (one of )?(.*)\?\)/.exec(text);
  if (!match) return '';
  // commander joins the names with ", ": matched back to the candidates, so a name with a comma stays whole.
  // Once each: a root's name may be among the candidates twice (its name and its label).
  const named = [...new Set(candidates)].filter((candidate) => (match[2] as string).split(', ').includes(candidate) || match[2] === candidate);
  const shown = (named.length ? named : [match[2] as string]).map((name) => quote([name]));
  return ` (did you mean ${match[1] ?? ''}${shown.join(', ')}?)`;
}
