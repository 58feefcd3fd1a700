import { useTranslation } from 'react-i18next';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import type { RoomInfo } from '@mates/api-client';
import { useServices } from '../../lib/services-context';
import { memberOf } from '../../components/group/group-look';

/**
 * How the conversation's bubbles are drawn: each speaker's name and portrait beside their
 * messages (in a group, over each reply: its writer's, even one that left), the labels read out
 * with them, and the time each was written (on hover/focus).
 */
export function useBubbleLook({
  mate,
  persona,
  room,
}: Pick<RoomInfo, 'mate' | 'persona'> & { room?: Pick<RoomInfo['room'], 'group'> }) {
  const { t, i18n } = useTranslation();
  const { store } = useServices();
  const ownAvatar = useStoreSelector(store, (state) => state.context.userInfo.avatar);
  const you = t('common.you');
  const clock = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const timeOf = (iso: string) => {
    const date = new Date(iso);
    // A message without a readable time shows none rather than breaking the conversation.
    return Number.isNaN(date.getTime()) ? undefined : { iso, label: clock.format(date) };
  };
  const mateLabels = {
    partial: t('chat.partial'),
    error: t('chat.failed'),
    edited: t('chat.edited'),
    speaker: (name: string) => t('chat.says', { name }),
  };
  const group = room?.group ?? null;
  /** Who wrote a reply in a group (by its `speakerId`); `null` in a one-to-one chat. */
  const speakerOf = (speakerId: string | null | undefined) => {
    if (!group) return null;
    const member = memberOf(group, speakerId);
    // A reply whose writer the group no longer lists is the first member's (the room's mate).
    const who = member?.mate ?? mate;
    return {
      name: who.name,
      src: who.avatar,
      left: Boolean(member?.leftAt),
      muted: !!member?.muted,
    };
  };
  return {
    you,
    timeOf,
    group,
    speakerOf,
    mate: { name: mate.name, face: { src: mate.avatar, name: mate.name }, labels: mateLabels },
    own: {
      name: you,
      face: { src: persona?.avatar ?? ownAvatar ?? null, name: persona?.name ?? you },
      // The user's own messages are named "You say", not "You says".
      labels: { ...mateLabels, speaker: () => t('chat.youSay') },
    },
  };
}

/** How the conversation's bubbles are drawn, as {@link useBubbleLook} gives it. */
export type BubbleLook = ReturnType<typeof useBubbleLook>;
