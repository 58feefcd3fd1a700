import type { CSSProperties, ReactNode } from 'react';
import { lightTheme, theme } from '../../packages/ui/src/theme/stitches.config';

// Every figure on the Design tokens page is read from the kit's Stitches config at run time,
// so the page cannot drift from what the components draw with.

interface Token {
  token: string | number;
  value: string;
}

type Scale = Record<string, Token>;

const tokensOf = (scale: unknown): Token[] => Object.values(scale as Scale);

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

function Swatch({ color, label }: { color: string; label: string }) {
  return (
    <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
      <span
        style={{
          width: 40,
          height: 28,
          borderRadius: 6,
          background: color,
          border: '1px solid rgba(128, 128, 128, 0.4)',
        }}
      />
      <span style={code}>{label}</span>
    </span>
  );
}

/** Each colour of the dark theme (the default) beside its light-theme value. */
export function ColorTokens() {
  const light = lightTheme.colors as unknown as Scale;
  return (
    <Table head={['token', 'dark', 'light']}>
      {tokensOf(theme.colors).map(({ token, value }) => (
        <tr key={token}>
          <td style={{ ...cell, ...code }}>${token}</td>
          <td style={cell}>
            <Swatch color={value} label={value} />
          </td>
          <td style={cell}>
            <Swatch color={light[token]?.value ?? value} label={light[token]?.value ?? value} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The space scale, drawn as bars of each length. */
export function SpaceTokens() {
  return (
    <Table head={['token', 'value', '']}>
      {tokensOf(theme.space).map(({ token, value }) => (
        <tr key={token}>
          <td style={{ ...cell, ...code }}>${token}</td>
          <td style={{ ...cell, ...code }}>{value}</td>
          <td style={cell}>
            <span style={{ display: 'block', width: value, height: 16, background: '#a77bf3' }} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The type scale, the weights and the line heights, each shown in use. */
export function TypeTokens() {
  const family = theme.fonts.body.value;
  return (
    <>
      <Table head={['token', 'size', 'sample']}>
        {tokensOf(theme.fontSizes).map(({ token, value }) => (
          <tr key={token}>
            <td style={{ ...cell, ...code }}>${token}</td>
            <td style={{ ...cell, ...code }}>{value}</td>
            <td style={{ ...cell, fontFamily: family, fontSize: value }}>
              Lyra looks up and smiles
            </td>
          </tr>
        ))}
      </Table>
      <Table head={['weight', 'value', 'sample']}>
        {tokensOf(theme.fontWeights).map(({ token, value }) => (
          <tr key={token}>
            <td style={{ ...cell, ...code }}>${token}</td>
            <td style={{ ...cell, ...code }}>{value}</td>
            <td style={{ ...cell, fontFamily: family, fontWeight: Number(value) }}>
              Discover mates
            </td>
          </tr>
        ))}
      </Table>
      <Table head={['line height', 'value']}>
        {tokensOf(theme.lineHeights).map(({ token, value }) => (
          <tr key={token}>
            <td style={{ ...cell, ...code }}>${token}</td>
            <td style={{ ...cell, ...code }}>{value}</td>
          </tr>
        ))}
      </Table>
      <p style={code}>fonts: {family}</p>
    </>
  );
}

/** The radii, each on a square. */
export function RadiusTokens() {
  return (
    <div style={{ display: 'flex', gap: 24, flexWrap: 'wrap' }}>
      {tokensOf(theme.radii).map(({ token, value }) => (
        <figure key={token} style={{ margin: 0, textAlign: 'center' }}>
          <div style={{ width: 72, height: 72, borderRadius: value, background: '#a77bf3' }} />
          <figcaption style={code}>
            ${token} · {value}
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

/** The shadows of both themes, each on a card of that theme's surface. */
export function ShadowTokens() {
  const light = lightTheme.shadows as unknown as Scale;
  const themes = [
    { name: 'dark', surface: theme.colors.surface.value, bg: theme.colors.bg.value },
    {
      name: 'light',
      surface: (lightTheme.colors as unknown as Scale).surface!.value,
      bg: (lightTheme.colors as unknown as Scale).bg!.value,
    },
  ];
  return (
    <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 16 }}>
      {themes.map(({ name, surface, bg }) => (
        <div key={name} style={{ background: bg, padding: 24, borderRadius: 10 }}>
          {tokensOf(theme.shadows).map(({ token, value }) => {
            const shadow = name === 'light' ? (light[token]?.value ?? value) : value;
            return (
              <div
                key={token}
                style={{
                  background: surface,
                  boxShadow: shadow,
                  borderRadius: 10,
                  padding: 16,
                  marginBottom: 24,
                  color: name === 'light' ? '#1d1626' : '#f1eef6',
                  ...code,
                }}
              >
                {name} ${token}: {shadow}
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}

/** The sizes (dialog, field, icon, container widths). */
export function SizeTokens() {
  return (
    <Table head={['token', 'value']}>
      {tokensOf(theme.sizes).map(({ token, value }) => (
        <tr key={token}>
          <td style={{ ...cell, ...code }}>${token}</td>
          <td style={{ ...cell, ...code }}>{value}</td>
        </tr>
      ))}
    </Table>
  );
}
