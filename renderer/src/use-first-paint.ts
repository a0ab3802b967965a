// The first frame of a big view should hold only what is on screen. Rows and columns just out of
// view cost as much to build and lay out as visible ones, so on that first frame they only delay
// what the person is waiting for. Views draw the visible part first, then fill in the rest when this
// turns true, right after that frame has been painted.
import { startTransition, useEffect, useState } from 'react';

export function useFirstPaintDone(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    // A rAF callback runs just before the next frame is painted; a task queued from it runs after.
    // The fill-in is a transition: React renders it in slices, so a click meanwhile is not kept waiting.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setPainted(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted;
}
