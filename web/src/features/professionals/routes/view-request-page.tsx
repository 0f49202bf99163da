import { Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { DamagePhotos } from '@/components/photos/damage-photos';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { FactsList } from '@/components/ui/facts-list';
import { AppLink, LinkButton } from '@/components/ui/links';
import { useServiceNames } from '@/features/content';
import { ProfessionalConversation } from '@/features/conversations';
import { TripPanel } from '@/features/jobs';
import { OpenProblem } from '@/features/problems';
import { RepairRequestState, Urgency } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { Language } from '@/gen/repairs/type/v1/common_pb';
import type { TranslationKey } from '@/lib/translation-key';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { useLanguage } from '@/lib/use-language';
import { useRequestForProfessional } from '../api/get-open-request';
import { approximatePlace, PROFESSIONAL_REQUEST_PATHS } from '../professional-requests';

/** The `lang` of a text written in `language` (none when the server does not say). */
const languageTag = (language: Language) =>
  language === Language.FR ? 'fr' : language === Language.EN ? 'en' : undefined;

/** What a translation of a description written in a language is called. */
const TRANSLATION_LABELS: Record<Language, TranslationKey> = {
  [Language.UNSPECIFIED]: 'requests.machineTranslation',
  [Language.EN]: 'requests.machineTranslationFromEnglish',
  [Language.FR]: 'requests.machineTranslationFromFrench',
};

/**
 * /view-request/{id}: the service as title, what to fix, whether it is an emergency and where
 * (city, postal area and distance until hired; the street once hired). The Quote button shows
 * only while the request is open. When the server offers a machine translation of the
 * description into the reader's language, it shows beside the original, labelled as such.
 * The photos of the damage open large; below, the conversation with the customer. For the
 * professional hired on it, while HIRED, their trip to the job comes first: "I'm on my way",
 * the position shared while on the way, "I've arrived".
 */
export function ViewRequestPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const formatTime = useDateTimeFormat();
  const language = useLanguage();
  const serviceName = useServiceNames();
  const { data, isPending, error } = useRequestForProfessional(id);
  const request = data?.repairRequest;
  const approximate =
    request?.location.case === 'approximateLocation' ? request.location.value : null;
  return (
    <Stack gap="6" maxW="3xl">
      <AppLink to={PROFESSIONAL_REQUEST_PATHS.list} color="brand.fg">
        {t('requests.open.backToList')}
      </AppLink>
      <PageTitle
        title={
          request ? serviceName(request.serviceId, request.serviceName) : t('pages.viewRequest')
        }
      />
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {request && (
        <>
          <TripPanel request={request} />
          <FactsList
            facts={[
              [
                t('requests.taskDescription'),
                <Text key="original" as="span" lang={languageTag(request.descriptionLanguage)}>
                  {request.description}
                </Text>,
              ],
              ...(request.descriptionTranslation
                ? ([
                    [
                      t(
                        TRANSLATION_LABELS[request.descriptionLanguage] ??
                          'requests.machineTranslation',
                      ),
                      <Text key="translation" as="span" lang={language}>
                        {request.descriptionTranslation}
                      </Text>,
                    ],
                  ] as [string, ReactNode][])
                : []),
              [
                t('requests.immediate'),
                request.urgency === Urgency.IMMEDIATE ? t('common.yes') : t('common.no'),
              ],
              [t('requests.open.location'), approximatePlace(request)],
              ...(approximate
                ? ([
                    [t('requests.open.postalArea'), approximate.postalArea],
                    [
                      t('requests.open.distance'),
                      t('requests.open.distanceKm', { count: approximate.distanceKm }),
                    ],
                  ] as [string, string][])
                : []),
              [t('requests.open.placed'), formatTime(request.createTime)],
            ]}
          />
          {approximate && <Text color="fg.muted">{t('requests.open.approximate')}</Text>}
          {request.photos.length > 0 && (
            <Stack as="section" gap="3" aria-labelledby="photos-heading">
              <Heading as="h2" id="photos-heading" size="lg" color="brand.900">
                {t('photos.damage')}
              </Heading>
              <DamagePhotos photos={request.photos} size="lg" />
            </Stack>
          )}
          {request.state === RepairRequestState.OPEN && (
            <LinkButton
              to={PROFESSIONAL_REQUEST_PATHS.apply(request.id)}
              colorPalette="brand"
              alignSelf="start"
            >
              {t('requests.open.quote')}
            </LinkButton>
          )}
          <OpenProblem request={request} reader="professional" />
          <ProfessionalConversation request={request} />
        </>
      )}
    </Stack>
  );
}
