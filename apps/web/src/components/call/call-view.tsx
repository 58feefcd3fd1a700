import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActorRef, useSelector } from '@xstate/react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import { ApiError, type RoomGroup } from '@mates/api-client';
import {
  callMachine,
  isLoggedIn,
  type CallConnector,
  type CallMachineInput,
  type CallMicrophone,
  type CallPlayer,
} from '@mates/state-machines';
import {
  Button,
  CallCaptions,
  Select,
  CallControls,
  CallStage,
  Dialog,
  Stack,
  Text,
  VisuallyHidden,
  type CallCaptionLine,
  type CallSpeaker,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { roomKeys } from '../../lib/query-keys';
import { useRefreshBenefits } from '../../hooks/use-refresh-benefits';
import { browserMicrophone, elementCallPlayer, socketConnector } from './browser-call-effects';

/**
 * A call's effects, for stories and tests: each one given replaces the browser's (the
 * microphone with voice activity detection, the `<audio>` player, the socket on `/api`).
 */
export interface CallEffects {
  start?: CallMachineInput['start'];
  connect?: CallConnector;
  /** The microphone, or one made for the person's chosen end-of-turn pause. */
  microphone?: CallMicrophone | ((options: { pauseMs: number }) => CallMicrophone);
  player?: CallPlayer;
}

/**
 * How long a pause ends the person's turn, by the name they choose it by: short for quick
 * talkers, long for those who stop to think mid-sentence. Kept on the device.
 */
export const CALL_PAUSES = { short: 500, normal: 700, long: 1500 } as const;
/** A name of {@link CALL_PAUSES}. */
export type CallPause = keyof typeof CALL_PAUSES;
const PAUSE_KEY = 'mates.callPause';

/** The pause this device chose, `normal` if none (or if what is stored is not one). */
function storedPause(storage: { getItem: (key: string) => string | null }): CallPause {
  const value = storage.getItem(PAUSE_KEY);
  return value !== null && value in CALL_PAUSES ? (value as CallPause) : 'normal';
}

/** Who is on the other end of the call. */
export interface CallPeer {
  /** The mate's (or the group's) name. */
  name: string;
  /** Its portrait. */
  avatar: string | null;
  /** In a group call: the members, to name and show the one speaking. */
  group?: RoomGroup;
}

/** Props of {@link CallDialog}. */
export interface CallDialogProps {
  roomId: string;
  peer: CallPeer;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  effects?: CallEffects;
  /** Start the call at once, without the price first (stories of a call in progress). */
  autoStart?: boolean;
}

/**
 * The call screen, in a dialog: first what a call costs and "Start call"; then the call
 * itself (the mate's portrait, who speaks, live captions, Mute and Hang up), its state said
 * politely to screen readers; closing the dialog hangs up.
 */
export function CallDialog({
  roomId,
  peer,
  open,
  onOpenChange,
  effects,
  autoStart,
}: CallDialogProps) {
  const { t } = useTranslation();
  const { store, storage } = useServices();
  const [started, setStarted] = useState(autoStart ?? false);
  const [pause, setPause] = useState<CallPause>(() => storedPause(storage));
  const choosePause = (value: string) => {
    const chosen = value as CallPause;
    setPause(chosen);
    storage.setItem(PAUSE_KEY, chosen);
  };
  const chats = useStoreSelector(store, (state) =>
    isLoggedIn(state.context) ? state.context.userBenefits.chats : 0,
  );
  const close = (next: boolean) => {
    if (!next) setStarted(autoStart ?? false);
    onOpenChange(next);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={t('call.title', { name: peer.name })}
      width={720}
      closeLabel={t('call.close')}
    >
      {started ? (
        <CallSession
          roomId={roomId}
          peer={peer}
          effects={effects}
          pauseMs={CALL_PAUSES[pause]}
          onClose={() => close(false)}
        />
      ) : (
        <Stack gap={3}>
          <Text>{t('call.price', { count: chats })}</Text>
          <Text tone="muted" size={2}>
            {t('call.howTo')}
          </Text>
          <Select
            label={t('call.pause')}
            value={pause}
            onValueChange={choosePause}
            options={(Object.keys(CALL_PAUSES) as CallPause[]).map((name) => ({
              value: name,
              label: t(`call.pause_${name}`),
            }))}
          />
          <Button onClick={() => setStarted(true)}>{t('call.start')}</Button>
        </Stack>
      )}
    </Dialog>
  );
}

function CallSession({
  roomId,
  peer,
  effects,
  pauseMs,
  onClose,
}: {
  roomId: string;
  peer: CallPeer;
  effects: CallEffects | undefined;
  /** The silence that ends the person's turn. */
  pauseMs: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { client, store, queries, i18n } = useServices();
  const input = useMemo<CallMachineInput>(
    () => ({
      roomId,
      start: effects?.start ?? ((id, signal) => client.call.start({ roomId: id }, { signal })),
      connect: effects?.connect ?? socketConnector(import.meta.env.VITE_API_BASE ?? '/api'),
      microphone:
        typeof effects?.microphone === 'function'
          ? effects.microphone({ pauseMs })
          : (effects?.microphone ?? browserMicrophone({ pauseMs }, i18n.language)),
      player: effects?.player ?? elementCallPlayer(),
    }),
    // One call per session: its effects are chosen once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const actor = useActorRef(callMachine, { input });
  const snapshot = useSelector(actor, (state) => state);
  const signedIn = useStoreSelector(store, (state) => isLoggedIn(state.context));
  const over = snapshot.status === 'done';

  // Signing out (here or in another tab) ends the call.
  useEffect(() => {
    if (!signedIn) actor.send({ type: 'SIGNED_OUT' });
  }, [signedIn, actor]);
  // The transcript is the room's messages: read them again once the call is over, and the
  // chats its replies cost (or gave back) with them.
  const refreshed = useRef(false);
  const refreshBenefits = useRefreshBenefits();
  useEffect(() => {
    if (!over || refreshed.current) return;
    refreshed.current = true;
    void queries.invalidateQueries({ queryKey: roomKeys.messages(roomId) });
    if (signedIn) refreshBenefits();
  }, [over, queries, roomId, signedIn, refreshBenefits]);

  const { context } = snapshot;
  const muted = snapshot.hasTag('muted');
  const turn = snapshot.matches({ call: 'live' })
    ? (snapshot.value as { call: { live: { turn: string | Record<string, string> } } }).call.live
        .turn
    : null;
  const turnName = typeof turn === 'string' ? turn : turn ? Object.keys(turn)[0]! : null;
  const speaker = context.reply?.speakerId
    ? peer.group?.members.find((member) => member.mate.mateId === context.reply?.speakerId)?.mate
    : undefined;
  const mateName = speaker?.name ?? peer.name;
  const speaking: CallSpeaker =
    turnName === 'speaking' ? 'mate' : turnName === 'hearing' ? 'person' : 'none';

  const status = over
    ? snapshot.value === 'failed'
      ? failureText(context.failure, context.error, {
          microphone: t('call.failed.microphone'),
          socket: t('call.failed.socket'),
          start: t('call.failed.start'),
        })
      : t(`call.ended.${context.endReason ?? 'hang-up'}`)
    : turnName === null
      ? t('call.connecting')
      : t(`call.state.${turnName as TurnName}`, { name: mateName });

  const nameOf = (speakerId: string | undefined) =>
    (speakerId && peer.group?.members.find((m) => m.mate.mateId === speakerId)?.mate.name) ||
    peer.name;
  const lines: CallCaptionLine[] = context.captions.map((caption) => ({
    id: `${caption.who}-${caption.messageId}`,
    who: caption.who,
    name: caption.who === 'person' ? t('call.you') : nameOf(caption.speakerId),
    text: caption.text,
    ...(caption.cut ? { cut: true } : {}),
  }));

  return (
    <Stack gap={3} align="center">
      <CallStage
        name={mateName}
        src={speaker?.avatar ?? peer.avatar}
        speaking={speaking}
        status={status}
        muted={muted}
        labels={{ personSpeaking: t('call.personSpeaking'), muted: t('call.muted') }}
      />
      {/* The state, said politely: "Listening", "Lyra is speaking", "Call ended". */}
      <div role="status">
        <VisuallyHidden>{status}</VisuallyHidden>
      </div>
      {context.notice && !over && (
        <Text tone="muted" size={2} role="alert">
          {context.notice.message}
        </Text>
      )}
      <CallCaptions lines={lines} labels={{ region: t('call.captions'), cut: t('call.cut') }} />
      {over ? (
        <Button onClick={onClose}>{t('call.close')}</Button>
      ) : (
        <CallControls
          muted={muted}
          muteDisabled={turnName === null}
          onMutedChange={(value) => actor.send({ type: value ? 'MUTE' : 'UNMUTE' })}
          onHangUp={() => actor.send({ type: 'HANG_UP' })}
          labels={{ mute: t('call.mute'), hangUp: t('call.hangUp') }}
        />
      )}
    </Stack>
  );
}

type TurnName = 'listening' | 'hearing' | 'transcribing' | 'thinking' | 'speaking';

function failureText(
  failure: string | null,
  error: unknown,
  texts: { microphone: string; socket: string; start: string },
): string {
  if (failure === 'microphone') return texts.microphone;
  // A refusal from the server says why, in the person's language (no chats left, …).
  if (failure === 'start' && error instanceof ApiError) return error.message;
  if (failure === 'start') return texts.start;
  return texts.socket;
}
