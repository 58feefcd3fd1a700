import { useCallback, useEffect, useRef, useState } from 'react';
import {
  useInfiniteQuery,
  useMutation,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useActorRef, useSelector } from '@xstate/react';
import { useSelector as useStoreSelector } from '@xstate/store-react';
import { chatStreamMachine } from '@mates/state-machines';
import type { ActorRefFrom } from 'xstate';
import type { Message, RoomInfo } from '@mates/api-client';
import {
  Avatar,
  Button,
  ChatBubble,
  ChatComposer,
  Container,
  Docked,
  EmptyState,
  FillHeight,
  FillRest,
  Flex,
  Heading,
  Link,
  MoreMenu,
  NarrowOnly,
  SideView,
  Stack,
  Switch,
  Text,
  WideOnly,
} from '@mates/ui';
import { useServices } from '../../lib/services-context';
import { href, routeTo } from '../../lib/paths';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Loading, LoadError, WayOn } from '../../components/states';
import { MessageActions, MessageEditor, PersonaSwitch, SwipeControls } from './message-parts';
import { PictureMessage, PictureSheet, useImageModels } from './picture-parts';
import {
  useVoiceCatalog,
  useVoicePlayer,
  VoiceProvider,
} from '../../components/voice/voice-player';
import { MessageVoiceButton } from '../../components/voice/voice-parts';
import { DictationStatus, MicButton, useDictation } from '../../components/voice/dictation';
import { useStickToBottom } from './stick-to-bottom';
import { ChatList } from './chat-list';
import { useSignedIn } from '../../components/sign-in-gate';

/**
 * The room's messages: the newest page first, each further page the one before it. Kept in that
 * order because a refresh reads pages from the first, each from the one before: it then reads
 * the newest messages and as many earlier pages as were loaded (oldest first, it lost the rest).
 */
function useRoom(roomId: string) {
  const { client } = useServices();
  return useInfiniteQuery<RoomInfo, Error, InfiniteData<RoomInfo>, string[], string | null>({
    queryKey: ['room', roomId],
    queryFn: ({ pageParam, signal }) =>
      client.room.roomInfo(
        { roomId, pageSize: 50, ...(pageParam ? { before: pageParam } : {}) },
        { signal },
      ),
    initialPageParam: null,
    getNextPageParam: (older) =>
      older.hasMoreBefore ? (older.messages[0]?.messageId ?? undefined) : undefined,
    enabled: roomId !== '',
  });
}

/** `/chat-detail?roomId=…`: the conversation, the reply streaming in as it is written. */
function ChatScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const roomId = params.get('roomId') ?? '';
  const signedIn = useSignedIn();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // One conversation per room: opening another room (a new chat) starts afresh. The person's
  // chats are beside it on wide screens, in a drawer on phones.
  const conversation = (
    <Conversation
      key={roomId}
      roomId={roomId}
      signedIn={signedIn}
      onOpenChats={() => setDrawerOpen(true)}
    />
  );
  return (
    <Container>
      {signedIn ? (
        <SideView
          side={<ChatList roomId={roomId} onChoose={() => setDrawerOpen(false)} />}
          sideLabel={t('recent.side')}
          drawerOpen={drawerOpen}
          onDrawerOpenChange={setDrawerOpen}
          closeLabel={t('auth.close')}
        >
          {conversation}
        </SideView>
      ) : (
        conversation
      )}
    </Container>
  );
}

