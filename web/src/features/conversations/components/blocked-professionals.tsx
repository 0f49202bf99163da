import { Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { useDateFormat } from '@/lib/use-date-format';
import { useBlockedProfessionals } from '../api/blocked-professionals';
import { useBlockChanges } from './use-block-action';

/**
 * The customer's blocked professionals (ListBlockedProfessionals), newest first, each with
 * when and Unblock (at once: it takes nothing away); what blocking does is said above the list.
 */
export function BlockedProfessionals() {
  const { t } = useTranslation();
  const formatDate = useDateFormat();
  const { data, isPending, error } = useBlockedProfessionals();
  const changes = useBlockChanges();
  const blocked = data?.blockedProfessionals ?? [];
  return (
    <Stack as="section" gap="3" aria-labelledby="blocked-heading">
      <Heading as="h2" id="blocked-heading" size="lg" color="brand.900">
        {t('conversations.block.listTitle')}
      </Heading>
      <Text color="fg.muted">{t('conversations.block.listHelp')}</Text>
      {isPending && <RouteLoader />}
      {error && <RpcErrorAlert error={error} />}
      {data && blocked.length === 0 && <Text>{t('conversations.block.noneBlocked')}</Text>}
      {blocked.length > 0 && (
        <Stack as="ul" gap="2" listStyleType="none" aria-labelledby="blocked-heading">
          {blocked.map((entry) => (
            <HStack
              as="li"
              key={entry.professionalId}
              justify="space-between"
              gap="3"
              wrap="wrap"
              borderWidth="1px"
              borderRadius="md"
              p="3"
              bg="bg"
            >
              <Stack gap="0">
                <Text fontWeight="semibold">{entry.professionalName}</Text>
                <Text fontSize="sm" color="fg.muted">
                  {t('conversations.block.since', { date: formatDate(entry.createTime) })}
                </Text>
              </Stack>
              <Button
                size="sm"
                variant="outline"
                loading={changes.unblocking === entry.professionalId}
                // A refusal was said in a toast.
                onClick={() => changes.unblock(entry).catch(() => {})}
              >
                {t('conversations.block.unblock', { name: entry.professionalName })}
              </Button>
            </HStack>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
