// The load client of the benchmarks, in its own process so that it takes no CPU from the
// server's event loop: forked with { url, paths, connections, seconds }, it runs autocannon
// over the paths in turn and sends back what it measured.
import autocannon from 'autocannon';

process.once('message', async ({ url, paths, connections, seconds }) => {
  let turn = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => ({ ...request, path: paths[(turn += 1) % paths.length] }),
      },
    ],
  });
  process.send(
    {
      rps: result.requests.average,
      requests: result.requests.total,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx + result.timeouts,
    },
    () => process.exit(0),
  );
});
