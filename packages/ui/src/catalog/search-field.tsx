'use client';

import { useId } from 'react';
import { styled } from '../theme/stitches.config';
import { Chip } from '../controls/chip';

const Frame = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$3',
});
const Input = /* @__PURE__ */ styled('input', {
  all: 'unset',
  boxSizing: 'border-box',
  width: '100%',
  height: '$field',
  px: '$4',
  borderRadius: '$round',
  border: '1px solid $border',
  backgroundColor: '$surface',
  color: '$text',
  fontSize: '$3',
  '&::placeholder': { color: '$textMuted' },
  '&:focus-visible': { borderColor: '$accent', boxShadow: '$focus' },
});
const Words = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexWrap: 'wrap',
  gap: '$2',
  alignItems: 'center',
});
const Caption = /* @__PURE__ */ styled('span', { fontSize: '$2', color: '$textMuted' });

/** Props of {@link SearchField}. */
export interface SearchFieldProps {
  value: string;
  onValueChange: (value: string) => void;
  /** Words people searched for lately; pressing one searches it. */
  hotWords?: string[];
  labels?: { search: string; placeholder: string; hotWords: string };
}

/** The search box, with recent hot words to pick from. */
export function SearchField({
  value,
  onValueChange,
  hotWords = [],
  labels = {
    search: 'Search mates',
    placeholder: 'Name, tag or story…',
    hotWords: 'Popular searches',
  },
}: SearchFieldProps) {
  const captionId = useId();
  return (
    <Frame role="search" aria-label={labels.search}>
      <Input
        type="search"
        aria-label={labels.search}
        placeholder={labels.placeholder}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      />
      {hotWords.length > 0 && (
        <Words role="group" aria-labelledby={captionId}>
          <Caption id={captionId}>{labels.hotWords}</Caption>
          {hotWords.map((word) => (
            <Chip key={word} selected={word === value} onSelectedChange={() => onValueChange(word)}>
              {word}
            </Chip>
          ))}
        </Words>
      )}
    </Frame>
  );
}
