import { createAtom, type BaseAtom } from '@xstate/store';
import type { AuthMode, AuthPopupInput } from '@mates/state-machines';
// A type only: the popup's code itself loads on first use (below), never with the first screen.
import type { PopupActor } from './sign-in-popup';

/**
 * The sign-up / sign-in popup, whose machine and dialog load on first use rather than with
 * the first screen: anything may open it at once; the layout shows it once it has loaded.
 */
export interface SignInPopup {
  /** Opens the popup in a mode (docs/product.md, routes), loading it first if need be. */
  open(mode: AuthMode): void;
  /** Loads and starts the popup's machine once; later calls give the same actor. */
  load(): Promise<PopupActor>;
  /** The actor once loaded, else `null`. */
  actor: BaseAtom<PopupActor | null>;
}

/** Makes the popup handle; `onLoadError` hears of a popup that could not load (offline). */
export function createSignInPopup(
  input: AuthPopupInput,
  onLoadError: (error: unknown) => void,
): SignInPopup {
  const actor = createAtom<PopupActor | null>(null);
  let loading: Promise<PopupActor> | null = null;
  const load = () =>
    (loading ??= import('./sign-in-popup').then(
      ({ startPopupActor }) => {
        const started = startPopupActor(input);
        actor.set(started);
        return started;
      },
      (error: unknown) => {
        // The next open tries again.
        loading = null;
        throw error;
      },
    ));
  return {
    open: (mode) => void load().then((popup) => popup.send({ type: 'OPEN', mode }), onLoadError),
    load,
    actor,
  };
}
