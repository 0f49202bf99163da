import { HStack, Text } from '@chakra-ui/react';
import { Star } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LOCALES } from '@/lib/language';
import { formatNumber } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';

const STARS = [1, 2, 3, 4, 5] as const;

interface RatingStarsProps {
  /** 1 to 5; a mean may be fractional (it is rounded to the nearest star). */
  rating: number;
  /** How many reviews the mean is over; left out for one review. */
  count?: number;
}

/**
 * A rating as five stars, read by screen readers as one phrase ("Rated 4.5 out of 5, from 12
 * reviews"): the stars are a picture, the figures beside them are text.
 */
export function RatingStars({ rating, count }: RatingStarsProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const rounded = Math.round(rating);
  const figure = new Intl.NumberFormat(LOCALES[language], {
    maximumFractionDigits: 1,
  }).format(rating);
  const label =
    count === undefined
      ? t('ratings.rated', { rating: figure })
      : t('ratings.ratedFrom', { rating: figure, count, reviews: formatNumber(count, language) });
  return (
    <HStack gap="1" role="img" aria-label={label}>
      {STARS.map((star) => (
        <Star
          key={star}
          aria-hidden
          size={16}
          color="var(--chakra-colors-orange-600)"
          fill={star <= rounded ? 'var(--chakra-colors-orange-500)' : 'none'}
        />
      ))}
      <Text as="span" aria-hidden fontSize="sm" color="fg.muted">
        {count === undefined ? figure : `${figure} (${formatNumber(count, language)})`}
      </Text>
    </HStack>
  );
}
