// Whether the window is short (the desktop minimum, 800 x 600, is): the same 720 px line as
// short-window.css, for what CSS alone cannot fold (a list that starts open or closed).
import { useSyncExternalStore } from 'react';

const QUERY = '(max-height: 720px)';

function subscribe(onChange: () => void): () => void {
  const list = window.matchMedia(QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export function useShortWindow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(QUERY).matches);
}
