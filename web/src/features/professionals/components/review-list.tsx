import { Box, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useCustomerName } from '@/lib/use-customer-name';
import { EmptyState } from '@/components/empty-state';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { Pager } from '@/components/ui/pager';
import { RatingStars } from '@/components/ui/rating-stars';
import { useDateFormat } from '@/lib/use-date-format';
import { usePageTokens } from '@/lib/use-page-tokens';
import { useProfessionalReviewsPage } from '../api/list-professional-reviews';

/**
 * A professional's reviews on their public profile: the average and count over all of them,
 * then a page of reviews, newest first, each with its stars, text, author and date.
 */
export function ReviewList({ professionalId }: { professionalId: string }) {
  const { t } = useTranslation();
  const customerName = useCustomerName();
  const formatDate = useDateFormat();
  const pages = usePageTokens();
  const { data, isPending, error } = useProfessionalReviewsPage(professionalId, pages.token);
  const summary = data?.summary;
  return (
    <Stack as="section" gap="4" aria-labelledby="reviews-heading">
      <HStack gap="4" wrap="wrap">
        <Heading as="h2" size="lg" id="reviews-heading">
          {t('publicProfile.reviews')}
        </Heading>
        {summary && summary.reviewCount > 0 && (
          <RatingStars rating={summary.averageRating} count={summary.reviewCount} />
        )}
      </HStack>
      {isPending ? (
        <RouteLoader />
      ) : error ? (
        <RpcErrorAlert error={error} />
      ) : !data || data.reviews.length === 0 ? (
        <EmptyState title={t('publicProfile.noReviews')} />
      ) : (
        <>
          <Stack as="ul" gap="3" listStyleType="none">
            {data.reviews.map((review) => (
              <Box as="li" key={review.id} borderWidth="1px" borderRadius="md" p="4" bg="bg">
                <RatingStars rating={review.rating} />
                {review.text && (
                  <Text mt="2" whiteSpace="pre-line">
                    {review.text}
                  </Text>
                )}
                <Text mt="2" fontSize="sm" color="fg.muted">
                  {t('publicProfile.reviewBy', {
                    name: customerName(review),
                    date: formatDate(review.createTime),
                  })}
                </Text>
              </Box>
            ))}
          </Stack>
          <Pager
            page={pages.page}
            nextToken={data.nextPageToken}
            onNext={pages.next}
            onPrevious={pages.previous}
          />
        </>
      )}
    </Stack>
  );
}
