// Fixed-height row windowing: only the rows in (and just around) the viewport are rendered, so
// 1,000 folders cost the same as 30. Rows have one height by design, which keeps this tiny.
import { useCallback, useLayoutEffect, useState, type RefObject } from 'react';

export interface RowWindow {
  start: number;
  end: number;
  padTop: number;
  padBottom: number;
}

export function useVirtualRows(
  scrollRef: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  /** Height of sticky content above the first row inside the scroller (headers). */
  offsetTop = 0,
  overscan = 6,
): RowWindow & { scrollToRow(index: number): void } {
  const [view, setView] = useState({ scrollTop: 0, height: 600 });

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setView((previous) =>
        previous.scrollTop === element.scrollTop && previous.height === element.clientHeight
          ? previous
          : { scrollTop: element.scrollTop, height: element.clientHeight },
      );
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    read();
    element.addEventListener('scroll', onScroll, { passive: true });
    const observer = new ResizeObserver(onScroll);
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      element.removeEventListener('scroll', onScroll);
      observer.disconnect();
    };
  }, [scrollRef]);

  // Sticky headers sit in the flow above row 0, so the row under them is scrollTop / rowHeight.
  const first = Math.floor(view.scrollTop / rowHeight);
  const visible = Math.ceil(Math.max(0, view.height - offsetTop) / rowHeight) + 1;
  const start = Math.max(0, Math.min(count, first - overscan));
  const end = Math.min(count, first + visible + overscan);

  const scrollToRow = useCallback(
    (index: number) => {
      const element = scrollRef.current;
      if (!element) return;
      const top = offsetTop + index * rowHeight;
      const viewTop = element.scrollTop + offsetTop;
      const viewBottom = element.scrollTop + element.clientHeight;
      if (top < viewTop) element.scrollTop = top - offsetTop;
      else if (top + rowHeight > viewBottom) element.scrollTop = top + rowHeight - element.clientHeight;
    },
    [scrollRef, rowHeight, offsetTop],
  );

  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight, scrollToRow };
}
