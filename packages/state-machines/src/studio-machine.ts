import { assertEvent, assign, fromPromise, setup, type ErrorActorEvent } from 'xstate';
import {
  NetworkError,
  type ApiClient,
  type Gender,
  type GenerateRolePayload,
  type LanguageCode,
  type Mate,
  type MateDraft,
  type MateVisibility,
  type RegenerableField,
} from '@mates/api-client';
import { checkMateDraft, emptyMateDraft, isIdeaValid } from './mate-draft-rules';

/** What the creator asks the model for: the idea and its options. */
export interface StudioIdea {
  /** What the mate should be, in a sentence or two (1–1,000 characters). */
  idea: string;
  /** The mate's gender; `null` lets the model choose. */
  gender: Gender | null;
  /** Tag keys the mate should carry. */
  tags: string[];
  /** Whether the mate may be not safe for work. */
  nsfw: boolean;
  /** The language to write in. */
  language: LanguageCode;
}

/** The portrait the creator picked, applied once the mate is saved. */
export type StudioPortrait =
  | {
      /** One of `GET /mate/portraitChoices`. */
      choiceId: string;
      /** Its picture, to show. */
      url: string;
    }
  | {
      /** An uploaded image, base64-encoded (no `data:` prefix). */
      image: string;
      /** Its picture, to show (a `data:` URL). */
      url: string;
    };

/** What the studio needs: the client, and what to start from (an autosave, or a mate to edit). */
export interface StudioInput {
  /** The API client (generateRole, saveMate, setPortrait). */
  client: Pick<ApiClient, 'mate'>;
  /** The idea to start with; default an empty one in `language`. */
  idea?: Partial<StudioIdea>;
  /** A draft to start editing at once (an autosave, or the mate being edited). */
  draft?: MateDraft | null;
  /** The caller's mate being edited; saving updates it. */
  mateId?: string | null;
  /** A portrait picked before. */
  portrait?: StudioPortrait | null;
  /**
   * The mate's voice (an id from `GET /voice/voices`, or `null` for the default); absent leaves
   * it as the server has it until `VOICE.CHANGE` chooses one.
   */
  voice?: string | null;
}

/** Which call failed last, for the screen to say so by the right control. */
export type StudioFailure = 'generate' | 'regenerate' | 'save' | 'portrait';

/** What the studio holds. Nothing the creator typed is dropped by any transition. */
export interface StudioContext {
  /** The API client. */
  client: Pick<ApiClient, 'mate'>;
  /** The idea and its options. */
  idea: StudioIdea;
  /** The draft being edited, or `null` before there is one. */
  draft: MateDraft | null;
  /** The caller's mate this draft is saved as, once it exists. */
  mateId: string | null;
  /** The portrait to apply after saving, or `null` to keep the current one. */
  portrait: StudioPortrait | null;
  /** The voice to save (`null` for the default), or `undefined` to keep the saved one. */
  voice: string | null | undefined;
  /** The field being written again, while one is. */
  busyField: RegenerableField | null;
  /** The visibility of the save under way or last asked for. */
  visibility: MateVisibility | null;
  /** Whether a save was refused by the form rules (the screen then shows every problem). */
  checked: boolean;
  /** The mate as last saved. */
  saved: Mate | null;
  /** The draft as it was sent by the last save that succeeded: what counts as unchanged. */
  savedDraft: MateDraft | null;
  /**
   * What the save under way sent, or the last one: the creator may go on typing or choose
   * another voice while it runs, and what they changed meanwhile is kept for the next save.
   */
  sending: { draft: MateDraft; voice: string | null | undefined } | null;
  /**
   * The last error's message and which call it came from, or `null`; `network` when the call
   * never reached the server (its message is then the client's own, "POST … failed: Failed to
   * fetch", for no one to read: the screen says the connection is gone in its own words).
   */
  error: { failure: StudioFailure; message: string; network?: true } | null;
}

/** Events the studio accepts. */
export type StudioEvent =
  | { type: 'IDEA.CHANGE'; idea: Partial<StudioIdea> }
  | { type: 'GENERATE' }
  | { type: 'CANCEL' }
  | { type: 'START_BLANK' }
  | { type: 'DRAFT.CHANGE'; draft: Partial<MateDraft> }
  | { type: 'REGENERATE'; field: RegenerableField }
  | { type: 'REGENERATE_ALL' }
  | { type: 'PORTRAIT.CHANGE'; portrait: StudioPortrait | null }
  | { type: 'VOICE.CHANGE'; voice: string | null }
  | { type: 'SAVE'; visibility: MateVisibility }
  | { type: 'EDIT' };

/** What the generate actors get. */
interface GenerateInput {
  client: Pick<ApiClient, 'mate'>;
  payload: GenerateRolePayload;
}

