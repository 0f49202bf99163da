import { Badge, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { RatingStars } from '@/components/ui/rating-stars';
import type { Quote } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** The professional's reviews in short: stars and count, or that there are none yet. */
export function QuoteRating({ quote }: { quote: Quote }) {
  const { t } = useTranslation();
  const reviews = quote.professionalReviews;
  if (!reviews || reviews.reviewCount === 0) {
    return (
      <Text as="span" fontSize="sm" color="fg.muted">
        {t('ratings.none')}
      </Text>
    );
  }
  return <RatingStars rating={reviews.averageRating} count={reviews.reviewCount} />;
}

/** The spec's "Surge Cost": this job's fee replaces the professional's standard fee. */
export function SurgeBadge() {
  const { t } = useTranslation();
  return (
    <Badge colorPalette="orange" variant="solid" title={t('jobs.surgeHelp')}>
      {t('jobs.surgeCost')}
    </Badge>
  );
}
