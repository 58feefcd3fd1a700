import type { CSSProperties, ReactNode } from 'react';
import { breakpoints, themeTokens, type ThemeName } from '../../packages/ui/src/theme/tokens';

// The figures of the guideline pages, computed from the kit's tokens while the page renders, so
// that a changed colour changes its contrast ratio here too.

const cell: CSSProperties = { padding: '8px 12px', verticalAlign: 'middle', textAlign: 'left' };
const code: CSSProperties = { fontFamily: 'ui-monospace, monospace', fontSize: 13 };

function Table({ head, children }: { head: string[]; children: ReactNode }) {
  return (
    <table style={{ borderCollapse: 'collapse', width: '100%' }}>
      <thead>
        <tr>
          {head.map((title) => (
            <th key={title} style={cell}>
              {title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

type Color = keyof (typeof themeTokens)['dark']['colors'];

/** The pairs the kit draws: text (4.5:1 needed, AA) and the parts of controls (3:1). */
const PAIRS: { fg: Color; bg: Color; use: string; needs: number }[] = [
  { fg: 'text', bg: 'bg', use: 'body text on the page', needs: 4.5 },
  { fg: 'text', bg: 'surface', use: 'text on cards and panels', needs: 4.5 },
  { fg: 'text', bg: 'surfaceRaised', use: 'text on raised parts, soft buttons', needs: 4.5 },
  { fg: 'textMuted', bg: 'bg', use: 'secondary text, hints', needs: 4.5 },
  { fg: 'textMuted', bg: 'surface', use: 'secondary text on cards', needs: 4.5 },
  { fg: 'onAccent', bg: 'accent', use: 'label of a solid button', needs: 4.5 },
  { fg: 'accent', bg: 'bg', use: 'links, selected tabs', needs: 4.5 },
  { fg: 'danger', bg: 'bg', use: 'error messages', needs: 4.5 },
  { fg: 'danger', bg: 'dangerSurface', use: 'label of a danger button', needs: 4.5 },
  { fg: 'success', bg: 'bg', use: 'confirmations', needs: 4.5 },
  { fg: 'focus', bg: 'bg', use: 'the keyboard focus ring', needs: 3 },
  { fg: 'border', bg: 'bg', use: 'borders (decorative: no minimum)', needs: 1 },
];

function Sample({ theme, fg, bg }: { theme: ThemeName; fg: Color; bg: Color }) {
  const colors = themeTokens[theme].colors;
  return (
    <span
      style={{
        display: 'inline-block',
        padding: '4px 10px',
        borderRadius: 6,
        color: colors[fg],
        background: colors[bg],
        border: '1px solid rgba(128, 128, 128, 0.4)',
      }}
    >
      Aa
    </span>
  );
}

function Ratio({
  theme,
  fg,
  bg,
  needs,
}: {
  theme: ThemeName;
  fg: Color;
  bg: Color;
  needs: number;
}) {
  const colors = themeTokens[theme].colors;
  const ratio = contrastRatio(colors[fg], colors[bg]);
  const verdict = needs === 1 ? '' : ratio >= needs ? ' ✓' : ` ✗ (needs ${needs}:1)`;
  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
      <Sample theme={theme} fg={fg} bg={bg} />
      <span style={code}>
        {ratio.toFixed(1)}:1{verdict}
      </span>
    </span>
  );
}

/** Each colour pair the kit draws, with its contrast ratio in both themes. */
export function ContrastTable() {
  return (
    <Table head={['colour on background', 'used for', 'dark', 'light']}>
      {PAIRS.map(({ fg, bg, use, needs }) => (
        <tr key={`${fg}-${bg}`}>
          <td style={{ ...cell, ...code }}>
            ${fg} on ${bg}
          </td>
          <td style={cell}>{use}</td>
          <td style={cell}>
            <Ratio theme="dark" fg={fg} bg={bg} needs={needs} />
          </td>
          <td style={cell}>
            <Ratio theme="light" fg={fg} bg={bg} needs={needs} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

const BREAKPOINT_USE: Record<keyof typeof breakpoints, string> = {
  bp1: 'a phone held sideways: the chat composer puts its buttons beside the message box',
  bp2: 'a tablet: wider cards in the grid, the header and footer spread out, a wider search',
  bp3: 'a desktop: the header shows its places instead of a menu, chats sit beside the conversation',
  reducedMotion: 'the person asked for less motion: dialogs, notices and placeholders do not move',
};

/** The kit's media queries and what changes at each. */
export function BreakpointTable() {
  return (
    <Table head={['name', 'media query', 'what changes']}>
      {Object.entries(breakpoints).map(([name, query]) => (
        <tr key={name}>
          <td style={{ ...cell, ...code }}>@{name}</td>
          <td style={{ ...cell, ...code }}>{query}</td>
          <td style={cell}>{BREAKPOINT_USE[name as keyof typeof breakpoints]}</td>
        </tr>
      ))}
    </Table>
  );
}
