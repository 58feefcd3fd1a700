'use client';

import { useState } from 'react';
import { styled } from '../theme/stitches.config';

const Frame = /* @__PURE__ */ styled('span', {
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
  '&[data-initials]::after': { content: 'attr(data-initials)' },
});
const Image = /* @__PURE__ */ styled('img', { size: '100%', objectFit: 'cover' });

/** Props of {@link Avatar}. */
export interface AvatarProps {
  /** Image URL, or `null` for initials. */
  src: string | null;
  /** Whose picture: the alternative text, and the initials when there is no image. */
  name: string;
  size?: 'small' | 'medium' | 'large';
  /** Hidden from screen readers, for an avatar inside a control that is already named. */
  decorative?: boolean;
}

/** A round picture of a person or mate, with initials when there is none (or it fails). */
export function Avatar({ src, name, size, decorative = false }: AvatarProps) {
  const [failed, setFailed] = useState(false);
  const initials = name
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  const showImage = src && !failed;
  if (decorative) {
    return (
      // Initials drawn by CSS: decoration, not text that the control's name would have to contain.
      <Frame size={size} aria-hidden="true" data-initials={showImage ? undefined : initials}>
        {showImage && <Image src={src} alt="" onError={() => setFailed(true)} />}
      </Frame>
    );
  }
  return (
    <Frame
      size={size}
      role={showImage ? undefined : 'img'}
      aria-label={showImage ? undefined : name}
    >
      {showImage ? (
        <Image src={src} alt={name} onError={() => setFailed(true)} />
      ) : (
        <span aria-hidden="true">{initials}</span>
      )}
    </Frame>
  );
}
