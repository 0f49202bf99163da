import { Button, HStack } from '@chakra-ui/react';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LinkButton } from '@/components/ui/links';
import type { Professional } from '@/gen/repairs/accounts/v1/accounts_pb';
import { useLocalizedNavigate } from '@/lib/localized-navigation';
import { useDeleteProfessional } from '../api/delete-professional';
import { ADMIN_PATHS, adminActionsFor } from '../admin-actions';
import { DeleteButton } from './delete-button';

/** Approve, Deny and Delete, as the professional's state allows (see adminActionsFor). */
export function ProfessionalActions({ professional }: { professional: Professional }) {
  const { t } = useTranslation();
  const navigate = useLocalizedNavigate();
  const remove = useDeleteProfessional();
  const [askApprove, setAskApprove] = useState(false);
  const actions = adminActionsFor(professional.state);
  return (
    <HStack gap="3" wrap="wrap" role="group" aria-label={t('admin.actions')}>
      {actions.includes('approve') && (
        <Button colorPalette="green" onClick={() => setAskApprove(true)}>
          <Check aria-hidden />
          {t('admin.approve')}
        </Button>
      )}
      {actions.includes('deny') && (
        <LinkButton to={ADMIN_PATHS.deny(professional.id)} colorPalette="accent" variant="outline">
          <X aria-hidden />
          {t('admin.deny')}
        </LinkButton>
      )}
      {actions.includes('delete') && (
        <DeleteButton
          question={t('admin.deleteProfessionalQuestion')}
          done={t('admin.professionalDeleted')}
          onDelete={() => remove.mutateAsync({ id: professional.id })}
          thenPath={ADMIN_PATHS.professionals}
        />
      )}
      <ConfirmDialog
        open={askApprove}
        title={t('admin.approveQuestion')}
        confirmLabel={t('admin.approve')}
        onCancel={() => setAskApprove(false)}
        onConfirm={() => void navigate(ADMIN_PATHS.approve(professional.id))}
      >
        {professional.name}
      </ConfirmDialog>
    </HStack>
  );
}
