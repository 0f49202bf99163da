import { Box, Dialog, Flex, HStack, IconButton, Image, Portal, Text } from '@chakra-ui/react';
import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Photo } from '@/gen/repairs/marketplace/v1/marketplace_pb';

/** How far a finger must travel sideways to turn to the next or previous photo. */
export const SWIPE_PX = 50;

/**
 * The attribute of the buttons that open photos: the ids of the photos each opens (a
 * thumbnail one, a '+N' button those it stands for), where the focus goes back to.
 */
export const PHOTO_BUTTON = 'data-photo-button';

/** The button that opens `photo` in the page, if it is there. */
const buttonOf = (photo: Photo | undefined) =>
  photo ? document.querySelector<HTMLElement>(`[${PHOTO_BUTTON}~="${photo.id}"]`) : null;

interface PhotoLightboxProps {
  photos: Photo[];
  /** The photo shown; null: closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
  /** A photo's description: 'Photo 2 of 5 of the damage'. */
  describe: (number: number, count: number) => string;
}

/**
 * A photo shown large over the page: previous and next with the buttons, the arrow keys
 * (Home and End for the first and last) or a swipe; Escape or Close closes it and the focus
 * goes back to the button of the photo last seen (PHOTO_BUTTON). Its name and the image's alt text say
 * which photo it is ('Photo 2 of 5 of the damage').
 */
export function PhotoLightbox({
  photos,
  index,
  onIndexChange,
  onClose,
  describe,
}: PhotoLightboxProps) {
  const { t } = useTranslation();
  const touchStart = useRef<number | null>(null);
  const shown = index === null ? null : Math.min(index, photos.length - 1);
  const photo = shown === null ? undefined : photos[shown];
  // Closing renders it without a photo before the focus goes back: keep the last one seen.
  const lastShown = useRef<Photo | undefined>(undefined);
  useEffect(() => {
    if (photo) lastShown.current = photo;
  }, [photo]);
  const count = photos.length;

  const go = (to: number) => {
    if (count > 0) onIndexChange((to + count) % count);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (shown === null) return;
    const moves: Record<string, number> = {
      ArrowRight: shown + 1,
      ArrowLeft: shown - 1,
      Home: 0,
      End: count - 1,
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  };
  const onTouchStart = (event: TouchEvent) => {
    touchStart.current = event.changedTouches[0]?.clientX ?? null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const end = event.changedTouches[0]?.clientX;
    touchStart.current = null;
    if (start === null || end === undefined || shown === null) return;
    if (end - start <= -SWIPE_PX) go(shown + 1);
    else if (end - start >= SWIPE_PX) go(shown - 1);
  };

  const title = shown === null ? '' : describe(shown + 1, count);
  return (
    <Dialog.Root
      open={photo !== undefined}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      size="full"
      finalFocusEl={() => buttonOf(lastShown.current)}
    >
      <Portal>
        <Dialog.Backdrop bg="blackAlpha.800" />
        <Dialog.Positioner>
          <Dialog.Content
            bg="gray.950"
            color="white"
            onKeyDown={onKeyDown}
            onTouchStart={onTouchStart}
            onTouchEnd={onTouchEnd}
            data-testid="photo-lightbox"
          >
            <Flex align="center" justify="space-between" gap="3" px="4" py="3">
              <Dialog.Title fontSize="md" fontWeight="semibold">
                {title}
              </Dialog.Title>
              <Dialog.CloseTrigger asChild position="static">
                <IconButton
                  aria-label={t('photos.close')}
                  variant="solid"
                  colorPalette="gray"
                  size="md"
                >
                  <X aria-hidden />
                </IconButton>
              </Dialog.CloseTrigger>
            </Flex>
            <Dialog.Body display="flex" alignItems="center" justifyContent="center" p="2">
              {photo && (
                <Image
                  src={photo.url}
                  alt={title}
                  maxW="100%"
                  maxH="calc(100dvh - 9rem)"
                  objectFit="contain"
                  draggable={false}
                  userSelect="none"
                />
              )}
            </Dialog.Body>
            {count > 1 && (
              <HStack justify="center" gap="4" pb="4" px="4">
                <IconButton
                  aria-label={t('photos.previous')}
                  onClick={() => shown !== null && go(shown - 1)}
                  variant="solid"
                  colorPalette="gray"
                  size="lg"
                >
                  <ChevronLeft aria-hidden />
                </IconButton>
                <Box minW="16" textAlign="center">
                  <Text aria-hidden>
                    {shown === null ? '' : t('photos.position', { number: shown + 1, count })}
                  </Text>
                </Box>
                <IconButton
                  aria-label={t('photos.next')}
                  onClick={() => shown !== null && go(shown + 1)}
                  variant="solid"
                  colorPalette="gray"
                  size="lg"
                >
                  <ChevronRight aria-hidden />
                </IconButton>
              </HStack>
            )}
            {count > 1 && (
              <Text srOnly aria-live="polite">
                {title}
              </Text>
            )}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
