import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LinkButton } from '@/components/ui/links';
import { LICENCE_PAGE_PATH } from '../flash';

/**
 * The way to the licence step once approved: the profile form leads there only after a save,
 * so an approved professional with a new licence would not find it. Large (44 px) for a thumb.
 */
export function AddLicenceLink() {
  const { t } = useTranslation();
  return (
    <LinkButton
      to={LICENCE_PAGE_PATH}
      variant="outline"
      colorPalette="brand"
      size="lg"
      alignSelf="start"
    >
      <Plus aria-hidden />
      {t('licences.addLicence')}
    </LinkButton>
  );
}
