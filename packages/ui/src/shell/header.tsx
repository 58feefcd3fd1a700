'use client';

import type { ReactNode } from 'react';
import { styled } from '../theme/stitches.config';
import { Button } from '../controls/button';
import { Avatar } from '../catalog/avatar';

const Bar = /* @__PURE__ */ styled('header', {
  position: 'sticky',
  top: 0,
  zIndex: 10,
  display: 'flex',
  alignItems: 'center',
  gap: '$2',
  minHeight: '56px',
  px: '$3',
  backgroundColor: '$surface',
  borderBottom: '1px solid $border',
  '@bp2': { gap: '$4', px: '$5' },
});
const Logo = /* @__PURE__ */ styled('a', {
  color: '$text',
  fontWeight: '$bold',
  fontSize: '$4',
  textDecoration: 'none',
  borderRadius: '$1',
  whiteSpace: 'nowrap',
  '&:focus-visible': { boxShadow: '$focus' },
});
const Search = /* @__PURE__ */ styled('a', {
  flex: 1,
  minWidth: 0,
  display: 'flex',
  alignItems: 'center',
  height: '36px',
  px: '$3',
  borderRadius: '$round',
  border: '1px solid $border',
  color: '$textMuted',
  fontSize: '$2',
  textDecoration: 'none',
  overflow: 'hidden',
  whiteSpace: 'nowrap',
  textOverflow: 'ellipsis',
  '&:hover': { borderColor: '$accent' },
  '&:focus-visible': { boxShadow: '$focus' },
  '@bp2': { maxWidth: '420px' },
});
const Benefits = /* @__PURE__ */ styled('span', {
  display: 'none',
  gap: '$3',
  fontSize: '$2',
  color: '$textMuted',
  whiteSpace: 'nowrap',
  '@bp2': { display: 'inline-flex' },
});
const Select = /* @__PURE__ */ styled('select', {
  height: '36px',
  borderRadius: '$2',
  border: '1px solid $border',
  backgroundColor: '$surface',
  color: '$text',
  px: '$2',
  '&:focus-visible': { outline: 'none', boxShadow: '$focus' },
});
const ProfileLink = /* @__PURE__ */ styled('a', {
  display: 'inline-flex',
  borderRadius: '$round',
  '&:focus-visible': { boxShadow: '$focus' },
});

/** Words the header shows, in the app's language. */
export interface HeaderLabels {
  search: string;
  language: string;
  signIn: string;
  profile: string;
  chats: (count: number) => string;
  goldCoins: (count: number) => string;
}

const ENGLISH: HeaderLabels = {
  search: 'Search mates',
  language: 'Language',
  signIn: 'Sign in',
  profile: 'Your profile',
  chats: (count) => `${count} chats`,
  goldCoins: (count) => `${count} gold coins`,
};

/** Props of {@link Header}. */
export interface HeaderProps {
  /** The product's name, shown as the logo linking home. */
  productName?: string;
  homeHref: string;
  searchHref: string;
  profileHref: string;
  /** The languages offered: code → name in that language. */
  languages: Record<string, string>;
  language: string;
  onLanguageChange: (language: string) => void;
  /** The signed-in user, or `null` for a visitor (who sees "Sign in"). */
  user: { name: string; avatar: string | null; chats: number; goldCoins: number } | null;
  onSignIn: () => void;
  labels?: HeaderLabels;
  /** Anything else for the bar's end (e.g. a theme toggle). */
  extra?: ReactNode;
}

/** The page's banner: logo, search entry, language, benefits, and sign-in or the user's avatar. */
export function Header({
  productName = 'Mates',
  homeHref,
  searchHref,
  profileHref,
  languages,
  language,
  onLanguageChange,
  user,
  onSignIn,
  labels = ENGLISH,
  extra,
}: HeaderProps) {
  return (
    <Bar>
      <Logo href={homeHref}>{productName}</Logo>
      <Search href={searchHref}>{labels.search}</Search>
      <Select
        aria-label={labels.language}
        value={language}
        onChange={(event) => onLanguageChange(event.target.value)}
      >
        {Object.entries(languages).map(([code, name]) => (
          <option key={code} value={code} lang={code}>
            {name}
          </option>
        ))}
      </Select>
      {extra}
      {user ? (
        <>
          <Benefits>
            <span>{labels.chats(user.chats)}</span>
            <span>{labels.goldCoins(user.goldCoins)}</span>
          </Benefits>
          <ProfileLink href={profileHref} aria-label={labels.profile}>
            <Avatar src={user.avatar} name={user.name} size="small" decorative />
          </ProfileLink>
        </>
      ) : (
        <Button size="small" onClick={onSignIn}>
          {labels.signIn}
        </Button>
      )}
    </Bar>
  );
}
