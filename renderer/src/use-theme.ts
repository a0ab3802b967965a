// Light/dark follows the OS unless settings.theme overrides it. The resolved theme is written to
// <html data-theme> so CSS needs one set of variables per theme and no JS per component.
import { useEffect, useSyncExternalStore } from 'react';
import type { ThemePreference } from '../../shared/domain.js';

const query = '(prefers-color-scheme: dark)';

function subscribe(listener: () => void): () => void {
  const media = window.matchMedia(query);
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

const prefersDark = () => window.matchMedia(query).matches;

export function useAppliedTheme(preference: ThemePreference | undefined): 'light' | 'dark' {
  const systemDark = useSyncExternalStore(subscribe, prefersDark);
  const theme = preference === 'light' || preference === 'dark' ? preference : systemDark ? 'dark' : 'light';
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.style.colorScheme = theme;
  }, [theme]);
  return theme;
}
