// Preloaded into the real server by test/unhandled-rejection.test.ts: on SIGUSR2, a promise
// fails that nothing handles, as a fault in a library's background work would.
process.on('SIGUSR2', () => {
  void Promise.reject(new Error('a stray fault nobody awaited'));
});
