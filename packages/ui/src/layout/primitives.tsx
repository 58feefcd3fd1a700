import type { ComponentPropsWithoutRef, ElementType, ReactNode } from 'react';
import { styled } from '../theme/stitches.config';

type Space = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

const StyledBox = /* @__PURE__ */ styled('div', {});
const StyledFlex = /* @__PURE__ */ styled('div', {
  display: 'flex',
  // As a list (`as="ul"`), the items line up with what is around them: no bullets, no indent.
  '&:is(ul, ol)': { listStyle: 'none', margin: 0, padding: 0 },
  variants: {
    direction: { row: { flexDirection: 'row' }, column: { flexDirection: 'column' } },
    align: {
      start: { alignItems: 'flex-start' },
      center: { alignItems: 'center' },
      end: { alignItems: 'flex-end' },
      stretch: { alignItems: 'stretch' },
    },
    justify: {
      start: { justifyContent: 'flex-start' },
      center: { justifyContent: 'center' },
      end: { justifyContent: 'flex-end' },
      between: { justifyContent: 'space-between' },
    },
    wrap: { true: { flexWrap: 'wrap' } },
    gap: {
      0: { gap: 0 },
      1: { gap: '$1' },
      2: { gap: '$2' },
      3: { gap: '$3' },
      4: { gap: '$4' },
      5: { gap: '$5' },
      6: { gap: '$6' },
      7: { gap: '$7' },
      8: { gap: '$8' },
    },
  },
});
const StyledText = /* @__PURE__ */ styled('p', {
  margin: 0,
  fontFamily: '$body',
  lineHeight: '$body',
  variants: {
    size: {
      1: { fontSize: '$1' },
      2: { fontSize: '$2' },
      3: { fontSize: '$3' },
      4: { fontSize: '$4' },
    },
    tone: {
      default: { color: '$text' },
      muted: { color: '$textMuted' },
      danger: { color: '$danger' },
      accent: { color: '$accent' },
    },
    weight: {
      regular: { fontWeight: '$regular' },
      medium: { fontWeight: '$medium' },
      bold: { fontWeight: '$bold' },
    },
  },
  defaultVariants: { size: 3, tone: 'default', weight: 'regular' },
});
const StyledHeading = /* @__PURE__ */ styled('h2', {
  margin: 0,
  fontFamily: '$heading',
  lineHeight: '$tight',
  color: '$text',
  fontWeight: '$bold',
  variants: {
    size: {
      1: { fontSize: '$4' },
      2: { fontSize: '$5' },
      3: { fontSize: '$6' },
      4: { fontSize: '$7' },
    },
  },
  defaultVariants: { size: 2 },
});
const StyledContainer = /* @__PURE__ */ styled('div', {
  width: '100%',
  maxWidth: '$container',
  marginInline: 'auto',
  px: '$4',
  '@bp2': { px: '$5' },
});

/** Props of {@link Box}: any div attributes. */
export type BoxProps = ComponentPropsWithoutRef<'div'> & { as?: ElementType };

/** A plain block, for structure. */
export function Box(props: BoxProps) {
  return <StyledBox {...props} />;
}

/** Props of {@link Flex}. */
export interface FlexProps extends ComponentPropsWithoutRef<'div'> {
  as?: ElementType;
  direction?: 'row' | 'column';
  align?: 'start' | 'center' | 'end' | 'stretch';
  justify?: 'start' | 'center' | 'end' | 'between';
  wrap?: boolean;
  /** Space between children, from the space scale. */
  gap?: Space;
}

/** A flex row or column with spacing from the theme. */
export function Flex({ wrap, ...props }: FlexProps) {
  return <StyledFlex wrap={wrap ? true : undefined} {...props} />;
}

/** Props of {@link Stack}. */
export type StackProps = Omit<FlexProps, 'direction'>;

/** A column of children with even spacing (default gap 3). */
export function Stack({ gap = 3, ...props }: StackProps) {
  return <Flex direction="column" gap={gap} {...props} />;
}

/** Props of {@link Container}. */
export type ContainerProps = ComponentPropsWithoutRef<'div'> & { as?: ElementType };

/** The page's centred content column. */
export function Container(props: ContainerProps) {
  return <StyledContainer {...props} />;
}

/** Props of {@link Text}. */
export interface TextProps extends ComponentPropsWithoutRef<'p'> {
  as?: ElementType;
  size?: 1 | 2 | 3 | 4;
  tone?: 'default' | 'muted' | 'danger' | 'accent';
  weight?: 'regular' | 'medium' | 'bold';
}

/** Body text. */
export function Text(props: TextProps) {
  return <StyledText {...props} />;
}

/** Props of {@link Heading}. */
export interface HeadingProps extends ComponentPropsWithoutRef<'h2'> {
  /** The heading level element; default `h2`. */
  as?: 'h1' | 'h2' | 'h3' | 'h4';
  size?: 1 | 2 | 3 | 4;
  children?: ReactNode;
}

/** A heading at the level the page structure needs. */
export function Heading(props: HeadingProps) {
  return <StyledHeading {...props} />;
}
