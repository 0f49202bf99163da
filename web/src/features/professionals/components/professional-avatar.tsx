import { Avatar } from '@chakra-ui/react';
import { usePublicProfessional } from '../api/get-public-professional';

type Size = Avatar.RootProps['size'];

interface ProfessionalAvatarProps {
  name: string;
  photoUrl?: string;
  size?: Size;
}

/** A professional's photo, or their initials without one. Decorative: the name is beside it. */
export function ProfessionalAvatar({ name, photoUrl, size = '2xl' }: ProfessionalAvatarProps) {
  return (
    <Avatar.Root size={size} colorPalette="brand">
      <Avatar.Fallback name={name} />
      {photoUrl && <Avatar.Image src={photoUrl} alt="" />}
    </Avatar.Root>
  );
}

/**
 * The photo of a professional's public profile (GetPublicProfessional, as their profile page
 * loads it), their initials meanwhile or when they have none.
 */
export function PublicProfessionalAvatar({
  professionalId,
  name,
  size,
}: {
  professionalId: string;
  name: string;
  size?: Size;
}) {
  const { data } = usePublicProfessional(professionalId);
  return <ProfessionalAvatar name={name} photoUrl={data?.professional?.photoUrl} size={size} />;
}
