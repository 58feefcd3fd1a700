import { useState } from 'react';
import { styled } from '../theme/stitches.config';

const Frame = styled('span', {
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  overflow: 'hidden',
  flexShrink: 0,
  borderRadius: '$round',
  backgroundColor: '$surfaceRaised',
  color: '$text',
  fontWeight: '$bold',
  variants: {
    size: {
      small: { size: '32px', fontSize: '$1' },
      medium: { size: '44px', fontSize: '$2' },
      large: { size: '72px', fontSize: '$4' },
    },
  },
  defaultVariants: { size: 'medium' },
});
const Image = styled('img', { size: '100%', objectFit: 'cover' });

/** Props of {@link Avatar}. */
export interface AvatarProps {
  /** Image URL, or `null` for initials. */
  src: string | null;
  /** Whose picture: the alternative text, and the initials when there is no image. */
  name: string;
  size?: 'small' | 'medium' | 'large';
}

/** A round picture of a person or mate, with initials when there is none (or it fails). */
export function Avatar({ src, name, size }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const initials = name
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <Frame
      size={size}
      role={src && !failed ? undefined : 'img'}
      aria-label={src && !failed ? undefined : name}
    >
      {src && !failed ? (
        <Image src={src} alt={name} onError={() => setFailed(true)} />
      ) : (
        <span aria-hidden="true">{initials}</span>
      )}
    </Frame>
  );
}
