import { Card, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { Phone, ReceiptText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PhoneButton } from '@/components/ui/contact-links';
import { LinkButton } from '@/components/ui/links';
import { useJobReceiptPath } from '@/features/billing';
import { ReleaseHire } from '@/features/jobs';
import { CONVERSATION_PATHS } from '@/features/conversations';
import { PublicProfessionalAvatar, publicProfileTarget } from '@/features/professionals';
import {
  type RepairRequest,
  RepairRequestState,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { formatPhone } from '@/lib/phone';
import { REQUEST_PATHS } from '../paths';

/** The card's actions: finger-sized, and a long name wraps rather than passing the edge. */
const ACTION = { minH: '11', h: 'auto', py: '2', whiteSpace: 'normal' } as const;

/**
 * The hired professional on the customer's request page, first once hired (and kept as a
 * record once done): their photo and name, a tap to call them (the request's JobContacts),
 * the conversation with them on this page, the receipt of the hire (its hold, then its charge),
 * and their public profile, which leads back here; while hired, the way out when they do not
 * come (ReleaseHire).
 */
export function JobCard({ request }: { request: RepairRequest }) {
  const { t } = useTranslation();
  const contact = request.contacts?.professional;
  const professionalId = request.hiredProfessionalId || contact?.id || '';
  const name = contact?.name || request.hiredProfessionalName;
  const phone = contact?.phone ?? '';
  const receipt = useJobReceiptPath(request.id);
  if (!professionalId) return null;
  return (
    <Card.Root as="section" variant="outline" bg="bg" aria-labelledby="job-card-heading">
      <Card.Body gap="4">
        <Heading as="h2" id="job-card-heading" size="lg" color="brand.900">
          {t('requests.job.title')}
        </Heading>
        <HStack gap="4">
          <PublicProfessionalAvatar professionalId={professionalId} name={name} size="xl" />
          <Text fontSize="lg" fontWeight="semibold">
            {name}
          </Text>
        </HStack>
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" wrap="wrap">
          <PhoneButton phone={phone} colorPalette="accent" {...ACTION}>
            <Phone aria-hidden />
            {t('requests.job.call', { phone: formatPhone(phone) })}
          </PhoneButton>
          <LinkButton
            to={CONVERSATION_PATHS.customerConversation(request.id, professionalId)}
            variant="outline"
            colorPalette="brand"
            {...ACTION}
          >
            {t('conversations.withName', { name })}
          </LinkButton>
          {receipt && (
            <LinkButton to={receipt} variant="outline" colorPalette="brand" {...ACTION}>
              <ReceiptText aria-hidden />
              {t('receipts.link')}
            </LinkButton>
          )}
          <LinkButton
            {...publicProfileTarget(professionalId, {
              back: REQUEST_PATHS.view(request.id),
              backTo: 'request',
            })}
            variant="outline"
            colorPalette="brand"
            {...ACTION}
          >
            {t('jobs.viewProfile')}
          </LinkButton>
        </Stack>
        {request.state === RepairRequestState.HIRED && (
          <ReleaseHire request={request} as="customer" />
        )}
      </Card.Body>
    </Card.Root>
  );
}
