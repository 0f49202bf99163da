import { Box, Button, HStack, Image, Progress, Stack, Text } from '@chakra-ui/react';
import { Camera, Check, ImagePlus } from 'lucide-react';
import {
  useCallback,
  useId,
  useRef,
  useSyncExternalStore,
  type ChangeEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { IMAGE_TYPES } from '@/lib/files';
import { photosTaken, type PhotoUpload } from './photo-uploads';
import { usePhotoProblemText } from './use-photo-problem-text';

const ACCEPT = IMAGE_TYPES.join(',');
/** A phone or tablet, where a camera button makes sense (the file chooser offers it anyway). */
const TOUCH_QUERY = '(pointer: coarse)';

function useTouchScreen(): boolean {
  const subscribe = useCallback((onChange: () => void) => {
    const list = window.matchMedia(TOUCH_QUERY);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, []);
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(TOUCH_QUERY).matches,
    () => false,
  );
}

interface PhotoPickerProps {
  /** The legend of the group ('Photos of the damage'). */
  label: string;
  help: string;
  items: PhotoUpload[];
  /** How many photos there may be in all, and how many there are already. */
  max: number;
  existing?: number;
  onChoose: (files: File[]) => void;
  onRemove: (key: string) => void;
  onRetry: (key: string) => void;
  /** What a photo chosen but not sent yet waits for ('Sent with your request'). */
  waitingText?: string;
  disabled?: boolean;
  /** Smaller previews and buttons, for the message composer. */
  compact?: boolean;
}

/**
 * Choosing photos (and on a phone, taking one with the camera): a preview of each, its
 * upload's progress bar, 'Sent', or why it was not taken with Remove (and Try again when it
 * may go another time). The checks of checkPhoto and the room left say their refusal per
 * file at once; the server's refusals show the same way.
 */
export function PhotoPicker({
  label,
  help,
  items,
  max,
  existing = 0,
  onChoose,
  onRemove,
  onRetry,
  waitingText,
  disabled = false,
  compact = false,
}: PhotoPickerProps) {
  const { t } = useTranslation();
  const touch = useTouchScreen();
  const legendId = useId();
  const helpId = useId();
  const taken = existing + photosTaken(items);
  const full = taken >= max;

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    // The same file may be chosen again after a removal.
    event.target.value = '';
    if (files.length > 0) onChoose(files);
  };

  return (
    <Stack
      as="fieldset"
      gap="3"
      aria-labelledby={legendId}
      aria-describedby={helpId}
      minW="0"
      data-testid="photo-picker"
    >
      <Text as="legend" id={legendId} fontWeight="medium" mb="1">
        {label}
      </Text>
      <Text id={helpId} color="fg.muted" fontSize="sm">
        {help} {t('photos.count', { count: taken, max })}
      </Text>
      <HStack gap="3" wrap="wrap">
        {touch && (
          <PhotoSource
            label={t('photos.take')}
            icon={<Camera aria-hidden />}
            camera
            onChoose={choose}
            disabled={disabled || full}
            compact={compact}
          />
        )}
        <PhotoSource
          label={t('photos.choose')}
          icon={<ImagePlus aria-hidden />}
          onChoose={choose}
          disabled={disabled || full}
          compact={compact}
        />
      </HStack>
      {items.length > 0 && (
        <Stack as="ul" gap="2" listStyleType="none" aria-label={t('photos.chosen')}>
          {items.map((item, index) => (
            <ChosenPhoto
              key={item.key}
              item={item}
              number={index + 1}
              max={max}
              waitingText={waitingText}
              onRemove={() => onRemove(item.key)}
              onRetry={() => onRetry(item.key)}
              compact={compact}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

interface PhotoSourceProps {
  label: string;
  icon: ReactNode;
  /** The camera of a phone (one photo), rather than the files (several). */
  camera?: boolean;
  onChoose: (event: ChangeEvent<HTMLInputElement>) => void;
  disabled: boolean;
  compact: boolean;
}

/** A button that opens the file chooser, or on a phone the camera, for its hidden input. */
function PhotoSource({
  label,
  icon,
  camera = false,
  onChoose,
  disabled,
  compact,
}: PhotoSourceProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        variant="outline"
        colorPalette="brand"
        size={compact ? 'sm' : 'md'}
        onClick={() => input.current?.click()}
        disabled={disabled}
      >
        {icon}
        {label}
      </Button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        multiple={!camera}
        capture={camera ? 'environment' : undefined}
        hidden
        tabIndex={-1}
        aria-label={label}
        onChange={onChoose}
      />
    </>
  );
}

interface ChosenPhotoProps {
  item: PhotoUpload;
  number: number;
  max: number;
  waitingText?: string;
  onRemove: () => void;
  onRetry: () => void;
  compact: boolean;
}

function ChosenPhoto({
  item,
  number,
  max,
  waitingText,
  onRemove,
  onRetry,
  compact,
}: ChosenPhotoProps) {
  const { t } = useTranslation();
  const problemText = usePhotoProblemText();
  const { state } = item;
  const name = t('photos.chosenName', { number, name: item.file.name });
  const percent = state.kind === 'sending' ? Math.round(state.progress * 100) : 0;
  const problem =
    state.kind === 'refused' || state.kind === 'failed' ? problemText(state.problem, max) : null;

  return (
    <HStack
      as="li"
      gap="3"
      align="start"
      borderWidth="1px"
      borderRadius="md"
      borderColor={problem ? 'border.error' : 'border'}
      p="2"
      bg="bg"
      data-state={state.kind}
    >
      <Image
        src={item.preview}
        alt={name}
        boxSize={compact ? '12' : '16'}
        objectFit="cover"
        borderRadius="sm"
        flexShrink={0}
        bg="bg.muted"
      />
      <Stack gap="1" flex="1" minW="0">
        <Text fontSize="sm" fontWeight="medium" truncate>
          {name}
        </Text>
        <Box aria-live="polite" fontSize="sm">
          {state.kind === 'sending' && <Text>{t('photos.sending', { percent })}</Text>}
          {(state.kind === 'queued' || state.kind === 'waiting') && (
            <Text color="fg.muted">
              {state.kind === 'waiting' && waitingText ? waitingText : t('photos.queued')}
            </Text>
          )}
          {state.kind === 'sent' && (
            <HStack gap="1" color="green.700">
              <Check aria-hidden size="1em" />
              <Text>{t('photos.sent')}</Text>
            </HStack>
          )}
          {problem && <Text color="fg.error">{problem}</Text>}
        </Box>
        {state.kind === 'sending' && (
          <Progress.Root value={percent} size="sm" colorPalette="brand">
            <Progress.Track aria-label={t('photos.progressOf', { name })}>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        )}
      </Stack>
      <Stack gap="1" align="end" flexShrink={0}>
        {state.kind === 'failed' && (
          <Button
            size="xs"
            variant="outline"
            onClick={onRetry}
            aria-label={t('photos.retryNamed', { name })}
          >
            {t('photos.retry')}
          </Button>
        )}
        {state.kind !== 'sent' && (
          <Button
            size="xs"
            variant="ghost"
            colorPalette="red"
            onClick={onRemove}
            aria-label={t('photos.removeNamed', { name })}
          >
            {t('photos.remove')}
          </Button>
        )}
      </Stack>
    </HStack>
  );
}
