import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { RouteLoader } from '@/components/route-loader';
import { RpcErrorAlert } from '@/components/rpc-error-alert';
import { LinkButton } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { useLanguage } from '@/lib/use-language';
import { useDeleteService } from '../api/delete-service';
import { useService } from '../api/get-service';
import { SERVICE_PATHS } from '../paths';

/**
 * /admin/delete-service/{id}: asks before deleting, and says that a service a request or a
 * professional names is archived instead (kept for them, gone from the catalogue).
 */
export function DeleteServicePage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useLocalizedNavigate();
  const { id = '' } = useParams();
  const { data, isPending, error } = useService(id);
  const remove = useDeleteService();
  const service = data?.service;
  const name = service ? service.name?.[language] || service.name?.en || '' : '';

  const confirm = () => {
    if (!service) return;
    remove.mutate(
      { id: service.id, etag: service.etag },
      {
        onSuccess: ({ archived }) => {
          toaster.create({
            type: 'success',
            title: t(archived ? 'serviceAdmin.archivedInUse' : 'serviceAdmin.deleted', { name }),
          });
          void navigate(SERVICE_PATHS.list);
        },
      },
    );
  };

  return (
    <Stack gap="6" maxW="2xl">
      <PageTitle title={t('pages.adminDeleteService')} />
      {isPending && <RouteLoader />}
      {error ? <RpcErrorAlert error={error} /> : null}
      {remove.error ? <RpcErrorAlert error={remove.error} /> : null}
      {service && (
        <>
          <Text fontSize="lg" fontWeight="semibold">
            {t('serviceAdmin.deleteQuestion', { name })}
          </Text>
          <Text>{t('serviceAdmin.deleteExplained')}</Text>
          <HStack gap="3">
            <Button colorPalette="red" loading={remove.isPending} onClick={confirm}>
              {t('common.delete')}
            </Button>
            <LinkButton to={SERVICE_PATHS.list} variant="outline">
              {t('common.cancel')}
            </LinkButton>
          </HStack>
        </>
      )}
    </Stack>
  );
}
