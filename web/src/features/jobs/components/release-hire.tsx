import { Button, Dialog, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '@/components/form/use-server-errors';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import { toaster } from '@/components/ui/toast';
import {
  ReleaseHireRequestSchema,
  type RepairRequest,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { fitsMaxLen, limitOf } from '@/lib/contract-limits';
import { useDateTimeFormat } from '@/lib/use-date-format';
import { notBlank } from '@/lib/validation';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { useReleaseHire } from '../api/release-hire';

const REASON = limitOf(ReleaseHireRequestSchema, 'reason');
const SERVER_FIELDS = { reason: 'reason' } as const;

/** Who gives the hire back: its professional ("I can't make it") or its customer. */
export type Releaser = 'professional' | 'customer';

/** The words of each side, under `jobs.release.{side}`. */
const WORDS = {
  professional: 'jobs.release.professional',
  customer: 'jobs.release.customer',
} as const;

/**
 * The way out of a hire that is going wrong, on the job's card: the hired professional's "I
 * can't make it" at any time, or the customer's "They didn't come" once the time they were
 * given has passed (before it, when they may). A dialog asks what happened (required) and says
 * what follows; a refusal shows in it.
 */
export function ReleaseHire({ request, as }: { request: RepairRequest; as: Releaser }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormat();
  const [open, setOpen] = useState(false);
  const words = WORDS[as];
  const from = request.customerReleaseTime;
  if (as === 'customer' && from && timestampDate(from) > new Date()) {
    return (
      <Text fontSize="sm" color="fg.muted">
        {t('jobs.release.customer.from', { time: formatTime(from) })}
      </Text>
    );
  }
  return (
    <>
      <Button
        variant="outline"
        colorPalette="red"
        minH="11"
        h="auto"
        py="2"
        whiteSpace="normal"
        onClick={() => setOpen(true)}
      >
        {t(`${words}.button`)}
      </Button>
      {open && <ReleaseDialog request={request} as={as} onClose={() => setOpen(false)} />}
    </>
  );
}

function ReleaseDialog({
  request,
  as,
  onClose,
}: {
  request: RepairRequest;
  as: Releaser;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const release = useReleaseHire();
  const words = WORDS[as];
  const [key] = useState(() => crypto.randomUUID());
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const onSubmit = handleSubmit(({ reason }) => {
    server.clear();
    release.mutate(
      { repairRequestId: request.id, reason: reason.trim(), requestId: key },
      {
        onSuccess: () => {
          toaster.create({ type: 'success', title: t(`${words}.done`) });
          onClose();
        },
        onError: server.report,
      },
    );
  });
  const name = request.hiredProfessionalName;
  return (
    <Dialog.Root
      open
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4" asChild>
            <form noValidate onSubmit={onSubmit}>
              <Dialog.Header>
                <Dialog.Title>{t(`${words}.title`, { name })}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Text>{t(`${words}.explain`, { name })}</Text>
                  {server.formError && <FormAlert title={server.formError} />}
                  <FormField
                    label={t(`${words}.reason`)}
                    helperText={t(`${words}.reasonHelp`)}
                    error={errors.reason?.message}
                    required
                  >
                    <Textarea
                      rows={3}
                      {...register('reason', {
                        validate: (value) =>
                          !notBlank(value)
                            ? t('jobs.release.reasonRequired')
                            : fitsMaxLen(i18n, REASON, value),
                      })}
                    />
                  </FormField>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose} disabled={release.isPending} minH="11">
                  {t('common.cancel')}
                </Button>
                <Button type="submit" colorPalette="red" loading={release.isPending} minH="11">
                  {t(`${words}.confirm`)}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
