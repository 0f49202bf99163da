// Images for the end-to-end stories: real PNG files made here (what a person would upload),
// and the check that an <img> of the page shows a real image.
import assert from 'node:assert/strict';
import { crc32, deflateSync } from 'node:zlib';

/** A PNG chunk: length, type, data and the CRC of type and data. */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A `width` x `height` PNG (8-bit RGB) whose pixel at (x, y) is `pixel(x, y)`: [r, g, b]. */
export function png(width, height, pixel) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, RGB, deflate, no filter, no interlace
  const stride = width * 3 + 1;
  const rows = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) rows.set(pixel(x, y), y * stride + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A `size` x `size` PNG of one colour. */
export const solidPng = (size, colour) => png(size, size, () => colour);

/** Waits for an `<img>` to have loaded a real image (its URL answered with image bytes). */
export async function loadedImage(image) {
  await image.waitFor();
  await image.evaluate((element) =>
    element.complete
      ? undefined
      : new Promise((resolve) => element.addEventListener('load', resolve)),
  );
  assert.ok(
    await image.evaluate((element) => element.naturalWidth > 0),
    `the image at ${await image.getAttribute('src')} did not load`,
  );
}
