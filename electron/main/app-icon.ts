// The app icon, drawn once from a few shapes: as SVG (the source in build/icons) and as PNG at any
// size (the 512 px packaging icon, the tray icon at runtime). No image files to keep in sync.
import zlib from 'node:zlib';

type Shape =
  | { kind: 'rect'; x: number; y: number; width: number; height: number; radius: number; fill: string }
  | { kind: 'circle'; cx: number; cy: number; r: number; fill: string };

/** On a 512 x 512 canvas: a blue tile, a white folder, a green "connected" dot. */
export const ICON_SHAPES: readonly Shape[] = [
  { kind: 'rect', x: 0, y: 0, width: 512, height: 512, radius: 112, fill: '#1d4ed8' },
  { kind: 'rect', x: 92, y: 124, width: 148, height: 80, radius: 24, fill: '#bfdbfe' },
  { kind: 'rect', x: 92, y: 164, width: 328, height: 228, radius: 28, fill: '#bfdbfe' },
  { kind: 'rect', x: 92, y: 204, width: 328, height: 188, radius: 28, fill: '#ffffff' },
  { kind: 'circle', cx: 384, cy: 372, r: 84, fill: '#1d4ed8' },
  { kind: 'circle', cx: 384, cy: 372, r: 60, fill: '#22c55e' },
];

const CANVAS = 512;

export function iconSvg(): string {
  const body = ICON_SHAPES.map((shape) =>
    shape.kind === 'rect'
      ? `  <rect x="${shape.x}" y="${shape.y}" width="${shape.width}" height="${shape.height}" rx="${shape.radius}" fill="${shape.fill}"/>`
      : `  <circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}" fill="${shape.fill}"/>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CANVAS}" height="${CANVAS}" viewBox="0 0 ${CANVAS} ${CANVAS}">`,
    '  <title>MCP Roots Manager</title>',
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

/** An RGBA PNG of the icon, `size` pixels square, anti-aliased by 4 x 4 supersampling. */
export function iconPng(size: number): Buffer {
  if (!Number.isInteger(size) || size < 1 || size > 4096) throw new RangeError(`Bad icon size: ${size}`);
  const colors = ICON_SHAPES.map((shape) => hexToRgb(shape.fill));
  const samples = 4;
  const scale = CANVAS / size;
  const rgba = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) * scale;
          const y = (py + (sy + 0.5) / samples) * scale;
          // Painter's order: the last shape that covers the sample wins.
          for (let index = ICON_SHAPES.length - 1; index >= 0; index--) {
            if (covers(ICON_SHAPES[index]!, x, y)) {
              const color = colors[index]!;
              r += color[0];
              g += color[1];
              b += color[2];
              a += 255;
              break;
            }
          }
        }
      }
      const offset = (py * size + px) * 4;
      const count = samples * samples;
      // Un-premultiply: colour is the average over covered samples, alpha the coverage.
      const covered = a / 255;
      rgba[offset] = covered ? Math.round(r / covered) : 0;
      rgba[offset + 1] = covered ? Math.round(g / covered) : 0;
      rgba[offset + 2] = covered ? Math.round(b / covered) : 0;
      rgba[offset + 3] = Math.round(a / count);
    }
  }
  return encodePng(size, size, rgba);
}

function covers(shape: Shape, x: number, y: number): boolean {
  if (shape.kind === 'circle') return (x - shape.cx) ** 2 + (y - shape.cy) ** 2 <= shape.r ** 2;
  if (x < shape.x || y < shape.y || x > shape.x + shape.width || y > shape.y + shape.height) return false;
  // Inside the rectangle: only the four corner squares need the distance test.
  const cx = Math.min(Math.max(x, shape.x + shape.radius), shape.x + shape.width - shape.radius);
  const cy = Math.min(Math.max(y, shape.y + shape.radius), shape.y + shape.height - shape.radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= shape.radius ** 2;
}

function hexToRgb(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
}

function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  // compression, filter and interlace methods stay 0
  const rows = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each scanline starts with filter type 0 (none).
    rgba.copy(rows, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
