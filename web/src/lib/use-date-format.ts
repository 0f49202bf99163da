import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { useCallback } from 'react';
import { formatDate } from '@/lib/date-format';
import { useLanguage } from '@/lib/use-language';

/** Formats a contract timestamp with `options` in the page's language ('' when unset). */
function useTimestampFormat(options: Intl.DateTimeFormatOptions) {
  const language = useLanguage();
  const { dateStyle, timeStyle } = options;
  return useCallback(
    (time: Timestamp | undefined) =>
      time ? formatDate(timestampDate(time), language, { dateStyle, timeStyle }) : '',
    [language, dateStyle, timeStyle],
  );
}

/**
 * Formats a contract timestamp as a date in the page's language ('' when unset): 'medium'
 * in tables (Nov 23, 2026), 'long' in sentences (23 novembre 2026, 1er décembre 2026).
 */
export function useDateFormat(dateStyle: 'medium' | 'long' = 'medium') {
  return useTimestampFormat({ dateStyle });
}

/** A date and its time (when a request was placed): 'Nov 23, 2026, 3:30 p.m.'. */
export function useDateTimeFormat() {
  return useTimestampFormat({ dateStyle: 'medium', timeStyle: 'short' });
}
