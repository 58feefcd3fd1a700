'use client';

import type { MateSummary } from '@mates/api-client';
import { keyframes, styled } from '../theme/stitches.config';
import { Tag } from '../controls/chip';

const Card = /* @__PURE__ */ styled('article', {
  position: 'relative',
  display: 'flex',
  flexDirection: 'column',
  overflow: 'hidden',
  borderRadius: '$3',
  backgroundColor: '$surface',
  border: '1px solid $border',
  '&:focus-within': { borderColor: '$accent' },
});
const CardLink = /* @__PURE__ */ styled('a', {
  display: 'flex',
  flexDirection: 'column',
  color: 'inherit',
  textDecoration: 'none',
  '&:focus-visible': { outline: 'none', boxShadow: 'inset $focus' },
});
const Portrait = /* @__PURE__ */ styled('img', {
  width: '100%',
  aspectRatio: '4 / 5',
  objectFit: 'cover',
  backgroundColor: '$surfaceRaised',
  display: 'block',
});
const MatureBadge = /* @__PURE__ */ styled('span', {
  position: 'absolute',
  top: '$2',
  left: '$2',
  padding: '2px $2',
  borderRadius: '$round',
  backgroundColor: '$dangerSurface',
  color: '$danger',
  border: '1px solid $danger',
  fontSize: '$1',
  fontWeight: '$bold',
});
const Body = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$1',
  padding: '$3',
});
const Name = /* @__PURE__ */ styled('h3', {
  margin: 0,
  fontSize: '$3',
  fontWeight: '$bold',
  lineHeight: '$tight',
});
const Tagline = /* @__PURE__ */ styled('p', {
  margin: 0,
  fontSize: '$2',
  color: '$textMuted',
  display: '-webkit-box',
  WebkitLineClamp: 2,
  WebkitBoxOrient: 'vertical',
  overflow: 'hidden',
});
const Meta = /* @__PURE__ */ styled('div', {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'space-between',
  gap: '$2',
  padding: '0 $3 $3',
});
const Tags = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexWrap: 'wrap',
  gap: '$1',
  padding: '0 $3 $2',
});
const Counter = /* @__PURE__ */ styled('span', { fontSize: '$1', color: '$textMuted' });
const Favorite = /* @__PURE__ */ styled('button', {
  all: 'unset',
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  size: '32px',
  borderRadius: '$round',
  color: '$textMuted',
  cursor: 'pointer',
  '&:hover': { color: '$accent' },
  '&:focus-visible': { boxShadow: '$focus' },
  '&[aria-pressed="true"]': { color: '$accent' },
});

const pulse = /* @__PURE__ */ keyframes({ '0%, 100%': { opacity: 0.55 }, '50%': { opacity: 1 } });
const Bone = /* @__PURE__ */ styled('div', {
  backgroundColor: '$surfaceRaised',
  borderRadius: '$1',
  animation: `${pulse} 1.4s ease-in-out infinite`,
  '@reducedMotion': { animation: 'none' },
});

/** Words the card shows, in the app's language. */
export interface MateCardLabels {
  /** The favorite toggle's name, e.g. "Favorite". */
  favorite: string;
  /**
   * e.g. (n, count) => `${n} chats`: `n` as shown (compact: "1.2K"), `count` the number, for
   * the plural form ("1 chat").
   */
  chats: (shown: string, count: number) => string;
  /** The badge of a mature (not safe for work) mate; default "18+". */
  mature?: string;
  /** Its name for screen readers; default "Mature". */
  matureName?: string;
}

const ENGLISH: MateCardLabels = {
  favorite: 'Favorite',
  chats: (shown, count) => `${shown} ${count === 1 ? 'chat' : 'chats'}`,
};

/** Props of {@link MateCard}. */
export interface MateCardProps {
  mate: MateSummary;
  /** Where the card leads (the mate's detail page). */
  href: string;
  /** Whether the mate is a favorite; the toggle is hidden when `onFavoriteChange` is absent. */
  favorite?: boolean;
  onFavoriteChange?: (favorite: boolean) => void;
  /** Labels of each tag key; unknown keys show as they are. */
  tagLabels?: Record<string, string>;
  labels?: MateCardLabels;
  /** For number formatting; default "en". */
  locale?: string;
  /** The level of the name's heading: one below the heading the list sits under; default 3. */
  headingLevel?: 2 | 3 | 4;
}

/** A mate in a list: portrait, name, tagline, tags, chats, a favorite toggle, and an 18+ badge on a mature one. */
export function MateCard({
  mate,
  href,
  favorite = false,
  onFavoriteChange,
  tagLabels = {},
  labels = ENGLISH,
  locale = 'en',
  headingLevel = 3,
}: MateCardProps) {
  const chats = new Intl.NumberFormat(locale, { notation: 'compact' }).format(mate.counters.chats);
  return (
    <Card aria-label={mate.name}>
      <CardLink href={href}>
        <Portrait src={mate.avatar} alt="" loading="lazy" />
        {mate.nsfw && (
          <MatureBadge role="img" aria-label={labels.matureName ?? 'Mature'}>
            {labels.mature ?? '18+'}
          </MatureBadge>
        )}
        <Body>
          <Name as={`h${headingLevel}` as const}>{mate.name}</Name>
          <Tagline>{mate.tagline}</Tagline>
        </Body>
      </CardLink>
      <Tags>
        {mate.tags.slice(0, 3).map((tag) => (
          <Tag key={tag}>{tagLabels[tag] ?? tag}</Tag>
        ))}
      </Tags>
      <Meta>
        <Counter>{labels.chats(chats, mate.counters.chats)}</Counter>
        {onFavoriteChange && (
          <Favorite
            type="button"
            aria-label={labels.favorite}
            aria-pressed={favorite}
            onClick={() => onFavoriteChange(!favorite)}
          >
            <svg
              width="20"
              height="20"
              viewBox="0 0 24 24"
              aria-hidden="true"
              fill={favorite ? 'currentColor' : 'none'}
              stroke="currentColor"
              strokeWidth="2"
            >
              <path d="M12 21s-7-4.4-9.5-9A5.5 5.5 0 0 1 12 6a5.5 5.5 0 0 1 9.5 6c-2.5 4.6-9.5 9-9.5 9Z" />
            </svg>
          </Favorite>
        )}
      </Meta>
    </Card>
  );
}

/** A card-shaped placeholder while mates load. */
export function MateCardSkeleton() {
  return (
    <Card aria-hidden="true">
      <Bone css={{ width: '100%', aspectRatio: '4 / 5', borderRadius: 0 }} />
      <Body>
        <Bone css={{ height: '18px', width: '70%' }} />
        <Bone css={{ height: '14px', width: '95%' }} />
        <Bone css={{ height: '14px', width: '60%' }} />
      </Body>
    </Card>
  );
}
