import { Button, IconButton } from '@chakra-ui/react';
import { Ellipsis } from 'lucide-react';
import type { ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';

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

export interface ActionBase {
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

export interface MoreActionsMenuProps {
  actions: MoreAction[];
  /**
   * What the actions act on, when the page holds several menus ('Photo 2 of 3 of the
   * damage'): the button is then named 'More actions: Photo 2 of 3 of the damage'.
   */
  subject?: string;
  /** The button shows its icon alone (under a thumbnail); its name stays the same. */
  iconOnly?: boolean;
}

interface MoreActionsButtonProps extends Omit<MoreActionsMenuProps, 'actions'> {
  ref?: Ref<HTMLButtonElement>;
  /** Spins, and cannot be pressed, while the menu it opens is not there yet. */
  loading?: boolean;
}

/**
 * The 'More actions' button (finger-sized on a phone), named after its `subject` where a page
 * holds several. Other props (a menu's trigger props) go to the button.
 */
export function MoreActionsButton({
  subject,
  iconOnly = false,
  loading = false,
  ...rest
}: MoreActionsButtonProps) {
  const { t } = useTranslation();
  const name = subject ? t('common.moreActionsOn', { subject }) : t('common.moreActions');
  return iconOnly ? (
    <IconButton size="sm" variant="outline" aria-label={name} loading={loading} {...rest}>
      <Ellipsis aria-hidden />
    </IconButton>
  ) : (
    <Button variant="outline" aria-label={subject ? name : undefined} loading={loading} {...rest}>
      <Ellipsis aria-hidden />
      {t('common.moreActions')}
    </Button>
  );
}
