import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client';
import { NetworkError } from './errors/network-error';
import { createFakeFetch } from './fake-fetch.test-helper';

// The reply parser loads with the first send (a chunk of its own in an app's build). When it
// cannot load (the network is gone, or a new version was deployed and the old chunk with it),
// the send fails as a network failure before anything is sent: the person's message is never
// saved by a send whose reply could not be read, so sending it again makes no duplicate.
vi.mock('./stream/data-line-parser', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

describe('chatSend without its parser', () => {
  it('fails as a network failure and sends nothing', async () => {
    const fake = createFakeFetch(
      () =>
        new Response('data: {"type":"reply-delta","text":"Hello"}\n\ndata: [DONE]\n\n', {
          headers: { 'content-type': 'text/event-stream' },
        }),
    );
    const client = createApiClient({
      baseUrl: 'https://mates.test/api/',
      fetch: fake.fetch,
      getToken: () => 'tok-123',
      getLanguage: () => 'en',
    });
    const sent = client.girl.chatSend({ roomId: 'room-1', content: 'Hi' }, { onData: () => {} });
    await expect(sent).rejects.toBeInstanceOf(NetworkError);
    expect(fake.requests).toHaveLength(0);
  });
});
