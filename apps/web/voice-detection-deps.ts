/**
 * The modules of a call's voice activity detection (loaded at a call's microphone, never with
 * the page), pre-bundled by the browser test projects (the web app's and Storybook's): a
 * dependency Vite discovers mid-run reloads the page and fails the tests that were running.
 */
export const VOICE_DETECTION_DEPS = [
  'onnxruntime-web/wasm',
  '@ricky0123/vad-web/dist/models/silero',
  '@ricky0123/vad-web/dist/frame-processor',
  '@ricky0123/vad-web/dist/messages',
  '@ricky0123/vad-web/dist/resampler',
  '@ricky0123/vad-web/dist/logging',
];
