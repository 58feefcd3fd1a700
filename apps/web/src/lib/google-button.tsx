import { useEffect, useRef, useState } from 'react';

interface GoogleIdentity {
  accounts: {
    id: {
      initialize: (options: {
        client_id: string;
        callback: (response: { credential: string }) => void;
      }) => void;
      renderButton: (parent: HTMLElement, options: Record<string, unknown>) => void;
    };
  };
}

const SCRIPT = 'https://accounts.google.com/gsi/client';
// A cache that says so: Google's script is added to the page once, however often the popup opens.
let loading: Promise<GoogleIdentity> | null = null;

function loadGoogle(): Promise<GoogleIdentity> {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT;
    script.async = true;
    script.onload = () => {
      const google = (window as { google?: GoogleIdentity }).google;
      if (google) resolve(google);
      else reject(new Error('Google Identity Services did not start'));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error('Google Identity Services could not be loaded'));
    };
    document.head.append(script);
  });
  return loading;
}

/**
 * Google's own sign-in button (Google Identity Services, initialised with the server's client
 * id); it hands the credential to `onCredential`. When Google cannot be reached it says so.
 */
export function GoogleButton({
  clientId,
  language,
  onCredential,
  onError,
  unavailableText,
}: {
  clientId: string;
  language: string;
  onCredential: (credential: string) => void;
  onError: (error: unknown) => void;
  /** What shows instead of the button when Google's script cannot load (offline, blocked). */
  unavailableText: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const callback = useRef(onCredential);
  useEffect(() => {
    callback.current = onCredential;
  }, [onCredential]);
  useEffect(() => {
    let live = true;
    loadGoogle().then(
      (google) => {
        if (!live || !host.current) return;
        google.accounts.id.initialize({
          client_id: clientId,
          callback: (response) => callback.current(response.credential),
        });
        google.accounts.id.renderButton(host.current, {
          theme: 'filled_black',
          size: 'large',
          width: 320,
          locale: language,
        });
      },
      (error) => {
        if (!live) return;
        setFailed(true);
        onError(error);
      },
    );
    return () => {
      live = false;
    };
  }, [clientId, language, onError]);
  // Google is set up here: say it is out of reach rather than let the option disappear.
  return failed ? (
    <p role="status" style={{ margin: 0, textAlign: 'center', fontSize: '0.875rem' }}>
      {unavailableText}
    </p>
  ) : (
    <div ref={host} />
  );
}
