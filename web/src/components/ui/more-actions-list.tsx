import { Menu, Portal } from '@chakra-ui/react';
import { useRef, useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';
import {
  MoreActionsButton,
  type ActionBase,
  type ActionQuestion,
  type MoreActionsMenuProps,
} from './more-actions-button';

/**
 * The More actions button with its menu and questions (MoreActionsMenu loads it): a chosen
 * action that asks first opens the confirmation dialog, which gives the focus back to the
 * button once closed.
 */
export function MoreActionsList({ actions, subject, iconOnly = false }: MoreActionsMenuProps) {
  const [asked, setAsked] = useState<(ActionBase & { confirm: ActionQuestion }) | null>(null);
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);

  const choose = (value: string) => {
    const action = actions.find((candidate) => candidate.value === value);
    if (action?.confirm) {
      setAsked(action);
      setOpen(true);
    } else {
      action?.onSelect();
    }
  };

  const run = async () => {
    if (!asked) return;
    setRunning(true);
    try {
      await asked.confirm.run();
      setOpen(false);
    } catch {
      // The action said why; the question stays open to try again or cancel.
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      <Menu.Root onSelect={(details) => choose(details.value)}>
        <Menu.Trigger asChild>
          <MoreActionsButton ref={trigger} subject={subject} iconOnly={iconOnly} />
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content>
              {actions.map((action) => (
                <Menu.Item
                  key={action.value}
                  value={action.value}
                  color={action.danger ? 'fg.error' : undefined}
                  _highlighted={action.danger ? { bg: 'bg.error', color: 'fg.error' } : undefined}
                >
                  {action.icon}
                  {action.label}
                </Menu.Item>
              ))}
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {asked && (
        <ConfirmDialog
          open={open}
          title={asked.confirm.title}
          confirmLabel={asked.confirm.confirmLabel}
          destructive={asked.danger}
          loading={running}
          onConfirm={() => void run()}
          onCancel={() => setOpen(false)}
          returnFocusTo={trigger}
        >
          {asked.confirm.body}
        </ConfirmDialog>
      )}
    </>
  );
}
