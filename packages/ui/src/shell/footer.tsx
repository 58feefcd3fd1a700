import { styled } from '../theme/stitches.config';

const Bar = /* @__PURE__ */ styled('footer', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$3',
  padding: '$5 $4',
  borderTop: '1px solid $border',
  color: '$textMuted',
  fontSize: '$2',
  '@bp2': { flexDirection: 'row', justifyContent: 'space-between', alignItems: 'center', px: '$5' },
});
const Links = /* @__PURE__ */ styled('ul', {
  display: 'flex',
  flexWrap: 'wrap',
  gap: '$2 $4',
  margin: 0,
  padding: 0,
  listStyle: 'none',
});
const Link = /* @__PURE__ */ styled('a', {
  color: '$textMuted',
  textDecoration: 'none',
  borderRadius: '$1',
  '&:hover': { color: '$text', textDecoration: 'underline' },
  '&:focus-visible': { boxShadow: '$focus' },
});

/** One footer link. */
export interface FooterLink {
  href: string;
  label: string;
}

/** Props of {@link Footer}. */
export interface FooterProps {
  /** Privacy notice, terms of use, community guidelines, support, FAQ — in that order. */
  links: FooterLink[];
  /** e.g. "© 2026 Mates — open source". */
  note: string;
  /** The list's accessible name; default "Legal and help". */
  label?: string;
}

/** The page's contentinfo: links to the legal and help pages. */
export function Footer({ links, note, label = 'Legal and help' }: FooterProps) {
  return (
    <Bar>
      <nav aria-label={label}>
        <Links>
          {links.map((link) => (
            <li key={link.href}>
              <Link href={link.href}>{link.label}</Link>
            </li>
          ))}
        </Links>
      </nav>
      <span>{note}</span>
    </Bar>
  );
}
