import { useTranslation } from 'react-i18next';
import type { Photo } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { PhotoGallery } from './photo-gallery';
import { PhotoLightbox } from './photo-lightbox';

interface DamagePhotosProps {
  photos: Photo[];
  size?: 'sm' | 'md' | 'lg';
  /** Thumbnails shown at most (a '+N' button for the rest). */
  limit?: number;
  onRemove?: (photo: Photo) => Promise<unknown>;
  /** Opens a photo in a lightbox of the page's (see PhotoGallery). */
  onOpen?: (index: number) => void;
}

/** A request's photos of the damage: thumbnails that open large ('Photo 2 of 5 of the damage'). */
export function DamagePhotos({ photos, size, limit, onRemove, onOpen }: DamagePhotosProps) {
  const { t } = useTranslation();
  return (
    <PhotoGallery
      photos={photos}
      size={size}
      limit={limit}
      label={t('photos.damage')}
      describe={(number, count) => t('photos.altDamage', { number, count })}
      onRemove={onRemove}
      onOpen={onOpen}
    />
  );
}

/** A request's photos opened large by a lightbox the page keeps ('Photo 2 of 5 of the damage'). */
export function DamagePhotosLightbox({
  shown,
  onClose,
  onIndexChange,
}: {
  shown: { photos: Photo[]; index: number } | null;
  onClose: () => void;
  onIndexChange: (index: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <PhotoLightbox
      photos={shown?.photos ?? []}
      index={shown?.index ?? null}
      onIndexChange={onIndexChange}
      onClose={onClose}
      describe={(number, count) => t('photos.altDamage', { number, count })}
    />
  );
}
