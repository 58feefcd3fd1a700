// The chat benchmarks' load client, in its own process (forked by chat.bench.ts and
// group.bench.ts) so that its work is not counted as the server's. It is sent one job over IPC —
// open these streams at once, directly to the provider or through Mates — and answers with each
// stream's time to first token and total time. Plain node:http and string matching keep its own
// cost low.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** The first words of a stream: a provider chunk with text, or a Mates `reply-delta`. */
const FIRST_TOKEN = {
  direct: (data) => data.includes('"content"'),
  mates: (data) => data.includes('"type":"reply-delta"'),
};

/**
 * With `job.replies` (group.bench.ts), each reply of a Mates stream is timed too: its speaker,
 * and when its `reply-start`, first `reply-delta` and `reply-end` came, in ms from the request.
 */
function markReply(replies, data, at) {
  const last = replies.at(-1);
  if (data.includes('"type":"reply-start"'))
    replies.push({
      speakerId: JSON.parse(data.slice(6)).speakerId ?? null,
      start: at,
      first: NaN,
      end: NaN,
    });
  else if (last && Number.isNaN(last.first) && data.includes('"type":"reply-delta"'))
    last.first = at;
  else if (last && data.includes('"type":"reply-end"')) last.end = at;
}

/** Opens one stream and times it; `ok` says whether it ended with `[DONE]`. */
function stream(job, target) {
  const started = performance.now();
  const body = JSON.stringify(target.body);
  return new Promise((resolve) => {
    let ttft = NaN;
    let rest = '';
    let done = false;
    const replies = job.replies ? [] : null;
    const request = http.request(
      job.url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...target.headers,
        },
      },
      (response) => {
        response.setEncoding('utf8');
        let head = '';
        response.on('data', (text) => {
          if (head.length < 300) head += text;
          rest += text;
          let end;
          while ((end = rest.indexOf('\n\n')) !== -1) {
            const data = rest.slice(0, end);
            rest = rest.slice(end + 2);
            if (Number.isNaN(ttft) && FIRST_TOKEN[job.mode](data))
              ttft = performance.now() - started;
            if (replies) markReply(replies, data, performance.now() - started);
            if (data === 'data: [DONE]') done = true;
          }
        });
        response.on('end', () =>
          resolve({
            ttft,
            total: performance.now() - started,
            ok: done && response.statusCode === 200,
            ...(replies && { replies }),
            // What a failed stream answered, for the bench to show.
            ...(done && response.statusCode === 200
              ? {}
              : { failure: `${response.statusCode} ${head.slice(0, 300)}` }),
          }),
        );
      },
    );
    request.on('error', (error) =>
      resolve({ ttft, total: performance.now() - started, ok: false, failure: error.message }),
    );
    request.end(body);
  });
}

process.on('message', async (job) => {
  const started = performance.now();
  const results = await Promise.all(job.targets.map((target) => stream(job, target)));
  process.send({ results, wall: performance.now() - started });
});
