import { memo, type ReactNode } from 'react';
import type { MessageStatus } from '@mates/api-client';
import Markdown, { type Components } from 'react-markdown';
import remarkBreaks from 'remark-breaks';
import { remarkChatMarkdown } from './markdown-extensions';
import { keyframes, styled } from '../theme/stitches.config';
import { Avatar } from '../catalog/avatar';

/** Pictures a message may load: files under this server's `/media`, no `..` to leave it. */
const OWN_MEDIA = /^\/media\/(?!.*\.\.)[\w./-]+$/;

const blink = /* @__PURE__ */ keyframes({ '0%, 100%': { opacity: 1 }, '50%': { opacity: 0 } });

const Row = /* @__PURE__ */ styled('div', {
  display: 'flex',
  flexDirection: 'column',
  gap: '$1',
  maxWidth: 'min(85%, 640px)',
  // A long line of code must not widen the message past the chat: its block scrolls instead.
  minWidth: 0,
  variants: {
    side: {
      user: { alignSelf: 'flex-end', alignItems: 'flex-end' },
      mate: { alignSelf: 'flex-start', alignItems: 'flex-start' },
    },
  },
});
// With a portrait: the portrait beside the message, on the speaker's side.
const Line = /* @__PURE__ */ styled('div', {
  display: 'flex',
  gap: '$2',
  alignItems: 'flex-start',
  maxWidth: 'min(92%, 700px)',
  variants: {
    side: {
      user: { alignSelf: 'flex-end', flexDirection: 'row-reverse' },
      mate: { alignSelf: 'flex-start' },
    },
  },
});
// When it was written: read by screen readers, shown on hover and on keyboard focus.
const Time = /* @__PURE__ */ styled('time', {
  fontSize: '$1',
  color: '$textMuted',
  opacity: 0,
  transition: 'opacity 120ms',
  '@reducedMotion': { transition: 'none' },
});
/** A blinking block where the next words will come. */
const caret = {
  display: 'inline-block',
  width: '0.5em',
  height: '1em',
  marginLeft: '2px',
  verticalAlign: 'text-bottom',
  backgroundColor: 'currentColor',
  animation: `${blink} 1s step-end infinite`,
  '@reducedMotion': { animation: 'none' },
};
const Bubble = /* @__PURE__ */ styled('div', {
  padding: '$2 $3',
  borderRadius: '$3',
  fontSize: '$3',
  lineHeight: '$body',
  overflowWrap: 'anywhere',
  maxWidth: '100%',
  '& p': { margin: 0 },
  '& p + p': { marginTop: '$2' },
  '& em': { color: '$textMuted' },
  '& a': { color: '$accent' },
  '& pre, & code': { fontFamily: 'ui-monospace, monospace', fontSize: '$2' },
  '& pre': { overflowX: 'auto' },
  // A wide table scrolls inside the message, as code does, rather than widening the chat.
  '& table': { display: 'block', overflowX: 'auto', maxWidth: '100%', borderCollapse: 'collapse' },
  '& th, & td': { padding: '$1 $2', border: '1px solid $border' },
  // Headings start where their column's words do, unless the table aligns the column itself.
  '& th:not([align])': { textAlign: 'start' },
  '& :is(p, ul, ol, pre) + table, & table + *': { marginTop: '$2' },
  variants: {
    side: {
      user: {
        backgroundColor: '$accent',
        color: '$onAccent',
        borderBottomRightRadius: '$1',
        '& em': { color: 'inherit', opacity: 0.85 },
      },
      mate: { backgroundColor: '$surfaceRaised', color: '$text', borderBottomLeftRadius: '$1' },
    },
    status: { complete: {}, partial: {}, error: { border: '1px dashed $danger' } },
    highlighted: { true: { boxShadow: '0 0 0 3px $colors$focus' } },
    // The caret follows the last words on their own line (after a list, its last item's), so
    // the message does not grow a line while the reply arrives and shrink when it ends.
    streaming: {
      true: {
        '& > :last-child:not(ul, ol, table)::after, & > :is(ul, ol):last-child > li:last-child::after':
          {
            content: '""',
            ...caret,
          },
      },
    },
  },
});
/** The caret of a reply before its first word. */
const Caret = /* @__PURE__ */ styled('span', caret);
const Note = /* @__PURE__ */ styled('p', {
  margin: 0,
  fontSize: '$1',
  color: '$textMuted',
  variants: { tone: { danger: { color: '$danger' }, muted: {} } },
});
const Actions = /* @__PURE__ */ styled('div', { display: 'flex', gap: '$1' });

/** Words the bubble shows, in the app's language. */
export interface ChatBubbleLabels {
  partial: string;
  error: string;
  edited: string;
  speaker: (name: string) => string;
}

