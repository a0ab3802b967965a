// Text with the part a filter matched marked, so a person sees why a row is shown.
import type { FilterMatch } from './matrix-view.js';

export function Highlighted({ text, match }: { text: string; match: Pick<FilterMatch, 'start' | 'end'> | undefined }) {
  if (!match || match.end <= match.start) return <>{text}</>;
  return (
    <>
      {text.slice(0, match.start)}
      <mark className="match">{text.slice(match.start, match.end)}</mark>
      {text.slice(match.end)}
    </>
  );
}

/** A long path cut from the left so the match stays in view in a narrow column ("…/team-7/web"). */
export function clipAround(text: string, match: Pick<FilterMatch, 'start' | 'end'>, lead = 16): { text: string; match: Pick<FilterMatch, 'start' | 'end'> } {
  if (match.start <= lead + 1) return { text, match };
  const cut = match.start - lead;
  return { text: `…${text.slice(cut)}`, match: { start: match.start - cut + 1, end: match.end - cut + 1 } };
}