/** What the save actor gets. */
interface SaveInput {
  client: Pick<ApiClient, 'mate'>;
  draft: MateDraft;
  mateId: string | null;
  visibility: MateVisibility;
  voice: string | null | undefined;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function ideaPayload(idea: StudioIdea): GenerateRolePayload {
  return {
    idea: idea.idea.trim(),
    ...(idea.gender ? { gender: idea.gender } : {}),
    tags: idea.tags,
    nsfw: idea.nsfw,
    language: idea.language,
  };
}

/**
 * The creation studio (`/generate`): compose an idea → `generating` (cancellable; the request is
 * aborted) → `editing` the draft, where one field at a time can be written again
 * (`editing.regenerating`, the rest stays editable) → `saving` as draft, private or public
 * (`saveMate`, then `setPortrait` when a portrait was picked) → `saved`. `START_BLANK` edits an
 * empty draft without generating; a `draft` in the input starts in `editing` (an autosave, or
 * the caller's mate with `mateId`, which saving then updates). Every failure keeps the idea and
 * the draft and names the call in `error`; a failed portrait keeps the saved `mateId`, so the
 * next save updates that mate rather than making another. Tags: `busy` while a call runs.
 */
export const studioMachine = setup({
  types: {
    context: {} as StudioContext,
    input: {} as StudioInput,
    events: {} as StudioEvent,
  },
  actors: {
    // Every call is quiet: the studio says each failure by the form, once (not in a notice too).
    generateRole: fromPromise<MateDraft, GenerateInput>(({ input, signal }) =>
      input.client.mate.generateRole(input.payload, { signal, quiet: true }),
    ),
    regenerateField: fromPromise<MateDraft, GenerateInput>(({ input, signal }) =>
      input.client.mate.generateRole(input.payload, { signal, quiet: true }),
    ),
    saveMate: fromPromise<Mate, SaveInput>(({ input, signal }) =>
      input.client.mate.saveMate(
        {
          ...input.draft,
          ...(input.mateId ? { mateId: input.mateId } : {}),
          ...(input.voice !== undefined ? { voice: input.voice } : {}),
          visibility: input.visibility,
        },
        { signal, quiet: true },
      ),
    ),
    setPortrait: fromPromise<
      Mate,
      { client: Pick<ApiClient, 'mate'>; mateId: string; portrait: StudioPortrait }
    >(({ input, signal }) =>
      input.client.mate.setPortrait(
        'choiceId' in input.portrait
          ? { mateId: input.mateId, choiceId: input.portrait.choiceId }
          : { mateId: input.mateId, image: input.portrait.image },
        { signal, quiet: true },
      ),
    ),
  },
  guards: {
    hasDraft: ({ context }) => context.draft !== null,
    ideaValid: ({ context }) => isIdeaValid(context.idea.idea),
    draftSavable: ({ context, event }) =>
      event.type === 'SAVE' &&
      context.draft !== null &&
      Object.keys(checkMateDraft(context.draft, event.visibility)).length === 0,
    hasPortrait: ({ context }) => context.portrait !== null,
    changedWhileSaving: ({ context }) =>
      context.sending !== null &&
      (context.voice !== context.sending.voice ||
        JSON.stringify(context.draft) !== JSON.stringify(context.sending.draft)),
  },
  actions: {
    changeIdea: assign(({ context, event }) => {
      assertEvent(event, 'IDEA.CHANGE');
      return { idea: { ...context.idea, ...event.idea } };
    }),
    changeDraft: assign(({ context, event }) => {
      assertEvent(event, 'DRAFT.CHANGE');
      return { draft: { ...(context.draft ?? emptyMateDraft()), ...event.draft } };
    }),
    startBlank: assign(({ context }) => ({
      draft: context.draft ?? {
        ...emptyMateDraft(),
        ...(context.idea.gender ? { gender: context.idea.gender } : {}),
        tags: context.idea.tags,
        nsfw: context.idea.nsfw,
      },
    })),
    changePortrait: assign(({ event }) => {
      assertEvent(event, 'PORTRAIT.CHANGE');
      return { portrait: event.portrait };
    }),
    clearError: assign({ error: null }),
    /** The save answered: the mate, and the draft it sent as what counts as unchanged. */
    keepSaved: assign(({ context }, saved: Mate) => ({
      mateId: saved.mateId,
      saved,
      savedDraft: context.sending!.draft,
    })),
    failWith: assign((_, params: { failure: StudioFailure; error: unknown }) => ({
      error: {
        failure: params.failure,
        message: message(params.error),
        ...(NetworkError.isInstance(params.error) ? { network: true as const } : {}),
      },
    })),
  },
}).createMachine({
  id: 'studio',
  context: ({ input }) => ({
    client: input.client,
    idea: {
      idea: '',
      gender: null,
      tags: [],
      nsfw: false,
      language: 'en',
      ...input.idea,
    },
    draft: input.draft ?? null,
    mateId: input.mateId ?? null,
    portrait: input.portrait ?? null,
    voice: input.voice,
    busyField: null,
    visibility: null,
    checked: false,
    saved: null,
    savedDraft: null,
    sending: null,
    error: null,
  }),
  initial: 'starting',
  on: {
    'IDEA.CHANGE': { actions: 'changeIdea' },
    'PORTRAIT.CHANGE': { actions: 'changePortrait' },
    'VOICE.CHANGE': {
      actions: assign(({ event }) => ({ voice: event.voice })),
    },
  },
  states: {
    starting: {
      always: [{ guard: 'hasDraft', target: 'editing' }, { target: 'composing' }],
    },
    composing: {
      on: {
        GENERATE: { guard: 'ideaValid', target: 'generating' },
        START_BLANK: { target: 'editing', actions: ['startBlank', 'clearError'] },
      },
    },
    generating: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'generateRole',
        src: 'generateRole',
        input: ({ context }) => ({ client: context.client, payload: ideaPayload(context.idea) }),
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({ draft: event.output, checked: false })),
        },
        onError: [
          {
            guard: 'hasDraft',
            target: 'editing',
            actions: { type: 'failWith', params: failure('generate') },
          },
          { target: 'composing', actions: { type: 'failWith', params: failure('generate') } },
        ],
      },
      on: {
        // Leaving the state stops the actor, which aborts the request.
        CANCEL: [{ guard: 'hasDraft', target: 'editing' }, { target: 'composing' }],
      },
    },
    editing: {
      initial: 'idle',
      on: {
        'DRAFT.CHANGE': { actions: 'changeDraft' },
      },
      states: {
        idle: {
          // Cleared on arrival, not on leaving `regenerating`: its answer still needs the field.
          entry: assign({ busyField: null }),
          on: {
            REGENERATE: {
              target: 'regenerating',
              actions: assign(({ event }) => ({ busyField: event.field })),
            },
            REGENERATE_ALL: { guard: 'ideaValid', target: '#studio.generating' },
            SAVE: [
              {
                guard: 'draftSavable',
                target: '#studio.saving',
                actions: assign(({ context, event }) => ({
                  visibility: event.visibility,
                  checked: false,
                  sending: { draft: context.draft!, voice: context.voice },
                })),
              },
              { actions: assign(({ event }) => ({ visibility: event.visibility, checked: true })) },
            ],
          },
        },
        regenerating: {
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'regenerateField',
            src: 'regenerateField',
            input: ({ context }) => ({
              client: context.client,
              payload: {
                ...ideaPayload(context.idea),
                // An edit-mode draft may have no idea: the draft itself says what the mate is.
                idea: context.idea.idea.trim() || context.draft!.name || context.draft!.tagline,
                field: context.busyField!,
                draft: context.draft!,
              },
            }),
            onDone: {
              target: 'idle',
              // Only the field asked for: the creator may have edited others meanwhile.
              actions: assign(({ context, event }) => ({
                draft: {
                  ...context.draft!,
                  [context.busyField!]: event.output[context.busyField!],
                },
              })),
            },
            onError: {
              target: 'idle',
              actions: { type: 'failWith', params: failure('regenerate') },
            },
          },
          on: { CANCEL: 'idle' },
        },
      },
    },
    saving: {
      tags: ['busy'],
      entry: 'clearError',
      // The form stays open while it saves: what is typed meanwhile is kept, not saved.
      on: { 'DRAFT.CHANGE': { actions: 'changeDraft' } },
      invoke: {
        id: 'saveMate',
        src: 'saveMate',
        input: ({ context }) => ({
          client: context.client,
          draft: context.sending!.draft,
          mateId: context.mateId,
          visibility: context.visibility!,
          voice: context.sending!.voice,
        }),
        onDone: [
          {
            guard: 'hasPortrait',
            target: 'settingPortrait',
            actions: { type: 'keepSaved', params: ({ event }) => event.output },
          },
          // Changed meanwhile: saved, and back to the form with what is not saved yet.
          {
            guard: 'changedWhileSaving',
            target: 'editing',
            actions: { type: 'keepSaved', params: ({ event }) => event.output },
          },
          { target: 'saved', actions: { type: 'keepSaved', params: ({ event }) => event.output } },
        ],
        onError: { target: 'editing', actions: { type: 'failWith', params: failure('save') } },
      },
    },
    settingPortrait: {
      tags: ['busy'],
      on: { 'DRAFT.CHANGE': { actions: 'changeDraft' } },
      invoke: {
        id: 'setPortrait',
        src: 'setPortrait',
        input: ({ context }) => ({
          client: context.client,
          mateId: context.mateId!,
          portrait: context.portrait!,
        }),
        onDone: [
          {
            guard: 'changedWhileSaving',
            target: 'editing',
            actions: assign(({ event }) => ({ saved: event.output, portrait: null })),
          },
          {
            target: 'saved',
            actions: assign(({ event }) => ({ saved: event.output, portrait: null })),
          },
        ],
        onError: { target: 'editing', actions: { type: 'failWith', params: failure('portrait') } },
      },
    },
    saved: {
      on: { EDIT: 'editing' },
    },
  },
});

function failure(which: StudioFailure) {
  return ({ event }: { event: ErrorActorEvent }) => ({ failure: which, error: event.error });
}
