import { encodeWav } from '@mates/api-client';

/** The rate a recording is sent at: what speech-to-text models hear (16 kHz). */
export const RECORDING_RATE = 16_000;

/**
 * A recording of the browser's `MediaRecorder` (WebM/Opus, Ogg, MP4…) as a 16 kHz mono WAV:
 * the form every transcription engine of the server takes (the embedded one reads WAV only, and
 * the server has no Opus decoder). The browser decodes and resamples it (`decodeAudioData` of an
 * `OfflineAudioContext` at 16 kHz); channels are mixed down.
 *
 * @throws DOMException (`EncodingError`) when the browser cannot decode the recording.
 */
export async function recordingToWav(recording: Blob): Promise<Blob> {
  const context = new OfflineAudioContext(1, 1, RECORDING_RATE);
  const decoded = await context.decodeAudioData(await recording.arrayBuffer());
  const mono = new Float32Array(decoded.length);
  for (let channel = 0; channel < decoded.numberOfChannels; channel += 1) {
    const samples = decoded.getChannelData(channel);
    for (let index = 0; index < mono.length; index += 1)
      mono[index]! += samples[index]! / decoded.numberOfChannels;
  }
  return new Blob([encodeWav(mono, decoded.sampleRate)], { type: 'audio/wav' });
}
