import { HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FactsList } from '@/components/ui/facts-list';
import { AppLink, LinkButton } from '@/components/ui/links';
import { formatMoney, formatNumber } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';
import { usePublicProfessional } from '../api/get-public-professional';
import { ProfessionalAvatar } from '../components/professional-avatar';
import { ReviewList } from '../components/review-list';
import { readProfileOrigin, type ProfileOrigin } from '../profile-origin';
import { experienceKey } from '../profile-fields';

/** The back link's words, by the page it leads to. */
const BACK_WORDS = {
  quotes: 'jobs.backToQuotes',
  quote: 'hire.backToQuote',
  request: 'jobs.backToRequest',
} as const satisfies Record<ProfileOrigin['backTo'], string>;

/**
 * /view-professional/{id}: what customers see of an approved professional (photo, name,
 * about, radius, experience, standard fee) and their reviews with the average rating.
 * Opened from a quote or a hired job, it leads back there; from a quote the customer can
 * still choose, also to the quotes, where the hire happens.
 */
export function PublicProfilePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { id = '' } = useParams();
  const origin = readProfileOrigin(useLocation().state);
  const { data, error, isPending } = usePublicProfessional(id);
  const professional = data?.professional;
  const back = origin && (
    <AppLink to={origin.back} color="brand.fg" alignSelf="start">
      {t(BACK_WORDS[origin.backTo])}
    </AppLink>
  );
  if (isPending) return <RouteLoader />;
  if (error || !professional) {
    return (
      <Stack gap="5">
        {back}
        <PageTitle title={t('pages.viewProfessional')} />
        {error && <RpcErrorAlert error={error} />}
      </Stack>
    );
  }
  const experience = experienceKey(professional.experience);
  const facts: [string, string][] = [
    [
      t('publicProfile.radius'),
      t('professionalDetails.km', { km: formatNumber(professional.radiusKm, language) }),
    ],
    [t('publicProfile.experience'), experience ? t(experience) : ''],
    [
      t('publicProfile.fee'),
      professional.minimumFee
        ? formatMoney(
            professional.minimumFee.amountCents,
            professional.minimumFee.currency,
            language,
          )
        : '',
    ],
  ];
  return (
    <Stack gap="6" maxW="3xl">
      {back}
      <HStack gap="4">
        <ProfessionalAvatar name={professional.name} photoUrl={professional.photoUrl} />
        <PageTitle title={professional.name} />
      </HStack>
      {origin?.hireAt && (
        <LinkButton to={origin.hireAt} colorPalette="accent" alignSelf="start">
          {t('publicProfile.hireAt', { name: professional.name })}
        </LinkButton>
      )}
      <Stack gap="2">
        <Heading as="h2" size="md">
          {t('publicProfile.about')}
        </Heading>
        <Text whiteSpace="pre-line">{professional.description}</Text>
      </Stack>
      <FactsList facts={facts} />
      <ReviewList professionalId={professional.id} />
    </Stack>
  );
}
