import { Button, Stack } from '@chakra-ui/react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PageTitle } from '@/components/page-title';
import { FormAlert } from '@/components/ui/form-alert';
import { CountedTextareaField } from '@/components/ui/counted-textarea-field';
import { AppLink } from '@/components/ui/links';
import { RadioGroupField } from '@/components/ui/radio-group-field';
import { toaster } from '@/components/ui/toast';
import { CreateReviewRequestSchema } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { fitsMaxLen, limitOf, maxLengthRule } from '@/lib/contract-limits';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { useCreateReview } from '../api/create-review';
import { JOB_PATHS } from '../paths';

/** CreateReviewRequest.text's rules: the contract's bound on a review's text. */
const REVIEW_TEXT = limitOf(CreateReviewRequestSchema, 'text');
/**
 * The stars, best first: each has its own words in the catalogues, so they are listed here;
 * they are CreateReviewRequest.rating's `gte` to `lte`.
 */
const RATINGS = ['5', '4', '3', '2', '1'] as const;

interface ReviewValues {
  rating: string;
  text: string;
}

const SERVER_FIELDS = { rating: 'rating', text: 'text' } as const;

/**
 * /submit-review/{professionalId}/{requestId}: 1 to 5 stars (a radio group) and an optional
 * text of at most 2000 characters with a counter; then the completed requests. The server
 * takes the professional from the request (the path's id is the spec's, for links).
 */
export function SubmitReviewPage() {
  const { t, i18n } = useTranslation();
  const maxLength = maxLengthRule(i18n, REVIEW_TEXT);
  const navigate = useLocalizedNavigate();
  const { req_id: requestId = '' } = useParams();
  const review = useCreateReview();
  const {
    control,
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ReviewValues>({ defaultValues: { rating: '', text: '' } });
  const text = useWatch({ control, name: 'text' });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });

  const submit = handleSubmit(async ({ rating, text: written }) => {
    server.clear();
    await review
      .mutateAsync({ repairRequestId: requestId, rating: Number(rating), text: written.trim() })
      .then(() => {
        toaster.create({ type: 'success', title: t('jobs.review.sent') });
        void navigate(JOB_PATHS.completed);
      })
      .catch(server.report);
  });

  return (
    <Stack gap="6" maxW="2xl">
      <AppLink to={JOB_PATHS.completed} color="brand.fg">
        {t('jobs.review.back')}
      </AppLink>
      <PageTitle title={t('pages.submitReview')} />
      {server.formError && <FormAlert title={server.formError} />}
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Stack gap="5" align="stretch">
          <Controller
            control={control}
            name="rating"
            rules={{ validate: (value) => value !== '' || t('jobs.review.ratingRequired') }}
            render={({ field }) => (
              <RadioGroupField
                legend={t('jobs.review.rating')}
                options={RATINGS.map((value) => ({
                  value,
                  label: t(`jobs.review.stars.${value}`),
                }))}
                value={field.value}
                onChange={field.onChange}
                inputRef={field.ref}
                error={errors.rating?.message}
                columns={{ base: 1, md: 1 }}
                required
              />
            )}
          />
          <CountedTextareaField
            label={t('jobs.review.text')}
            error={errors.text?.message}
            count={text.length}
            limit={maxLength.value}
            rows={6}
            {...register('text', {
              validate: (value) => fitsMaxLen(i18n, REVIEW_TEXT, value),
            })}
          />
          <Button
            type="submit"
            colorPalette="accent"
            alignSelf="flex-start"
            loading={review.isPending}
          >
            {t('jobs.review.submit')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
