import { useSyncExternalStore, type ReactNode } from 'react';
import { useSelector } from '@xstate/store-react';
import { ThemeProvider } from '@mates/ui';
import { useServices } from '../lib/services-context';

const LIGHT = '(prefers-color-scheme: light)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(LIGHT);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the system asks for a light theme now (and re-renders when that changes). */
function useSystemPrefersLight(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(LIGHT).matches,
    () => false,
  );
}

/** The app's colour theme: the person's choice, or the system's while they made none. */
export function AppTheme({ children }: { children: ReactNode }) {
  const { store } = useServices();
  const choice = useSelector(store, (state) => state.context.theme);
  const systemLight = useSystemPrefersLight();
  const theme = choice === 'system' ? (systemLight ? 'light' : 'dark') : choice;
  // The app is the whole page: its background, font and scrollbars follow the theme too.
  return (
    <ThemeProvider theme={theme} page>
      {children}
    </ThemeProvider>
  );
}
