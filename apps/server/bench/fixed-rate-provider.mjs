// An OpenAI-compatible streaming endpoint that emits TOKENS tokens (` t0`, ` t1`, …), one
// every INTERVAL_MS, for the chat benchmark. Runs in its own process; prints its port on stdout.
import http from 'node:http';

const TOKENS = Number(process.env.TOKENS ?? 200);
const INTERVAL_MS = Number(process.env.INTERVAL_MS ?? 5);

const server = http.createServer(async (req, res) => {
  // Read the request body to its end before answering.
  await new Promise((resolve) => req.resume().on('end', resolve));
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (content, finish = null) =>
    `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
  for (let index = 0; index < TOKENS; index += 1) {
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
    if (res.destroyed) return;
    res.write(chunk(` t${index}`));
  }
  res.write(chunk(null, 'stop'));
  res.end('data: [DONE]\n\n');
});
// A backlog for a thousand connections opened at once (Node's default is 511).
server.listen(0, '127.0.0.1', 4096, () => console.log(server.address().port));
