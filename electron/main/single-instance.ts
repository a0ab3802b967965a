// One app per registry: a second launch hands over to the first, which brings its window forward.
import { app } from 'electron';

/** False when another instance already runs: the caller quits at once. */
export function claimSingleInstance(onSecondInstance: () => void): boolean {
  if (!app.requestSingleInstanceLock()) return false;
  app.on('second-instance', () => onSecondInstance());
  return true;
}
