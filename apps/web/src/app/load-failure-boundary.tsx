import { Component, type ReactNode } from 'react';

/**
 * Draws nothing in place of `children` once they fail to draw (a piece whose code could not be
 * loaded, the connection gone), and says why in the log: the screen around them stays as it
 * was, instead of the whole app giving way to an error. React's own pattern for a boundary,
 * written out: react-error-boundary would do the same and put the first screen over its budget.
 */
export class LoadFailureBoundary extends Component<
  { onError: (error: unknown) => void; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    this.props.onError(error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
