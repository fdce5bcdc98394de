/** A PNG of `width` × `height` pixels of noise, stored without compression: about 4 bytes a pixel. */
export function noisePng(width: number, height: number): Buffer;
