import { Button, IconButton, Menu, Portal } from '@chakra-ui/react';
import { Ellipsis } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './confirm-dialog';

/** The question a confirmed action asks before it runs, and what it runs. */
export interface ActionQuestion {
  /** The dialog's question ('Block Quinn Quoter?'). */
  title: string;
  /** What will happen: said in the dialog, under the question. */
  body: ReactNode;
  /** The confirm button ('Block'). */
  confirmLabel: string;
  /** Resolves once done (the dialog closes); rejects after saying why not (it stays open). */
  run: () => Promise<unknown>;
}

interface ActionBase {
  /** Tells the actions of a menu apart. */
  value: string;
  label: string;
  icon?: ReactNode;
  /** Removes or ends something: red in the menu and on the confirm button. */
  danger?: boolean;
}

/**
 * An action of a More actions menu: asked first (`confirm`), or done as soon as it is chosen
 * (`onSelect`: one with a dialog of its own).
 */
export type MoreAction =
  | (ActionBase & { confirm: ActionQuestion; onSelect?: never })
  | (ActionBase & { onSelect: () => void; confirm?: never });

interface MoreActionsMenuProps {
  actions: MoreAction[];
  /**
   * What the actions act on, when the page holds several menus ('Photo 2 of 3 of the
   * damage'): the button is then named 'More actions: Photo 2 of 3 of the damage'.
   */
  subject?: string;
  /** The button shows its icon alone (under a thumbnail); its name stays the same. */
  iconOnly?: boolean;
}

/**
 * The actions a page keeps out of the way, those that remove or end something above all
 * (Block, Remove, Delete): a 'More actions' button (finger-sized on a phone) opening a
 * menu; a chosen action that asks first opens the confirmation dialog (ConfirmDialog), which
 * says what will happen, and runs once confirmed.
 */
export function MoreActionsMenu({ actions, subject, iconOnly = false }: MoreActionsMenuProps) {
  const { t } = useTranslation();
  const [asked, setAsked] = useState<(ActionBase & { confirm: ActionQuestion }) | null>(null);
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const name = subject ? t('common.moreActionsOn', { subject }) : t('common.moreActions');

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
          {iconOnly ? (
            <IconButton ref={trigger} size="sm" variant="outline" aria-label={name}>
              <Ellipsis aria-hidden />
            </IconButton>
          ) : (
            <Button ref={trigger} variant="outline" aria-label={subject ? name : undefined}>
              <Ellipsis aria-hidden />
              {t('common.moreActions')}
            </Button>
          )}
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
