import { useEffect, useLayoutEffect, type ReactNode } from 'react';

interface TakeOverProps {
  restoreTyped: () => void;
  onTakenOver: () => void;
  children: ReactNode;
}

/**
 * Around the app taking a prerendered page over: once its first render is in place, puts back
 * what the visitor typed (in the same commit, before another keystroke can come); once its
 * effects have run too (the forms' handlers ready), says the page is the app's.
 */
export function TakeOver({ restoreTyped, onTakenOver, children }: TakeOverProps) {
  useLayoutEffect(restoreTyped, [restoreTyped]);
  useEffect(onTakenOver, [onTakenOver]);
  return children;
}