function Conversation({
  roomId,
  onOpenChats,
  signedIn,
}: {
  roomId: string;
  onOpenChats: () => void;
  /** Whether the person's chats are there to open (in a drawer on a phone). */
  signedIn: boolean;
}) {
  const { t, i18n } = useTranslation();
  const { client, store, platform } = useServices();
  const queries = useQueryClient();
  const room = useRoom(roomId);
  const chat = useActorRef(chatStreamMachine, { input: { client, roomId, platform } });
  const busy = useSelector(chat, (state) => state.hasTag('busy'));
  // Refused for now (the model still loading): sent again by itself, unless cancelled.
  const waiting = useSelector(chat, (state) => state.hasTag('waiting'));
  // Refused because the server has no language model: the chat says how one is set up.
  const noModel = useSelector(
    chat,
    (state) => state.matches('failed') && state.context.failureReason === 'model-missing',
  );
  const reply = useSelector(chat, (state) => state.context);
  const finished = useSelector(
    chat,
    (state) => state.matches('done') || state.matches('failed') || state.matches('aborted'),
  );
  const [editing, setEditing] = useState<string | null>(null);
  // The message whose editor just closed: focus goes back to its Edit button.
  const [editClosed, setEditClosed] = useState<string | null>(null);
  const editRefocused = useCallback(() => setEditClosed(null), []);
  const [doomed, setDoomed] = useState<Message | null>(null);
  const [picturing, setPicturing] = useState(false);
  const imageModels = useImageModels();
  const voiceCatalog = useVoiceCatalog();
  const { actor: voice } = useVoicePlayer();
  const speakReplies = useStoreSelector(store, (state) => state.context.speakReplies);
  const ownAvatar = useStoreSelector(store, (state) => state.context.userInfo.avatar);
  /** A message changed (edited, regenerated): its kept audio is no longer what it says. */
  const forgetVoice = (messageId: string | undefined) => {
    if (!messageId) return;
    if (voice.getSnapshot().context.messageId === messageId) voice.send({ type: 'STOP' });
    voice.send({ type: 'FORGET', messageId });
  };
  const refresh = () => queries.invalidateQueries({ queryKey: ['room', roomId] });
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const newChat = useMutation({
    mutationFn: (mateId: string) => client.room.createRoom({ mateId }),
    onSuccess: (created) => navigate(routeTo('/chat-detail', { roomId: created.roomId })),
  });
  const deleteChat = useMutation({
    mutationFn: () => client.room.deleteRoom({ roomId }),
    onSuccess: () => {
      setLeaving(false);
      void queries.invalidateQueries({ queryKey: ['roomList'] });
      navigate(routeTo('/recent-chats'));
    },
  });
  const remove = useMutation({
    mutationFn: (messageId: string) => client.room.deleteMessage({ roomId, messageId }),
    onSuccess: () => {
      setDoomed(null);
      setAwaitingSave(null);
    },
    onSettled: refresh,
  });

  // Stopped: the server saves what had arrived once it sees the stop, which may be after the
  // room was read again. Until the saved reply holds at least what was shown, the shown text
  // stays on screen, and the room is read again, up to ten times 300 ms apart; anything the
  // person does to the room meanwhile (an edit, a delete, a send) ends the wait.
  const aborted = useSelector(chat, (state) => state.matches('aborted'));
  const [awaitingSave, setAwaitingSave] = useState<string | null>(null);
  useEffect(() => {
    if (aborted && reply.replyText && reply.replyMessageId) setAwaitingSave(reply.replyMessageId);
  }, [aborted, reply.replyText, reply.replyMessageId]);
  const savedReply = room.data?.pages
    .flatMap((page) => page.messages)
    .find((message) => message.messageId === awaitingSave);
  const catchingUp =
    aborted &&
    awaitingSave !== null &&
    awaitingSave === reply.replyMessageId &&
    (savedReply?.content.length ?? 0) < reply.replyText.length;
  const catchUpReads = useRef(0);
  useEffect(() => {
    if (!catchingUp) {
      catchUpReads.current = 0;
      return;
    }
    if (catchUpReads.current >= 10) return setAwaitingSave(null);
    const timer = setTimeout(() => {
      catchUpReads.current += 1;
      void queries.invalidateQueries({ queryKey: ['room', roomId] });
    }, 300);
    return () => clearTimeout(timer);
  }, [catchingUp, room.dataUpdatedAt, queries, roomId]);

  // Once a reply ends, the saved messages are the truth again (here and in the chat list's
  // previews); benefits follow reply-end.
  useEffect(() => {
    if (!finished) return;
    if (reply.benefits) store.trigger.benefitsChanged({ benefits: reply.benefits });
    void queries.invalidateQueries({ queryKey: ['room', roomId] });
    void queries.invalidateQueries({ queryKey: ['roomList'] });
  }, [finished, reply.benefits, queries, roomId, store]);

  // "Speak replies aloud": a reply that ended whole is played once, as soon as it is complete.
  const spokenReply = useRef<string | null>(null);
  const replyId = reply.ended ? reply.replyMessageId : null;
  const speaks = speakReplies && voiceCatalog !== null;
  useEffect(() => {
    if (!speaks || !replyId || spokenReply.current === replyId) return;
    spokenReply.current = replyId;
    voice.send({ type: 'PLAY', messageId: replyId });
  }, [speaks, replyId, voice]);

  const log = useRef<HTMLDivElement>(null);
  const { unseen, jumpToBottom, keepPlace } = useStickToBottom(log, room.isSuccess);
  const earlier = useRef<HTMLButtonElement>(null);
  const {
    hasNextPage: hasEarlier,
    isFetchingNextPage: fetchingEarlier,
    fetchNextPage: fetchEarlier,
  } = room;
  const loadEarlier = () => {
    keepPlace();
    void fetchEarlier();
  };
  // Older messages load as the reader scrolls up to them (the button stays for keyboards).
  useEffect(() => {
    const button = earlier.current;
    if (!button || !hasEarlier || fetchingEarlier) return;
    const seen = new IntersectionObserver(([entry]) => {
      if (!entry?.isIntersecting) return;
      seen.disconnect();
      keepPlace();
      void fetchEarlier();
    });
    seen.observe(button);
    return () => seen.disconnect();
  }, [hasEarlier, fetchingEarlier, fetchEarlier, keepPlace, room.isSuccess]);

  if (!roomId)
    return (
      <EmptyState
        title={t('chat.missing')}
        description={t('chat.missingText')}
        action={<WayOn to={['/recent-chats', '/']} />}
      />
    );
  if (room.isPending) return <Loading />;
  if (room.isError)
    return <LoadError query={room} title={t('chat.error')} wayOn={['/recent-chats', '/']} />;

  const latest = room.data.pages[0]!;
  const { mate, persona, readOnly } = latest;
  const messages = room.data.pages.toReversed().flatMap((page) => page.messages);
  // While a reply is regenerated, what it replaces is hidden: the last reply, or everything
  // after the edited message the conversation continues from.
  const request = busy ? reply.request : null;
  const regenerating = request && 'regenerate' in request && request.regenerate;
  const from =
    regenerating && request.fromMessageId
      ? messages.findIndex((message) => message.messageId === request.fromMessageId)
      : -1;
  // A reply stopped before its first word was the person's choice, not a failure: the server
  // takes it back, and until a read shows that, its empty message is not drawn (its id may not
  // have arrived before Stop).
  const stoppedEarly = aborted && !reply.replyText;
  const kept = stoppedEarly
    ? messages.filter(
        (message) =>
          message.role !== 'mate' || message.status !== 'partial' || message.content !== '',
      )
    : messages;
  const shown = regenerating ? kept.slice(0, from >= 0 ? from + 1 : -1) : kept;
  const lastMate = [...messages].reverse().find((message) => message.role === 'mate');
  // The reply whose versions can be chosen: the last text from the mate (pictures aside).
  const lastReply = [...messages]
    .reverse()
    .find((message) => message.role === 'mate' && !message.image);
  const lastText = [...messages].reverse().find((message) => !message.image && message.content);
  const you = t('common.you');
  // Each speaker's portrait beside their messages; the time each was written, on hover/focus.
  const mateFace = { src: mate.avatar, name: mate.name };
  const ownFace = { src: persona?.avatar ?? ownAvatar ?? null, name: persona?.name ?? you };
  const clock = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const timeOf = (iso: string) => {
    const date = new Date(iso);
    // A message without a readable time shows none rather than breaking the conversation.
    return Number.isNaN(date.getTime()) ? undefined : { iso, label: clock.format(date) };
  };
  const bubbleLabels = {
    partial: t('chat.partial'),
    error: t('chat.failed'),
    edited: t('chat.edited'),
    speaker: (name: string) => t('chat.says', { name }),
  };
  // The user's own messages are named "You say", not "You says".
  const ownLabels = { ...bubbleLabels, speaker: () => t('chat.youSay') };
  const speakSwitch = voiceCatalog ? (
    <Switch
      label={t('voice.speakReplies')}
      checked={speakReplies}
      onCheckedChange={(on) => {
        // Turning it on speaks the replies to come, not the one already read.
        spokenReply.current = replyId;
        store.trigger.speakRepliesChanged({ speakReplies: on });
      }}
    />
  ) : null;
  // The mate's page, a new chat and delete: in the phone's More menu and the wide header alike.
  const roomActions = (
    <>
      {!readOnly && (
        <Link href={href('/detail', { mateId: mate.mateId })}>
          {t('chat.mate', { name: mate.name })}
        </Link>
      )}
      {!readOnly && (
        <Button
          size="small"
          variant="ghost"
          aria-label={t('chat.newChatWith', { name: mate.name })}
          aria-busy={newChat.isPending}
          onClick={() => newChat.mutate(mate.mateId)}
        >
          {t('chat.newChat')}
        </Button>
      )}
      <Button size="small" variant="ghost" onClick={() => setLeaving(true)}>
        {t('chat.deleteChat')}
      </Button>
    </>
  );
  const pictureButton =
    imageModels.length > 0 && !readOnly ? (
      <Button variant="soft" size="small" onClick={() => setPicturing(true)}>
        {t('picture.open')}
      </Button>
    ) : null;
  return (
    <>
      <FillHeight>
        <Docked edge="top">
          {/* On a phone, one compact row: back, the mate, and a menu for the rest. */}
          <NarrowOnly>
            <Flex gap={2} align="center">
              <Link href={href('/recent-chats')} aria-label={t('chat.back')}>
                ←
              </Link>
              <Link
                href={href('/chat-profile', { roomId })}
                aria-label={t('chat.profile', { name: mate.name })}
                style={{ borderRadius: '50%', textDecoration: 'none' }}
              >
                <Avatar src={mate.avatar} name={mate.name} size="small" decorative />
              </Link>
              <div style={{ flex: 1, minWidth: 0 }}>
                <Heading as="h1" size={2}>
                  {mate.name}
                </Heading>
              </div>
              <MoreMenu label={t('chat.more')}>
                {signedIn && (
                  <Button size="small" variant="soft" onClick={onOpenChats}>
                    {t('recent.open')}
                  </Button>
                )}
                {roomActions}
                {!readOnly && speakSwitch}
                {pictureButton}
                <Text tone="muted" size={2}>
                  {persona ? t('chat.persona', { name: persona.name }) : t('chat.noPersona')}
                </Text>
                {!readOnly && <PersonaSwitch roomId={roomId} personaId={persona?.uuid ?? null} />}
              </MoreMenu>
            </Flex>
          </NarrowOnly>
          <WideOnly>
            <Stack gap={2}>
              <Flex justify="between" align="center" gap={2} wrap>
                <Link href={href('/recent-chats')}>← {t('chat.back')}</Link>
                <Flex gap={2} align="center" wrap>
                  {roomActions}
                </Flex>
              </Flex>
              <Flex gap={3} align="center">
                {/* The mate's portrait leads to the chat's profile: its card and its pictures. */}
                <Link
                  href={href('/chat-profile', { roomId })}
                  aria-label={t('chat.profile', { name: mate.name })}
                  style={{ borderRadius: '50%', textDecoration: 'none' }}
                >
                  <Avatar src={mate.avatar} name={mate.name} decorative />
                </Link>
                <Stack gap={1}>
                  <Heading as="h1" size={2}>
                    {mate.name}
                  </Heading>
                  <Text tone="muted" size={2}>
                    {persona ? t('chat.persona', { name: persona.name }) : t('chat.noPersona')}
                  </Text>
                </Stack>
                {!readOnly && <PersonaSwitch roomId={roomId} personaId={persona?.uuid ?? null} />}
              </Flex>
            </Stack>
          </WideOnly>
        </Docked>
        {hasEarlier && (
          <Flex justify="center">
            <Button
              ref={earlier}
              variant="ghost"
              size="small"
              aria-busy={fetchingEarlier}
              onClick={loadEarlier}
            >
              {t('chat.earlier')}
            </Button>
          </Flex>
        )}
        <FillRest>
          <div ref={log} role="log" aria-label={t('chat.conversation')} aria-live="polite">
            <Stack gap={3}>
              {shown.map((message) =>
                message.image ? (
                  <PictureMessage
                    key={message.messageId}
                    message={message}
                    image={message.image}
                    mateName={mate.name}
                    canAct={!readOnly && !busy}
                    onDelete={() => setDoomed(message)}
                  />
                ) : editing === message.messageId ? (
                  <MessageEditor
                    key={message.messageId}
                    roomId={roomId}
                    message={message}
                    onDone={() => {
                      setEditing(null);
                      setEditClosed(message.messageId);
                    }}
                    onSaved={() => {
                      forgetVoice(message.messageId);
                      setAwaitingSave(null);
                    }}
                    onContinue={() => {
                      // The reply is what comes next: focus is not sent back to Edit after it.
                      setEditClosed(null);
                      chat.send({ type: 'REGENERATE', fromMessageId: message.messageId });
                    }}
                  />
                ) : (
                  <ChatBubble
                    key={message.messageId}
                    role={message.role}
                    speaker={message.role === 'mate' ? mate.name : you}
                    content={
                      catchingUp && message.messageId === reply.replyMessageId
                        ? reply.replyText
                        : message.content
                    }
                    status={message.status}
                    edited={message.editedAt !== null}
                    labels={message.role === 'user' ? ownLabels : bubbleLabels}
                    avatar={message.role === 'mate' ? mateFace : ownFace}
                    time={timeOf(message.createdAt)}
                    actions={
                      busy ? undefined : (
                        <Flex gap={1} align="center">
                          {!readOnly && message.messageId === lastReply?.messageId && (
                            <SwipeControls
                              roomId={roomId}
                              message={message}
                              onChosen={() => forgetVoice(message.messageId)}
                            />
                          )}
                          {voiceCatalog && message.role === 'mate' && message.content.trim() && (
                            <MessageVoiceButton
                              messageId={message.messageId}
                              catalog={voiceCatalog}
                            />
                          )}
                          <MessageActions
                            canRegenerate={!readOnly && message.messageId === lastMate?.messageId}
                            onRegenerate={() => {
                              forgetVoice(lastMate?.messageId);
                              chat.send({ type: 'REGENERATE' });
                            }}
                            onEdit={() => setEditing(message.messageId)}
                            onDelete={() => setDoomed(message)}
                            focusEdit={editClosed === message.messageId}
                            onEditFocused={editRefocused}
                          />
                        </Flex>
                      )
                    }
                  />
                ),
              )}
              {busy &&
                reply.request &&
                'content' in reply.request &&
                reply.request.content &&
                !messages.some((m) => m.messageId === reply.userMessage?.messageId) && (
                  <ChatBubble
                    role="user"
                    speaker={you}
                    content={reply.request.content}
                    labels={ownLabels}
                    avatar={ownFace}
                  />
                )}
              {((busy && !waiting) ||
                (!finished && reply.replyText) ||
                (catchingUp && !savedReply)) && (
                <ChatBubble
                  role="mate"
                  speaker={mate.name}
                  content={reply.replyText || '…'}
                  labels={bubbleLabels}
                  avatar={mateFace}
                  streaming={!catchingUp}
                />
              )}
            </Stack>
          </div>
        </FillRest>
        <Docked edge="bottom">
          {waiting && reply.waiting && (
            <Flex role="status" justify="between" align="center" gap={2} wrap>
              <Text tone="muted">
                {reply.waiting.message} {t('chat.waitingToSend')}
              </Text>
              <Button size="small" variant="soft" onClick={() => chat.send({ type: 'ABORT' })}>
                {t('chat.cancelSending')}
              </Button>
            </Flex>
          )}
          {noModel && (
            <Text role="status" tone="muted">
              {t('chat.noModel', { name: mate.name })}
            </Text>
          )}
          {unseen && (
            <Flex justify="center">
              <Button size="small" onClick={jumpToBottom}>
                {t('chat.newMessages')}
              </Button>
            </Flex>
          )}
          {readOnly ? (
            // The server's own sentence, in the caller's language: why this chat cannot go on.
            <Text role="status" tone="muted">
              {readOnly}
            </Text>
          ) : (
            <Stack gap={2}>
              {(imageModels.length > 0 || voiceCatalog) && (
                // On a phone these are in the header's menu: the conversation keeps the room.
                <WideOnly>
                  <Flex justify="between" align="center" gap={3} wrap>
                    {speakSwitch ?? <span />}
                    {pictureButton}
                  </Flex>
                </WideOnly>
              )}
              <Composer
                chat={chat}
                roomId={roomId}
                busy={busy}
                voiceCatalog={voiceCatalog}
                onSend={jumpToBottom}
              />
            </Stack>
          )}
        </Docked>
      </FillHeight>
      {imageModels.length > 0 && !readOnly && (
        <PictureSheet
          open={picturing}
          onClose={() => setPicturing(false)}
          roomId={roomId}
          mate={mate}
          lastMessage={lastText}
          models={imageModels}
        />
      )}
      <ConfirmDialog
        open={leaving}
        title={t('chat.deleteChatTitle')}
        text={t('chat.deleteChatText', { name: mate.name })}
        confirm={t('common.delete')}
        busy={deleteChat.isPending}
        onConfirm={() => deleteChat.mutate()}
        onCancel={() => setLeaving(false)}
      />
      <ConfirmDialog
        open={doomed !== null}
        title={doomed?.image ? t('picture.confirmDelete') : t('chat.confirmDelete')}
        text={doomed?.image ? t('picture.confirmDeleteText') : t('chat.confirmDeleteText')}
        confirm={t('common.delete')}
        busy={remove.isPending}
        onConfirm={() => doomed && remove.mutate(doomed.messageId)}
        onCancel={() => setDoomed(null)}
      />
    </>
  );
}

