import { Button } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toaster } from '@/components/ui/toast';
import { readRpcError } from '@/lib/rpc-error';
import { useBlockProfessional, useUnblockProfessional } from '../api/blocked-professionals';

interface BlockToggleProps {
  professionalId: string;
  professionalName: string;
  blocked: boolean;
}

/**
 * The customer's Block (asked first: no more messages or quotes from them on any request)
 * or Unblock of a professional; a toast says it is done.
 */
export function BlockToggle({ professionalId, professionalName, blocked }: BlockToggleProps) {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  const block = useBlockProfessional();
  const unblock = useUnblockProfessional();
  const [asking, setAsking] = useState(false);
  const name = professionalName;
  const failed = (error: unknown) =>
    toaster.create({ type: 'error', title: problemMessage(readRpcError(error)) });

  if (blocked) {
    return (
      <Button
        size="sm"
        variant="outline"
        loading={unblock.isPending}
        onClick={() =>
          unblock.mutate(
            { professionalId },
            {
              onSuccess: () =>
                toaster.create({
                  type: 'success',
                  title: t('conversations.block.unblocked', { name }),
                }),
              onError: failed,
            },
          )
        }
      >
        {t('conversations.block.unblock', { name })}
      </Button>
    );
  }
  return (
    <>
      <Button size="sm" variant="outline" colorPalette="red" onClick={() => setAsking(true)}>
        {t('conversations.block.block', { name })}
      </Button>
      <ConfirmDialog
        open={asking}
        title={t('conversations.block.question', { name })}
        confirmLabel={t('conversations.block.confirm')}
        onCancel={() => setAsking(false)}
        loading={block.isPending}
        destructive
        onConfirm={() =>
          block.mutate(
            { professionalId },
            {
              onSuccess: () => {
                setAsking(false);
                toaster.create({
                  type: 'success',
                  title: t('conversations.block.blocked', { name }),
                });
              },
              onError: failed,
            },
          )
        }
      >
        {t('conversations.block.explain', { name })}
      </ConfirmDialog>
    </>
  );
}
