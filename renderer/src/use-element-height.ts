// The height of an element found inside a container, kept current as it changes (a sticky header whose
// server names wrap to more lines): for layout math that must match what CSS drew.
import { useLayoutEffect, useState, type RefObject } from 'react';

export function useElementHeight(containerRef: RefObject<HTMLElement | null>, selector: string, initial: number): number {
  const [height, setHeight] = useState(initial);
  useLayoutEffect(() => {
    const element = containerRef.current?.querySelector<HTMLElement>(selector);
    if (!element) return;
    const read = () => setHeight(element.offsetHeight);
    read();
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => observer.disconnect();
  }, [containerRef, selector]);
  return height;
}
