import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@mates/ui';
import { CallDialog, type CallEffects, type CallPeer } from './call-view';

/** Props of {@link CallButton}. */
export interface CallButtonProps {
  roomId: string;
  peer: CallPeer;
  size?: 'small' | 'medium';
  /** Replaces the browser's effects (stories). */
  effects?: CallEffects;
}

/** "Call" in the chat header: opens the call screen (the price first, then the call). */
export function CallButton({ roomId, peer, size = 'small', effects }: CallButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size={size}
        variant="soft"
        aria-label={t('call.openLabel', { name: peer.name })}
        onClick={() => setOpen(true)}
      >
        {t('call.open')}
      </Button>
      {open && (
        <CallDialog
          roomId={roomId}
          peer={peer}
          open={open}
          onOpenChange={setOpen}
          {...(effects ? { effects } : {})}
        />
      )}
    </>
  );
}
