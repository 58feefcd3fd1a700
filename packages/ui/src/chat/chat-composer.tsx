'use client';

import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { styled } from '../theme/stitches.config';
import { Button } from '../controls/button';
import { Chip } from '../controls/chip';

const Form = /* @__PURE__ */ styled('form', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$2',
  padding: '$3',
  borderTop: '1px solid $border',
  backgroundColor: '$surface',
});
// On a phone the message takes the whole row and the buttons go under it, at the end: beside
// three buttons in a long language ("Idées", "Envoyer") the box was left some 80 px wide.
const Row = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexWrap: 'wrap',
  justifyContent: 'flex-end',
  alignItems: 'flex-end',
  gap: '$2',
  '@bp1': { flexWrap: 'nowrap' },
});
const Area = /* @__PURE__ */ styled('textarea', {
  all: 'unset',
  boxSizing: 'border-box',
  flex: '1 1 100%',
  '@bp1': { flex: '1 1 0' },
  minHeight: '$field',
  maxHeight: '160px',
  padding: '$2 $3',
  borderRadius: '$2',
  border: '1px solid $border',
  backgroundColor: '$bg',
  color: '$text',
  fontSize: '$3',
  lineHeight: '$body',
  overflowY: 'auto',
  fieldSizing: 'content',
  '&:focus-visible': { borderColor: '$accent', boxShadow: '$focus' },
  '&:disabled': { opacity: 0.6 },
});
const Ideas = /* @__PURE__ */ styled('div', { display: 'flex', flexWrap: 'wrap', gap: '$2' });
// Always in the page, so that what it comes to say is read out (a live region added with its
// words already in it is not, by every screen reader); empty, it takes no room and no gap.
const Waiting = /* @__PURE__ */ styled('p', {
  margin: 0,
  fontSize: '$2',
  color: '$textMuted',
  '&:empty': { position: 'absolute' },
});

/** Words the composer shows, in the app's language. */
export interface ChatComposerLabels {
  message: string;
  placeholder: string;
  send: string;
  stop: string;
  inspire: string;
  suggestions: string;
  /** Said when Enter is pressed while a reply is being written (the text stays). */
  waiting?: string;
}

const ENGLISH: ChatComposerLabels = {
  message: 'Message',
  placeholder: 'Write a message…',
  send: 'Send',
  stop: 'Stop',
  inspire: 'Ideas',
  suggestions: 'Suggested replies',
  waiting:
    'A reply is still being written: send your message once it ends, or stop the reply first.',
};

/** Props of {@link ChatComposer}. */
export interface ChatComposerProps {
  /** Sends the text (never empty); the composer clears itself. */
  onSend: (text: string) => void;
  /** A reply is being written: typing stays possible, sending waits, Stop shows. */
  streaming?: boolean;
  onStop?: () => void;
  /** Asks for reply ideas; the button is hidden when absent. */
  onInspire?: () => void;
  /** Ideas to pick from: picking one puts it in the box. */
  suggestions?: string[];
  labels?: ChatComposerLabels;
  /**
   * The text in the box, when the page keeps it (e.g. to add dictated speech); leave both
   * `value` and `onValueChange` out and the composer keeps its own.
   */
  value?: string;
  /** Called with the new text whenever it changes (typing, a picked idea, clearing on send). */
  onValueChange?: (text: string) => void;
  /** More buttons beside the box, before Send (e.g. a microphone). */
  tools?: ReactNode;
  /** Puts the focus in the message box when the composer appears, so typing goes there at once. */
  autoFocus?: boolean;
}

/** Where the user writes: Enter sends, Shift+Enter starts a new line. */
export function ChatComposer({
  onSend,
  streaming = false,
  onStop,
  onInspire,
  suggestions = [],
  labels = ENGLISH,
  value,
  onValueChange,
  tools,
  autoFocus = false,
}: ChatComposerProps) {
  const area = useRef<HTMLTextAreaElement>(null);
  // Once, when the composer appears: a later render must not pull the focus back from elsewhere.
  // After what is already in the box (a message kept from an earlier visit), where typing goes on.
  const focusFirst = useRef(autoFocus);
  useEffect(() => {
    const box = area.current;
    if (!focusFirst.current || !box) return;
    box.focus({ preventScroll: true });
    box.setSelectionRange(box.value.length, box.value.length);
  }, []);
  const [own, setOwn] = useState('');
  const text = value ?? own;
  const setText = (next: string) => {
    if (value === undefined) setOwn(next);
    onValueChange?.(next);
  };
  // Enter pressed while a reply is written: said once, until the reply ends.
  const [held, setHeld] = useState(false);
  if (held && !streaming) setHeld(false);
  const send = () => {
    if (streaming && text.trim() !== '') setHeld(true);
    if (streaming || text.trim() === '') return;
    onSend(text.trim());
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // While an IME composes a word, Enter confirms the word rather than sending.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <Form
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {suggestions.length > 0 && (
        <Ideas role="group" aria-label={labels.suggestions}>
          {suggestions.map((idea) => (
            <Chip key={idea} selected={false} onSelectedChange={() => setText(idea)}>
              {idea}
            </Chip>
          ))}
        </Ideas>
      )}
      <Row>
        <Area
          ref={area}
          aria-label={labels.message}
          placeholder={labels.placeholder}
          value={text}
          rows={1}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {tools}
        {onInspire && !streaming && (
          <Button variant="soft" onClick={onInspire}>
            {labels.inspire}
          </Button>
        )}
        {streaming ? (
          <Button variant="danger" onClick={onStop}>
            {labels.stop}
          </Button>
        ) : (
          <Button type="submit" aria-disabled={text.trim() === ''}>
            {labels.send}
          </Button>
        )}
      </Row>
      <Waiting role="status">{held ? (labels.waiting ?? ENGLISH.waiting) : null}</Waiting>
    </Form>
  );
}
