import { useLayoutEffect, useState } from 'react';

/**
 * Whether a table fits the frame it is drawn in. The frame (given through `frameRef`, a
 * full-width block) holds the table's scroll area as its first child while the table is
 * drawn: when the table needs more width than the frame has, the answer turns false and
 * stays false until the frame is at least that wide again (a wider window, the side menu
 * gone), so the caller draws something narrower in the meantime rather than a table whose
 * last columns (a row's actions) sit out of sight. It follows resizes of the frame and of
 * the table (other rows, another language). Without ResizeObserver the answer is true.
 */
export function useTableFits(): { frameRef: (frame: HTMLElement | null) => void; fits: boolean } {
  const [frame, frameRef] = useState<HTMLElement | null>(null);
  const [frameWidth, setFrameWidth] = useState(Number.POSITIVE_INFINITY);
  const [needed, setNeeded] = useState(0);
  const fits = frameWidth >= needed;

  useLayoutEffect(() => {
    if (!frame || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      setFrameWidth(frame.clientWidth);
      const scrollArea = frame.firstElementChild;
      if (fits && scrollArea && scrollArea.scrollWidth > scrollArea.clientWidth + 1) {
        setNeeded(scrollArea.scrollWidth);
      }
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    const table = frame.querySelector('table');
    if (fits && table) observer.observe(table);
    return () => observer.disconnect();
  }, [frame, fits]);

  return { frameRef, fits };
}
