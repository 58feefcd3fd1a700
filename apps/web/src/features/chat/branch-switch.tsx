import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Branch } from '@mates/api-client';
import { Flex, IconButton } from '@mates/ui';
import { routeTo } from '../../lib/paths';
import { Icon } from './message-parts';

/** Where the switcher that led to a path stands in it, and which of its buttons was pressed. */
interface BranchArrival {
  branchAt: string;
  pressed: 'previous' | 'next';
}

/**
 * The message of path `to` where the switcher of `paths` stands: where a path of them was
 * branched from it, or else where it was branched itself.
 */
function switcherIn(to: Branch, paths: readonly Branch[]): string {
  const child = paths.find((path) => path.fork?.parentRoomId === to.roomId);
  return child?.fork?.parentMessageId ?? to.fork?.messageId ?? '';
}

/**
 * ‹ 2 / 3 › beside a message where paths of the chat meet (`paths`, ordered, room `roomId`
 * among them): moving opens the other path's chat, whose switcher then takes the focus, so
 * "Branch 3 of 3" is said.
 */
export function BranchSwitch({
  roomId,
  messageId,
  paths,
}: {
  roomId: string;
  messageId: string;
  paths: readonly Branch[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const index = paths.findIndex((path) => path.roomId === roomId);
  const arrival = location.state as BranchArrival | null;
  const arrivedHere = arrival?.branchAt === messageId ? arrival.pressed : null;
  useEffect(() => {
    if (!arrivedHere) return;
    // After this commit's other effects: the message box, drawn with the messages, takes the
    // focus when it first appears. Once: the arrival is then forgotten.
    const timer = setTimeout(() => {
      (arrivedHere === 'next' ? next : previous).current?.focus();
      void navigate({ search: location.search }, { replace: true, state: null });
    });
    return () => clearTimeout(timer);
  }, [arrivedHere, navigate, location.search]);
  const go = (step: -1 | 1) => {
    const to = paths[index + step];
    if (!to) return;
    const state: BranchArrival = {
      branchAt: switcherIn(to, paths),
      pressed: step < 0 ? 'previous' : 'next',
    };
    navigate(routeTo('/chat-detail', { roomId: to.roomId }), { state });
  };
  const canPrevious = index > 0;
  const canNext = index < paths.length - 1;
  return (
    <Flex
      gap={1}
      align="center"
      role="group"
      aria-label={t('branches.position', { number: index + 1, count: paths.length })}
    >
      <IconButton
        ref={previous}
        label={t('branches.previous')}
        icon={<Icon d="M15 18l-6-6 6-6" />}
        size="small"
        // aria-disabled, not disabled: at the first or last path the button keeps the focus.
        aria-disabled={!canPrevious}
        onClick={() => canPrevious && go(-1)}
      />
      <span
        aria-hidden="true"
        style={{ fontSize: '0.8rem', minWidth: '2.5em', textAlign: 'center' }}
      >
        {t('branches.of', { number: index + 1, count: paths.length })}
      </span>
      <IconButton
        ref={next}
        label={t('branches.next')}
        icon={<Icon d="M9 18l6-6-6-6" />}
        size="small"
        aria-disabled={!canNext}
        onClick={() => canNext && go(1)}
      />
    </Flex>
  );
}