const ENGLISH: ChatBubbleLabels = {
  partial: 'This reply was cut off.',
  error: 'This reply failed.',
  edited: 'edited',
  speaker: (name) => `${name} says`,
};

const REMARK_PLUGINS = [remarkChatMarkdown, remarkBreaks];

/** Props of {@link ChatBubble}. */
export interface ChatBubbleProps {
  role: 'user' | 'mate';
  /** Who speaks, for screen readers (the mate's name, or "You"). */
  speaker: string;
  /** Markdown; raw HTML in it is shown as text, never run. */
  content: string;
  /** How the message ended, as the server stores it: `partial` and `error` add a note. */
  status?: MessageStatus;
  /**
   * The reply is still arriving: a blinking caret, and the message is `aria-busy` until it is
   * whole, so that a live region around it (a chat's log) reads it out once, not word by word.
   */
  streaming?: boolean;
  edited?: boolean;
  /** Buttons under the bubble: edit, delete, regenerate, play voice. */
  actions?: ReactNode;
  labels?: ChatBubbleLabels;
  /** The speaker's portrait beside the message (decorative: the message is named already). */
  avatar?: { src: string | null; name: string };
  /** When it was written: `iso` for the machine, `label` as people read it ("10:42"). */
  time?: { iso: string; label: string };
  /**
   * The message's element id: a page can scroll to it and focus it (it is focusable by script
   * only, never a Tab stop).
   */
  id?: string;
  /** Marks the message with a ring: the one a link led to (a memory's source, say). */
  highlighted?: boolean;
  /** Shown over the bubble: in a group chat, who wrote it (a `SpeakerLabel`). */
  label?: ReactNode;
}

/** Links open elsewhere; pictures load only from this server (see {@link OWN_MEDIA}). */
const MARKDOWN_PARTS: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {children}
    </a>
  ),
  // Loading a picture from elsewhere tells its host who opened the chat and when (a tracking
  // pixel): only this server's media is shown, anything else is a link.
  img: ({ src, alt }) =>
    typeof src === 'string' && OWN_MEDIA.test(src) ? (
      <img src={src} alt={alt ?? ''} />
    ) : (
      <a href={typeof src === 'string' ? src : undefined} target="_blank" rel="noreferrer noopener">
        {alt || src}
      </a>
    ),
};

/**
 * A message's words, rendered from Markdown. Kept apart so that a long conversation re-renders
 * (each streamed word re-renders the screen) without parsing every message's Markdown again.
 */
const MessageText = memo(function MessageText({ content }: { content: string }) {
  return (
    // A line break in a message is a line break (roleplay writes lines, not paragraphs).
    <Markdown skipHtml={false} remarkPlugins={REMARK_PLUGINS} components={MARKDOWN_PARTS}>
      {content}
    </Markdown>
  );
});

/** One message of a chat. */
export function ChatBubble({
  role,
  speaker,
  content,
  status = 'complete',
  streaming = false,
  edited = false,
  actions,
  labels = ENGLISH,
  avatar,
  time,
  id,
  highlighted = false,
  label,
}: ChatBubbleProps) {
  // The article is what a link to the message scrolls to and focuses.
  const article = {
    role: 'article',
    'aria-label': labels.speaker(speaker),
    ...(id ? { id, tabIndex: -1 } : {}),
    ...(streaming ? { 'aria-busy': true } : {}),
  };
  const message = (
    <Row
      side={role}
      {...(avatar ? {} : article)}
      css={{
        [`&:hover ${Time}, &:focus-within ${Time}`]: { opacity: 1 },
        // Focused only when a link led to it: the ring on its bubble marks it instead.
        '&:focus-visible': { boxShadow: 'none' },
      }}
    >
      {label}
      <Bubble side={role} status={status} highlighted={highlighted} streaming={streaming}>
        <MessageText content={content} />
        {streaming && !content.trim() && <Caret aria-hidden="true" />}
      </Bubble>
      {status === 'partial' && !streaming && <Note>{labels.partial}</Note>}
      {status === 'error' && <Note tone="danger">{labels.error}</Note>}
      {edited && <Note>{labels.edited}</Note>}
      {time && <Time dateTime={time.iso}>{time.label}</Time>}
      {actions && <Actions>{actions}</Actions>}
    </Row>
  );
  if (!avatar) return message;
  // Each message is an article named by its speaker, so a screen reader can move between them.
  return (
    <Line {...article} side={role} css={{ '&:focus-visible': { boxShadow: 'none' } }}>
      <Avatar src={avatar.src} name={avatar.name} size="small" decorative />
      {message}
    </Line>
  );
}
