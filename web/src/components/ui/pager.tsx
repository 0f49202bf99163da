import { Button, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

interface PagerProps {
  page: number;
  /** The answer's next page token; empty on the last page. */
  nextToken: string;
  onNext: (token: string) => void;
  onPrevious: () => void;
}

/** Previous and next buttons of a paged list, and the page number. */
export function Pager({ page, nextToken, onNext, onPrevious }: PagerProps) {
  const { t } = useTranslation();
  if (page === 1 && !nextToken) return null;
  return (
    <HStack as="nav" aria-label={t('pager.label')} justify="space-between">
      <Button variant="outline" size="sm" onClick={onPrevious} disabled={page === 1}>
        {t('pager.previous')}
      </Button>
      <Text aria-live="polite">{t('pager.page', { page })}</Text>
      <Button variant="outline" size="sm" onClick={() => onNext(nextToken)} disabled={!nextToken}>
        {t('pager.next')}
      </Button>
    </HStack>
  );
}

interface TokenPagerProps {
  /** The list's pages (usePageTokens). */
  pages: { page: number; next: (token: string) => void; previous: () => void };
  nextToken: string;
}

/** The Pager of a list paged with usePageTokens. */
export function TokenPager({ pages, nextToken }: TokenPagerProps) {
  return (
    <Pager
      page={pages.page}
      nextToken={nextToken}
      onNext={pages.next}
      onPrevious={pages.previous}
    />
  );
}
