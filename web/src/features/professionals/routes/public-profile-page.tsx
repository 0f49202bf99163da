import { Avatar, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FactsList } from '@/components/ui/facts-list';
import { formatMoney, formatNumber } from '@/lib/money';
import { useLanguage } from '@/lib/use-language';
import { usePublicProfessional } from '../api/get-public-professional';
import { ReviewList } from '../components/review-list';
import { experienceKey } from '../profile-fields';

/**
 * /view-professional/{id}: what customers see of an approved professional (photo, name,
 * about, radius, experience, standard fee) and their reviews with the average rating.
 */
export function PublicProfilePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const { id = '' } = useParams();
  const { data, error, isPending } = usePublicProfessional(id);
  const professional = data?.professional;
  if (isPending) return <RouteLoader />;
  if (error || !professional) {
    return (
      <Stack gap="5">
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
      <HStack gap="4">
        <Avatar.Root size="2xl" colorPalette="brand">
          <Avatar.Fallback name={professional.name} />
          {professional.photoUrl && <Avatar.Image src={professional.photoUrl} alt="" />}
        </Avatar.Root>
        <PageTitle title={professional.name} />
      </HStack>
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
