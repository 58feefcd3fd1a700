import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * Sends a click on one of the app's hash links (`#/mine`, as `href()` writes them) through the
 * router, as a `<Link>` would, instead of letting the browser change the hash. The browser's own
 * hash change reaches the router as a history entry it did not make: Back to such an entry
 * cannot be held by a blocker (React Router warns, and the studio's leave guard let Back
 * through). A click with a modifier, or one a handler already took, is left to the browser.
 */
export function useRouterLinks(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const follow = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href^="#/"]');
      if (!link || link.getAttribute('target') || link.hasAttribute('download')) return;
      event.preventDefault();
      void navigate(link.getAttribute('href')!.slice(1));
    };
    document.addEventListener('click', follow);
    return () => document.removeEventListener('click', follow);
  }, [navigate]);
}
