/* global registerProcessor, AudioWorkletProcessor -- the AudioWorkletGlobalScope's own names */
// The AudioWorklet of a call's microphone (browser-call-effects.ts): it hands each block of 128
// samples to the page, which detects speech in them. A file of the app's own origin, loaded by
// its address: the Content-Security-Policy (`script-src 'self'`) refuses worklets from `blob:`
// or `data:` addresses, as it does any script.
registerProcessor(
  'mates-call-capture',
  class extends AudioWorkletProcessor {
    process(inputs) {
      const channel = inputs[0] && inputs[0][0];
      if (channel) this.port.postMessage(channel.slice(0));
      return true;
    }
  },
);
