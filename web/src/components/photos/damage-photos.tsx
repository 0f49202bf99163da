import { useTranslation } from 'react-i18next';
import type { Photo } from '@/gen/repairs/marketplace/v1/marketplace_pb';
import { PhotoGallery } from './photo-gallery';

interface DamagePhotosProps {
  photos: Photo[];
  size?: 'sm' | 'md' | 'lg';
  /** Thumbnails shown at most (a '+N' button for the rest). */
  limit?: number;
  onRemove?: (photo: Photo) => Promise<unknown>;
}

/** A request's photos of the damage: thumbnails that open large ('Photo 2 of 5 of the damage'). */
export function DamagePhotos({ photos, size, limit, onRemove }: DamagePhotosProps) {
  const { t } = useTranslation();
  return (
    <PhotoGallery
      photos={photos}
      size={size}
      limit={limit}
      label={t('photos.damage')}
      describe={(number, count) => t('photos.altDamage', { number, count })}
      onRemove={onRemove}
    />
  );
}
