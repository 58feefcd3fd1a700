import type { ReactNode } from 'react';
import * as RadixTabs from '@radix-ui/react-tabs';
import { styled } from '../theme/stitches.config';

const List = /* @__PURE__ */ styled(RadixTabs.List, {
  display: 'flex',
  gap: '$1',
  borderBottom: '1px solid $border',
});
const Trigger = /* @__PURE__ */ styled(RadixTabs.Trigger, {
  all: 'unset',
  px: '$3',
  py: '$2',
  color: '$textMuted',
  cursor: 'pointer',
  borderBottom: '2px solid transparent',
  '&[data-state="active"]': { color: '$text', borderBottomColor: '$accent' },
  '&:focus-visible': { boxShadow: '$focus' },
});
const Panel = /* @__PURE__ */ styled(RadixTabs.Content, {
  paddingTop: '$4',
  '&:focus-visible': { outline: 'none', boxShadow: '$focus' },
});

/** One tab. */
export interface TabItem {
  value: string;
  label: string;
  content: ReactNode;
}

/** Props of {@link Tabs}. */
export interface TabsProps {
  /** The tab list's accessible name. */
  label: string;
  tabs: TabItem[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
}

/** Tabs: arrow keys move between them, the panel follows. */
export function Tabs({ label, tabs, value, defaultValue, onValueChange }: TabsProps) {
  return (
    <RadixTabs.Root
      value={value}
      defaultValue={defaultValue ?? tabs[0]?.value}
      onValueChange={onValueChange}
    >
      <List aria-label={label}>
        {tabs.map((tab) => (
          <Trigger key={tab.value} value={tab.value}>
            {tab.label}
          </Trigger>
        ))}
      </List>
      {tabs.map((tab) => (
        <Panel key={tab.value} value={tab.value}>
          {tab.content}
        </Panel>
      ))}
    </RadixTabs.Root>
  );
}
