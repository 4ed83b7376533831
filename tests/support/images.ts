import sharp from 'sharp';
import { paintPng } from '#api/canvas/index.ts';
import type { StrokeRecording } from '#contract/strokes.ts';

export async function jpegDataUrl(width = 640, height = 480, color = '#e07a5f'): Promise<string> {
  const buf = await sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  return `data:image/jpeg;base64,${buf.toString('base64')}`;
}

export const svgDataUrl = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`;
export const textAsPng = `data:image/png;base64,${Buffer.from('this is not an image at all').toString('base64')}`;

/**
 * A photo-like JPEG: smooth colour fields with film grain, which compresses about as badly as a phone
 * photo does (a solid colour would make any image budget pass). The same `seed` gives the same bytes.
 */
export async function photo(seed: number, width = 1600, height = 1200) {
  let x = seed * 7919 + 104_729;
  const random = () => (x = (x * 9301 + 49_297) % 233_280) / 233_280;
  const small = Buffer.alloc(48 * 36 * 3);
  for (let i = 0; i < small.length; i++) small[i] = Math.floor(random() * 255);
  const base = await sharp(small, { raw: { width: 48, height: 36, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  for (let i = 0; i < base.length; i++)
    base[i] = Math.max(0, Math.min(255, base[i]! + Math.floor((random() - 0.5) * 40)));
  return sharp(base, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** A drawing that matches its recording: the recording's last frame, painted by the one painter, as a PNG. */
export function paintedDataUrl(recording: StrokeRecording): string {
  return `data:image/png;base64,${paintPng(recording).toString('base64')}`;
}
