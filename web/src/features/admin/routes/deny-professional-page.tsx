import { Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PageTitle } from '@/components/page-title';
import { FormAlert } from '@/components/ui/form-alert';
import { LinkButton } from '@/components/ui/links';
import { toaster } from '@/components/ui/toast';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { useProfessionalForReview } from '../api/get-professional';
import { useDenyProfessional } from '../api/deny-professional';
import { ADMIN_PATHS } from '../admin-actions';
import { ReasonField } from '../components/reason-field';
import { useReasonRules } from '../reason-rules';

const SERVER_FIELDS = { reason: 'reason' } as const;

/**
 * /admin/disapprove-professional/{id}: why the professional is denied (required; they are
 * shown it), then AccountsService.DenyProfessional and back to the list.
 */
export function DenyProfessionalPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useLocalizedNavigate();
  const { data } = useProfessionalForReview(id);
  const deny = useDenyProfessional();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const reasonRules = useReasonRules('admin.errors.reasonRequired');

  const onSubmit = handleSubmit(({ reason }) => {
    server.clear();
    deny.mutate(
      { id, reason: reason.trim() },
      {
        onSuccess: ({ professional }) => {
          toaster.create({
            type: 'success',
            title: t('admin.denied', { name: professional?.name ?? '' }),
          });
          void navigate(ADMIN_PATHS.professionals);
        },
        onError: server.report,
      },
    );
  });

  return (
    <Stack gap="6" maxW="2xl">
      <PageTitle title={t('pages.adminDisapproveProfessional')} />
      {data?.professional && <Text fontSize="lg">{data.professional.name}</Text>}
      {server.formError && <FormAlert title={server.formError} />}
      <form noValidate onSubmit={onSubmit}>
        <Stack gap="4">
          <ReasonField
            label={t('admin.denyReason')}
            helperText={t('admin.denyReasonHelp')}
            error={errors.reason?.message}
            registration={register('reason', reasonRules)}
          />
          <HStack gap="3">
            <Button type="submit" colorPalette="accent" loading={deny.isPending}>
              {t('admin.deny')}
            </Button>
            <LinkButton to={ADMIN_PATHS.professional(id)} variant="outline">
              {t('common.cancel')}
            </LinkButton>
          </HStack>
        </Stack>
      </form>
    </Stack>
  );
}
