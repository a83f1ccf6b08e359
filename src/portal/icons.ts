// The portal's icon, a paw on the brand's green: as SVG for pages, and as a 32×32 ICO drawn here for /favicon.ico.

export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<circle cx="16" cy="16" r="16" fill="#0f5c55"/>
<g fill="#ffffff"><ellipse cx="16" cy="20.5" rx="6" ry="5"/><circle cx="9" cy="13" r="2.8"/><circle cx="13.3" cy="8.6" r="2.8"/>
<circle cx="18.7" cy="8.6" r="2.8"/><circle cx="23" cy="13" r="2.8"/></g>
</svg>
`;

const SIZE = 32;
const BRAND = [0x0f, 0x5c, 0x55] as const;
const TOES: ReadonlyArray<readonly [number, number]> = [
  [9, 13],
  [13.3, 8.6],
  [18.7, 8.6],
  [23, 13],
];

/** The colour of pixel (x, y) as [b, g, r, a]: the same drawing as the SVG, sampled at pixel centres. */
function pixel(x: number, y: number): [number, number, number, number] {
  const cx = x + 0.5;
  const cy = y + 0.5;
  if ((cx - 16) ** 2 + (cy - 16) ** 2 > 16 ** 2) return [0, 0, 0, 0];
  const pad = ((cx - 16) / 6) ** 2 + ((cy - 20.5) / 5) ** 2 <= 1;
  const toe = TOES.some(([tx, ty]) => (cx - tx) ** 2 + (cy - ty) ** 2 <= 2.8 ** 2);
  return pad || toe ? [255, 255, 255, 255] : [BRAND[2], BRAND[1], BRAND[0], 255];
}

/** An ICO file holding one 32×32 32-bit bitmap (rows bottom-up, then an all-zero AND mask: alpha does the work). */
export function iconIco(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y += 1)
    for (let x = 0; x < SIZE; x += 1) pixels.set(pixel(x, SIZE - 1 - y), (y * SIZE + x) * 4);
  const mask = Buffer.alloc((SIZE / 8) * SIZE);
  const info = Buffer.alloc(40);
  info.writeUInt32LE(40, 0);
  info.writeInt32LE(SIZE, 4);
  info.writeInt32LE(SIZE * 2, 8); // the height counts the bitmap and its mask
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(32, 14);
  info.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([info, pixels, mask]);
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}