/**
 * The message box under the conversation, with its own state: what is typed re-renders only
 * the box, not every message of a long conversation.
 */
function Composer({
  chat,
  roomId,
  busy,
  voiceCatalog,
  onSend,
}: {
  chat: ActorRefFrom<typeof chatStreamMachine>;
  roomId: string;
  busy: boolean;
  voiceCatalog: ReturnType<typeof useVoiceCatalog>;
  /** After a message is sent: whoever sends wants to see their message and the reply. */
  onSend: () => void;
}) {
  const { t } = useTranslation();
  const { client } = useServices();
  const [draft, setDraft] = useState('');
  const dictation = useDictation({ catalog: voiceCatalog, text: draft, onText: setDraft });
  const inspiration = useMutation({
    mutationFn: () => client.girl.chatGetInspiration({ roomId }),
  });
  // A message the server refused before keeping it (no chats left, the model loading) goes back
  // into the composer, unless something new was typed since: nothing a person wrote is lost.
  useEffect(() => {
    let restored: unknown = null;
    const watch = chat.subscribe((state) => {
      const { request, userMessage } = state.context;
      if (!state.matches('failed') || userMessage || !request || restored === request) return;
      if (!('content' in request) || !request.content) return;
      restored = request;
      const content = request.content;
      setDraft((current) => current || content);
    });
    return () => watch.unsubscribe();
  }, [chat]);

  const send = (content: string) => {
    inspiration.reset();
    chat.send({ type: 'SEND', content });
    onSend();
  };
  return (
    <>
      <ChatComposer
        value={draft}
        onValueChange={setDraft}
        tools={<MicButton dictation={dictation} />}
        streaming={busy}
        onSend={send}
        autoFocus
        onStop={() => chat.send({ type: 'ABORT' })}
        onInspire={() => inspiration.mutate()}
        suggestions={inspiration.data?.suggestions ?? []}
        labels={{
          message: t('chat.message'),
          placeholder: t('chat.placeholder'),
          send: t('chat.send'),
          stop: t('chat.stop'),
          inspire: t('chat.inspire'),
          suggestions: t('chat.suggestions'),
          waiting: t('chat.composerWaiting'),
        }}
      />
      <DictationStatus dictation={dictation} />
    </>
  );
}

/**
 * The screen with its own voice player: the player (and XState's runtime) loads with the
 * screens that speak, never with the first screen; leaving the screen silences it.
 */
export function ChatPage() {
  return (
    <VoiceProvider>
      <ChatScreen />
    </VoiceProvider>
  );
}
