import type sharpModule from 'sharp';

/**
 * sharp, loaded the first time an image is handled (an upload, a picture, a card export):
 * libvips costs about 14 MB resident, which a server that handles no image never needs.
 * Node keeps the module once loaded, so later calls cost a resolved promise.
 */
export async function loadSharp(): Promise<typeof sharpModule> {
  return (await import('sharp')).default;
}
