'use client';

import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { styled } from '../theme/stitches.config';
import { Button } from '../controls/button';
import { Avatar } from '../catalog/avatar';
import { Balances } from './balances';

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
const SearchForm = /* @__PURE__ */ styled('form', {
  flex: 1,
  minWidth: 0,
  display: 'flex',
  '@bp2': { maxWidth: '420px' },
});
const SearchInput = /* @__PURE__ */ styled('input', {
  flex: 1,
  minWidth: 0,
  height: '36px',
  px: '$3',
  borderRadius: '$round',
  border: '1px solid $border',
  backgroundColor: '$surface',
  color: '$text',
  fontSize: '$2',
  '&::placeholder': { color: '$textMuted' },
  '&:hover': { borderColor: '$accent' },
  '&:focus-visible': { outline: 'none', boxShadow: '$focus' },
});
const Spacer = /* @__PURE__ */ styled('span', { flex: 1 });
const Places = /* @__PURE__ */ styled('nav', {
  display: 'none',
  gap: '$3',
  '@bp3': { display: 'inline-flex' },
});
const PlaceLink = /* @__PURE__ */ styled('a', {
  color: '$textMuted',
  fontSize: '$2',
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  borderRadius: '$1',
  '&:hover': { color: '$text' },
  '&:focus-visible': { boxShadow: '$focus' },
  '&[aria-current="page"]': { color: '$text', fontWeight: '$medium' },
});
const PlacesDisclosure = /* @__PURE__ */ styled('div', {
  position: 'relative',
  '@bp3': { display: 'none' },
});
const MenuButton = /* @__PURE__ */ styled('button', {
  height: '36px',
  px: '$2',
  borderRadius: '$2',
  border: '1px solid $border',
  backgroundColor: '$surface',
  color: '$text',
  fontSize: '$2',
  cursor: 'pointer',
  '&:focus-visible': { outline: 'none', boxShadow: '$focus' },
});
const MenuList = /* @__PURE__ */ styled('ul', {
  position: 'absolute',
  right: 0,
  top: 'calc(100% + 6px)',
  minWidth: '200px',
  margin: 0,
  padding: '$1',
  listStyle: 'none',
  borderRadius: '$2',
  border: '1px solid $border',
  backgroundColor: '$surface',
  boxShadow: '0 8px 24px rgba(0,0,0,0.18)',
  // Above the page under the sticky header (10); dialogs (100) never open over it.
  zIndex: 20,
  '& a': {
    display: 'block',
    padding: '$2 $3',
    borderRadius: '$1',
    color: '$text',
    fontSize: '$2',
    textDecoration: 'none',
  },
  '& a:hover': { backgroundColor: '$surfaceRaised' },
  '& a:focus-visible': { outline: 'none', boxShadow: '$focus' },
  '& a[aria-current="page"]': { fontWeight: '$medium' },
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
  /** The name of the list of places (favorites, recent chats…) and of the button opening it. */
  places: string;
  language: string;
  signIn: string;
  profile: string;
  chats: (count: number) => string;
  goldCoins: (count: number) => string;
}

const ENGLISH: HeaderLabels = {
  search: 'Search mates',
  places: 'Menu',
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
  /** Called with the words typed in the search box when it is submitted (Enter). */
  onSearch: (query: string) => void;
  /** Whether to show the search box (hide it on a page that has its own). Default `true`. */
  showSearch?: boolean;
  profileHref: string;
  /** Places a signed-in person goes often (favorites, recent chats, personas): shown as links
   * on wide screens and in a menu on narrow ones. `current` marks the page shown now. */
  places?: { href: string; label: string; current?: boolean }[];
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

/**
 * The page's banner: logo, a search box (Enter searches), the signed-in person's places (links
 * on wide screens, a menu on narrow ones), language, benefits, and sign-in or the avatar.
 */
export function Header({
  productName = 'Mates',
  homeHref,
  onSearch,
  showSearch = true,
  profileHref,
  places = [],
  languages,
  language,
  onLanguageChange,
  user,
  onSignIn,
  labels = ENGLISH,
  extra,
}: HeaderProps) {
  const [query, setQuery] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(query.trim());
  };
  const shownPlaces = user ? places : [];
  return (
    <Bar>
      <Logo href={homeHref}>{productName}</Logo>
      {showSearch ? (
        <SearchForm role="search" onSubmit={submit}>
          <SearchInput
            type="search"
            name="q"
            aria-label={labels.search}
            placeholder={labels.search}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            autoComplete="off"
            enterKeyHint="search"
          />
        </SearchForm>
      ) : (
        <Spacer />
      )}
      {shownPlaces.length > 0 && (
        <>
          <Places aria-label={labels.places}>
            {shownPlaces.map((place) => (
              <PlaceLink
                key={place.href}
                href={place.href}
                aria-current={place.current ? 'page' : undefined}
              >
                {place.label}
              </PlaceLink>
            ))}
          </Places>
          <PlacesMenu label={labels.places} places={shownPlaces} />
        </>
      )}
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
          <Balances chats={user.chats} goldCoins={user.goldCoins} labels={labels} wideOnly />
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

/**
 * The places on a narrow screen: a disclosure (a button that shows a list of links), the
 * pattern WAI-ARIA recommends for site navigation. Escape or a click elsewhere closes it, and
 * Escape gives the focus back to the button.
 */
function PlacesMenu({
  label,
  places,
}: {
  label: string;
  places: NonNullable<HeaderProps['places']>;
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent | FocusEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('focusin', away);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('focusin', away);
    };
  }, [open]);
  return (
    <PlacesDisclosure
      ref={root}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <MenuButton
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
      >
        {label}
      </MenuButton>
      <nav aria-label={label} hidden={!open}>
        <MenuList id={listId}>
          {places.map((place) => (
            <li key={place.href}>
              <a
                href={place.href}
                aria-current={place.current ? 'page' : undefined}
                onClick={() => setOpen(false)}
              >
                {place.label}
              </a>
            </li>
          ))}
        </MenuList>
      </nav>
    </PlacesDisclosure>
  );
}
