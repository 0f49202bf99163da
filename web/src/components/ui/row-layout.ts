import { createContext, useContext } from 'react';

/** How `SimpleTable` shows its rows: table rows, or stacked cards on narrow screens. */
export type RowLayout = 'table' | 'cards';

export const RowLayoutContext = createContext<RowLayout>('table');

/** The layout of the list the calling cell is drawn in. */
export const useRowLayout = () => useContext(RowLayoutContext);
