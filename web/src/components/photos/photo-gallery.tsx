import { Box, Button, Image, Wrap } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Photo } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { PHOTO_BUTTON, PhotoLightbox } from './photo-lightbox';

const SIZES = { sm: '14', md: '24', lg: '32' } as const;

interface PhotoGalleryProps {
  photos: Photo[];
  /** A photo's description: 'Photo 2 of 5 of the damage'. */
  describe: (number: number, count: number) => string;
  /** What the list of thumbnails is, for screen readers. */
  label: string;
  size?: keyof typeof SIZES;
  /** Thumbnails shown at most; a '+N' button beyond opens the next one large. */
  limit?: number;
  /**
   * Offers to remove each photo (asked first): resolves once removed, rejects after saying
   * why not.
   */
  onRemove?: (photo: Photo) => Promise<unknown>;
  /**
   * Opens a photo in a lightbox the page keeps (one that outlives these thumbnails, as in a
   * table that turns to cards when a phone turns); without it the gallery has its own.
   */
  onOpen?: (index: number) => void;
}

/**
 * Thumbnails of photos, each a button that opens it large (PhotoLightbox), and, when the
 * photos may be removed, a Remove button under each that asks first.
 */
export function PhotoGallery({
  photos,
  describe,
  label,
  size = 'md',
  limit = Infinity,
  onRemove,
  onOpen,
}: PhotoGalleryProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const [removing, setRemoving] = useState<Photo | null>(null);
  const [busy, setBusy] = useState(false);
  if (photos.length === 0) return null;
  const count = photos.length;
  const show = onOpen ?? setOpen;

  const remove = async () => {
    if (!removing || !onRemove) return;
    setBusy(true);
    try {
      await onRemove(removing);
      setRemoving(null);
    } catch {
      // The caller says why; the question stays open to try again or cancel.
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Wrap as="ul" aria-label={label} gap="3" listStyleType="none">
        {photos.slice(0, limit).map((photo, index) => (
          <Box as="li" key={photo.id} display="flex" flexDirection="column" gap="1">
            <Box
              as="button"
              {...{ [PHOTO_BUTTON]: photo.id }}
              onClick={() => show(index)}
              borderRadius="md"
              overflow="hidden"
              borderWidth="1px"
              bg="bg.muted"
              width={SIZES[size]}
              height={SIZES[size]}
              cursor="zoom-in"
              _focusVisible={{
                outline: '3px solid',
                outlineColor: 'brand.solid',
                outlineOffset: '2px',
              }}
            >
              <Image
                src={photo.thumbnailUrl}
                alt={describe(index + 1, count)}
                width="full"
                height="full"
                objectFit="cover"
                loading="lazy"
              />
            </Box>
            {onRemove && (
              <Button
                size="xs"
                variant="outline"
                colorPalette="red"
                onClick={() => setRemoving(photo)}
                aria-label={t('photos.removeNamed', { name: describe(index + 1, count) })}
              >
                {t('photos.remove')}
              </Button>
            )}
          </Box>
        ))}
        {count > limit && (
          <Box as="li" display="flex">
            <Button
              {...{
                [PHOTO_BUTTON]: photos
                  .slice(limit)
                  .map((photo) => photo.id)
                  .join(' '),
              }}
              variant="outline"
              width={SIZES[size]}
              height={SIZES[size]}
              onClick={() => show(limit)}
              aria-label={t('photos.more', { count: count - limit })}
            >
              +{count - limit}
            </Button>
          </Box>
        )}
      </Wrap>
      {!onOpen && (
        <PhotoLightbox
          photos={photos}
          index={open}
          onIndexChange={setOpen}
          onClose={() => setOpen(null)}
          describe={describe}
        />
      )}
      {onRemove && (
        <ConfirmDialog
          open={removing !== null}
          title={t('photos.removeQuestion')}
          confirmLabel={t('photos.remove')}
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(null)}
          loading={busy}
          destructive
        >
          {removing && (
            <Image
              src={removing.thumbnailUrl}
              alt={describe(photos.indexOf(removing) + 1, count)}
              maxH="40"
              borderRadius="md"
            />
          )}
        </ConfirmDialog>
      )}
    </>
  );
}
