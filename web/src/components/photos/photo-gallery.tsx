import { Box, Button, Image, Stack, Text, Wrap } from '@chakra-ui/react';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Photo } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { MoreActionsMenu } from '../ui/more-actions-menu';
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
   * Offers to remove each photo, from its More actions (asked first): resolves once removed,
   * rejects after saying why not.
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
 * photos may be removed, a More actions menu under each whose Remove asks first.
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
  if (photos.length === 0) return null;
  const count = photos.length;
  const show = onOpen ?? setOpen;

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
              <MoreActionsMenu
                iconOnly
                subject={describe(index + 1, count)}
                actions={[
                  {
                    value: 'remove',
                    label: t('photos.removePhoto'),
                    icon: <Trash2 aria-hidden />,
                    danger: true,
                    confirm: {
                      title: t('photos.removeQuestion'),
                      body: (
                        <Stack gap="3">
                          <Text>{t('photos.removeBody')}</Text>
                          <Image
                            src={photo.thumbnailUrl}
                            alt={describe(index + 1, count)}
                            maxH="40"
                            alignSelf="start"
                            borderRadius="md"
                          />
                        </Stack>
                      ),
                      confirmLabel: t('photos.remove'),
                      run: () => onRemove(photo),
                    },
                  },
                ]}
              />
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
    </>
  );
}
