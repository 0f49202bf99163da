import { Button, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  /** The other button ('Cancel' unless given); Escape and closing do the same. */
  cancelLabel?: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirm button spins while the action runs. */
  loading?: boolean;
  /** The confirm button waits (disabled, Cancel still works) until what it confirms is known. */
  confirmDisabled?: boolean;
  /** Red confirm button, for deletions. */
  destructive?: boolean;
  /**
   * Where the focus goes back to once the dialog closes, when not the element that had it
   * as it opened (a menu's item, gone with its menu: the menu's button).
   */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/**
 * Asks before an action (an `alertdialog`: focus moves into it, stays there and returns to
 * the button that opened it; Escape cancels).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  loading = false,
  confirmDisabled = false,
  destructive = false,
  returnFocusTo,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(details) => {
        if (!details.open) onCancel();
      }}
      placement="center"
      finalFocusEl={returnFocusTo && (() => returnFocusTo.current)}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4">
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            {children && <Dialog.Body>{children}</Dialog.Body>}
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={loading}>
                {cancelLabel ?? t('common.cancel')}
              </Button>
              <Button
                colorPalette={destructive ? 'red' : 'brand'}
                onClick={onConfirm}
                loading={loading}
                disabled={confirmDisabled}
              >
                {confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
