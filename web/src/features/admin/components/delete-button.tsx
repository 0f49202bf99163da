import { Button, Text } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProblemMessage } from '@/components/form/use-problem-message';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toaster } from '@/components/ui/toast';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { readRpcError } from '@/lib/rpc-error';

interface DeleteButtonProps {
  /** 'Do you want to delete this Professional?' */
  question: string;
  /** Said once deleted. */
  done: string;
  /** Deletes; rejects with the call's error. */
  onDelete: () => Promise<unknown>;
  /** Where the page goes once deleted (the list). */
  thenPath: string;
  /** What the deletion removes and what it keeps, said in the dialog. */
  consequences?: string;
}

/** Delete, after a confirmation dialog; then a toast and back to the list. */
export function DeleteButton({
  question,
  done,
  onDelete,
  thenPath,
  consequences,
}: DeleteButtonProps) {
  const { t } = useTranslation();
  const navigate = useLocalizedNavigate();
  const problemMessage = useProblemMessage();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onDelete();
      toaster.create({ type: 'success', title: done });
      void navigate(thenPath);
    } catch (error) {
      toaster.create({ type: 'error', title: problemMessage(readRpcError(error)) });
      setAsking(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button colorPalette="red" variant="outline" onClick={() => setAsking(true)}>
        <Trash2 aria-hidden />
        {t('common.delete')}
      </Button>
      <ConfirmDialog
        open={asking}
        title={question}
        confirmLabel={t('common.delete')}
        destructive
        loading={busy}
        onCancel={() => setAsking(false)}
        onConfirm={() => void confirm()}
      >
        {consequences && <Text>{consequences}</Text>}
      </ConfirmDialog>
    </>
  );
}
