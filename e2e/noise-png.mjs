// A PNG of noise for the tests and the bench that send an image between devices: JavaScript, so the bench (plain
// Node) and the e2e (TypeScript, typed by noise-png.d.mts) share it.
import { crc32, deflateSync } from 'node:zlib';

/** A PNG of `width` × `height` pixels of noise, stored without compression: about 4 bytes a pixel. */
export function noisePng(width, height) {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'ascii'), data])));
    return Buffer.concat([length, Buffer.from(type, 'ascii'), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let index = 0; index < rows.length; index += 1) rows[index] = index % (width * 4 + 1) === 0 ? 0 : (Math.random() * 256) | 0;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 0 })), chunk('IEND', Buffer.alloc(0))]);
}
