import { create } from '@bufbuild/protobuf';
import { Code } from '@connectrpc/connect';
import { Button, HStack, Stack, Textarea } from '@chakra-ui/react';
import { Send } from 'lucide-react';
import { useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useServerErrors } from '@/components/form/use-server-errors';
import { PhotoPicker } from '@/components/photos/photo-picker';
import { photosBusy, usePhotoUploads } from '@/components/photos/photo-uploads';
import { FormAlert } from '@/components/ui/form-alert';
import { FormField } from '@/components/ui/form-field';
import {
  SendMessageRequestSchema,
  type SendMessageResponse,
} from '@/gen/repairs/marketplace/v1/marketplace_pb';
import {
  fitsMaxLen,
  formatFigure,
  limitOf,
  loadValidator,
  maxLengthRule,
  megabytes,
  validateRequest,
} from '@/lib/contract-limits';
import { MESSAGE_PHOTOS_MAX, PHOTO_MAX_BYTES } from '@/lib/files';
import { newRequestId } from '@/lib/request-id';
import { readRpcError } from '@/lib/rpc-error';
import { useMessagePhotoUpload } from '../api/add-message-photo';
import { useSendMessage } from '../api/send-message';
import type { ConversationRef } from '../conversation-ref';

/** SendMessageRequest.text's rules: the contract's bound on a message's text. */
const MESSAGE_TEXT = limitOf(SendMessageRequestSchema, 'text');

/**
 * Refusals after which nothing was stored: the next send is a new message with a new key.
 * After any other failure (the network, no answer) the message may have been stored, so the
 * next press resends the same key and gets that message back rather than a second one.
 */
const NOTHING_SENT = [
  Code.InvalidArgument,
  Code.FailedPrecondition,
  Code.ResourceExhausted,
  Code.PermissionDenied,
  Code.NotFound,
];

interface ComposerValues {
  text: string;
}

const SERVER_FIELDS = { text: 'text' } as const;

interface ComposerProps {
  conversation: ConversationRef;
  onSent: (response: SendMessageResponse) => void;
  /** Said under the text ('Contact details are shared once you hire'). */
  note?: string;
  /** Whether photos may go with the text (not for admins, who write as Support). */
  photos?: boolean;
}

/**
 * Writing a message: its text (up to the contract's 4,000 characters) and up to 4 photos,
 * each sent as soon as it is chosen with its progress. Send (or Ctrl+Enter) sends them under
 * a client key made once per message and kept when the answer was lost, so a second press
 * never sends it twice; the server's refusals show above the text.
 */
export function Composer({ conversation, onSent, note, photos = true }: ComposerProps) {
  const { t, i18n } = useTranslation();
  const send = useSendMessage();
  const [clientKey, setClientKey] = useState(newRequestId);
  const { uploads, items } = usePhotoUploads({ upload: useMessagePhotoUpload(conversation) });
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ComposerValues>({ defaultValues: { text: '' } });
  const server = useServerErrors(setError, { fields: SERVER_FIELDS });
  const text = useWatch({ control, name: 'text' });
  const photoIds = items.flatMap(({ state }) => (state.kind === 'sent' ? [state.photo.id] : []));
  const busy = photosBusy(items);
  const maxLength = maxLengthRule(i18n, MESSAGE_TEXT);
  const max = formatFigure(i18n, maxLength.value);

  // Load the contract's validator while the person writes, not when they press Send.
  useEffect(() => void loadValidator(), []);

  const submit = handleSubmit(async ({ text: typed }) => {
    server.clear();
    const request = create(SendMessageRequestSchema, {
      repairRequestId: conversation.repairRequestId,
      professionalId: conversation.professionalId,
      text: typed.trim(),
      requestId: clientKey,
      photoIds,
    });
    // What the person wrote is checked against the whole contract before it goes; the ids
    // are the app's own, so a refusal of them is left to the server to say.
    const problems = await validateRequest(i18n, SendMessageRequestSchema, request);
    if (problems.text) {
      setError('text', { message: problems.text });
      return;
    }
    try {
      const response = await send.mutateAsync(request);
      setClientKey(newRequestId());
      reset({ text: '' });
      for (const item of items) uploads.remove(item.key);
      onSent(response);
    } catch (error) {
      if (NOTHING_SENT.includes(readRpcError(error).code)) setClientKey(newRequestId());
      server.report(error);
    }
  });

  const onSubmit = (event: FormEvent) => void submit(event);
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('conversations.composer')}>
      <Stack gap="3">
        {server.formError && <FormAlert title={server.formError} />}
        <FormField
          label={t('conversations.write')}
          error={errors.text?.message}
          helperText={[t('conversations.characters', { count: text.length, max }), note]
            .filter(Boolean)
            .join(' ')}
        >
          <Textarea
            rows={3}
            maxLength={maxLength.value}
            autoresize
            maxH="15lh"
            onKeyDown={onKeyDown}
            {...register('text', {
              validate: (value) =>
                value.trim() !== '' || photoIds.length > 0
                  ? fitsMaxLen(i18n, MESSAGE_TEXT, value)
                  : t('conversations.errors.empty'),
            })}
          />
        </FormField>
        {photos && (
          <PhotoPicker
            label={t('conversations.photosLabel')}
            help={t('conversations.photosHelp', {
              max: formatFigure(i18n, MESSAGE_PHOTOS_MAX),
              size: formatFigure(i18n, megabytes(PHOTO_MAX_BYTES)),
            })}
            items={items}
            max={MESSAGE_PHOTOS_MAX}
            onChoose={(files) => uploads.add(files, MESSAGE_PHOTOS_MAX)}
            onRemove={(key) => uploads.remove(key)}
            onRetry={(key) => uploads.retry(key)}
            compact
          />
        )}
        <HStack justify="end">
          <Button
            type="submit"
            colorPalette="brand"
            loading={send.isPending}
            disabled={busy}
            loadingText={t('conversations.sending')}
          >
            <Send aria-hidden />
            {t('conversations.send')}
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
