import { Ban, CircleCheck } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import type { MoreAction } from '@/components/ui/more-actions-menu';
import { toaster } from '@/components/ui/toast';
import { readRpcError } from '@/lib/rpc-error';
import { useBlockProfessional, useUnblockProfessional } from '../api/blocked-professionals';

export interface BlockTarget {
  professionalId: string;
  professionalName: string;
}

/**
 * The customer's Block and Unblock of a professional: each resolves once done, with a toast
 * saying so, or rejects after a toast saying why not.
 */
export function useBlockChanges() {
  const { t } = useTranslation();
  const problemMessage = useProblemMessage();
  const block = useBlockProfessional();
  const unblock = useUnblockProfessional();
  const change =
    (
      send: (request: { professionalId: string }) => Promise<unknown>,
      doneKey: 'conversations.block.blocked' | 'conversations.block.unblocked',
    ) =>
    async ({ professionalId, professionalName }: BlockTarget) => {
      try {
        await send({ professionalId });
        toaster.create({ type: 'success', title: t(doneKey, { name: professionalName }) });
      } catch (error) {
        toaster.create({ type: 'error', title: problemMessage(readRpcError(error)) });
        throw error;
      }
    };
  return {
    block: change(block.mutateAsync, 'conversations.block.blocked'),
    unblock: change(unblock.mutateAsync, 'conversations.block.unblocked'),
    /** The professional being unblocked, while it runs. */
    unblocking: unblock.isPending ? unblock.variables.professionalId : undefined,
  };
}

/**
 * Block (or Unblock, when `blocked`) the professional, as an action of a More actions menu:
 * asked first, saying what it does.
 */
export function useBlockAction(target: BlockTarget, blocked: boolean): MoreAction {
  const { t } = useTranslation();
  const changes = useBlockChanges();
  const name = target.professionalName;
  return blocked
    ? {
        value: 'unblock',
        label: t('conversations.block.unblock', { name }),
        icon: <CircleCheck aria-hidden />,
        confirm: {
          title: t('conversations.block.unblockQuestion', { name }),
          body: t('conversations.block.unblockExplain', { name }),
          confirmLabel: t('conversations.block.unblockConfirm'),
          run: () => changes.unblock(target),
        },
      }
    : {
        value: 'block',
        label: t('conversations.block.block', { name }),
        icon: <Ban aria-hidden />,
        danger: true,
        confirm: {
          title: t('conversations.block.question', { name }),
          body: t('conversations.block.explain', { name }),
          confirmLabel: t('conversations.block.confirm'),
          run: () => changes.block(target),
        },
      };
}
