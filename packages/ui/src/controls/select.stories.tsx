import { useState } from 'react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { Select } from './select';
import { styled } from '../theme/stitches.config';

const Frame = styled('div', { width: '320px' });
const OPTIONS = [
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Español' },
];
const meta = {
  title: 'Controls/Select',
  component: Select,
  tags: ['autodocs'],
  args: { label: 'Language', value: 'en', options: OPTIONS, onValueChange: fn() },
  decorators: [(Story) => <Frame>{Story()}</Frame>],
  parameters: {
    docs: {
      description: {
        component:
          'A labelled choice of one value from a short list (language, gender, model). Opens a list that works with the keyboard; for two or three always-visible choices, prefer chips.',
      },
    },
  },
} satisfies Meta<typeof Select>;
export default meta;
type Story = StoryObj<typeof meta>;

export const EnglishChosen: Story = {
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByRole('combobox', { name: 'Language' }),
    ).toHaveTextContent('English');
  },
};

function LanguageSelect({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState('en');
  return (
    <Select
      label="Language"
      value={value}
      onValueChange={(next) => (setValue(next), onChange(next))}
      options={OPTIONS}
    />
  );
}

/** Opens the list and picks Español. */
export const ChooseSpanish: Story = {
  tags: ['!autodocs'],
  render: (args) => <LanguageSelect onChange={args.onValueChange} />,
  play: async ({ canvasElement, args }) => {
    const trigger = within(canvasElement).getByRole('combobox', { name: 'Language' });
    await userEvent.click(trigger);
    const option = await within(canvasElement.ownerDocument.body).findByRole('option', {
      name: 'Español',
    });
    await userEvent.click(option);
    await expect(args.onValueChange).toHaveBeenCalledWith('es');
    await waitFor(() => expect(trigger).toHaveTextContent('Español'));
  },
};
