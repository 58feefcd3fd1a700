import { encodeWav } from '../call/wav';
import type { CallTicket } from '../types/call';

/** A `POST /call/start` answer: a ticket for the mocked socket of {@link mockCallSocket}. */
export function createCallTicketFixture(overrides: Partial<CallTicket> = {}): CallTicket {
  return {
    callId: 'call-1',
    socketPath: '/api/call/socket?ticket=ticket-1',
    expiresAt: '2026-11-29T10:01:00.000Z',
    transcriber: 'server',
    ...overrides,
  };
}

/**
 * A sentence's audio for mocks: a 16-bit mono WAV of silence, `seconds` long (8 kHz, small).
 */
export function createCallAudioFixture(seconds = 0.6): ArrayBuffer {
  return encodeWav(new Float32Array(Math.round(8000 * seconds)), 8000);
}
