import { Code } from '@connectrpc/connect';
import { Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { toaster } from '@/components/ui/toast';
import { newRequestId } from '@/lib/request-id';
import { readRpcError } from '@/lib/rpc-error';
import { useCreateRepairRequest } from '../api/create-repair-request';
import { RequestForm, type RepairRequestDraft } from '../components/request-form';
import { REQUEST_PATHS } from '../paths';

/**
 * Refusals after which nothing was placed: the next press is a new attempt with a new key.
 * After any other failure (the network, a server that did not answer) the request may have
 * been placed, so the next press resends the same key and gets that request back.
 */
const NOTHING_PLACED = [Code.InvalidArgument, Code.FailedPrecondition, Code.NotFound];

/** What is typed in the form is kept under this name until the request is placed. */
const CREATE_REQUEST_DRAFT = 'create-request';

/**
 * /create-request: the request form. One idempotency key per attempt, so a double press or a
 * retry after a lost answer places one request and notifies the professionals once. What is
 * typed is kept in the browser until the request is placed: a session that ends meanwhile
 * loses nothing.
 */
export function CreateRequestPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateRepairRequest();
  const [requestId, setRequestId] = useState(newRequestId);

  const send = async (draft: RepairRequestDraft) => {
    try {
      const { repairRequest } = await create.mutateAsync({ requestId, draft });
      void navigate(REQUEST_PATHS.created, { state: { id: repairRequest?.id } });
    } catch (error) {
      const problem = readRpcError(error);
      if (problem.reason === 'REQUEST_ID_REUSED') {
        // An earlier press placed the request (its answer was lost) before the form changed.
        toaster.create({ type: 'info', title: t('requests.alreadyPlaced') });
        void navigate(REQUEST_PATHS.pending);
        return;
      }
      if (NOTHING_PLACED.includes(problem.code)) setRequestId(newRequestId());
      throw error;
    }
  };

  return (
    <Stack gap="6" maxW="3xl">
      <PageTitle title={t('pages.createRequest')} />
      <RequestForm
        submitLabel={t('requests.create')}
        draftName={CREATE_REQUEST_DRAFT}
        onSend={send}
        sending={create.isPending}
      />
    </Stack>
  );
}
