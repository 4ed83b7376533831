import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageRejected, makeRenditions, normaliseUpload, printableJpeg } from './index.ts';

function solid(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } });
}

/** A landscape 60x40 JPEG whose EXIF says "rotate 90° clockwise to display", plus camera and GPS tags. */
function sidewaysPhoto() {
  return solid(60, 40)
    .jpeg()
    .withExif({
      IFD0: { Make: 'Phone', Model: 'Camera 9' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .withMetadata({ orientation: 6 }) // sharp sets Orientation itself, overriding one given to withExif
    .toBuffer();
}

async function rejection(promise: Promise<unknown>): Promise<ImageRejected> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ImageRejected);
  return err as ImageRejected;
}

describe('normaliseUpload', () => {
  it('turns an EXIF-rotated JPEG upright and strips its metadata', async () => {
    const input = await sidewaysPhoto();
    const before = await sharp(input).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.toString('latin1')).toContain('Camera 9');

    const out = await normaliseUpload(input);

    expect(out).toMatchObject({ contentType: 'image/jpeg', extension: 'jpg', width: 40, height: 60 });
    const after = await sharp(out.buffer).metadata();
    expect(after).toMatchObject({ format: 'jpeg', width: 40, height: 60 });
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(after.icc).toBeUndefined();
    expect(after.xmp).toBeUndefined();
  });

  it('passes a PNG through as PNG', async () => {
    const input = await solid(30, 20).png().withMetadata({ density: 300 }).toBuffer();
    const out = await normaliseUpload(input);
    expect(out).toMatchObject({ contentType: 'image/png', extension: 'png', width: 30, height: 20 });
    expect((await sharp(out.buffer).metadata()).format).toBe('png');
  });

  it('keeps WebP as WebP', async () => {
    const out = await normaliseUpload(await solid(10, 10).webp().toBuffer());
    expect(out).toMatchObject({ contentType: 'image/webp', extension: 'webp', width: 10, height: 10 });
  });

  it('keeps every frame of an animated GIF', async () => {
    const frames = await Promise.all(
      ['red', 'green', 'blue'].map((colour) =>
        sharp({ create: { width: 20, height: 10, channels: 3, background: colour } })
          .png()
          .toBuffer(),
      ),
    );
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    const out = await normaliseUpload(gif);
    expect(out).toMatchObject({ contentType: 'image/gif', extension: 'gif', width: 20, height: 10 });
    expect((await sharp(out.buffer, { animated: true }).metadata()).pages).toBe(3);
  });

  it('rejects SVG with 415 Invalid file type', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    );
    const err = await rejection(normaliseUpload(svg));
    expect(err.status).toBe(415);
    expect(err.message).toBe('Invalid file type');
  });

  it('rejects plain text with 415', async () => {
    expect((await rejection(normaliseUpload(Buffer.from('just some text, not a picture')))).status).toBe(415);
  });

  it('rejects real images in formats outside the allow-list (TIFF, AVIF) with 415', async () => {
    for (const input of [await solid(16, 16).tiff().toBuffer(), await solid(16, 16).avif().toBuffer()]) {
      expect((await rejection(normaliseUpload(input))).status).toBe(415);
    }
  });

  it('rejects an empty upload with 415', async () => {
    expect((await rejection(normaliseUpload(Buffer.alloc(0)))).status).toBe(415);
  });

  it('rejects a truncated JPEG with 415', async () => {
    const whole = await solid(400, 300).jpeg({ quality: 95 }).toBuffer();
    const truncated = whole.subarray(0, Math.floor(whole.length / 2));
    expect((await rejection(normaliseUpload(truncated))).status).toBe(415);
  });

  it('rejects PNG bytes with a corrupted body with 415', async () => {
    const png = Buffer.from(await solid(64, 64).png().toBuffer());
    png.fill(0x41, 60, png.length - 12);
    expect((await rejection(normaliseUpload(png))).status).toBe(415);
  });

  it('rejects an image over the pixel limit with 400 Image too large (CONTRACT §9)', async () => {
    const input = await solid(200, 100).png().toBuffer();
    const err = await rejection(normaliseUpload(input, { maxPixels: 19_999 }));
    expect(err.status).toBe(400);
    expect(err.message).toBe('Image too large');
    await expect(normaliseUpload(input, { maxPixels: 20_000 })).resolves.toMatchObject({ width: 200, height: 100 });
  });
});

describe('makeRenditions', () => {
  it('fits a 3000x2000 image into a 1600 display and a 480 thumbnail, both WebP', async () => {
    const original = await solid(3000, 2000).jpeg().toBuffer();
    const { display, thumbnail } = await makeRenditions(original);

    expect(display).toMatchObject({ contentType: 'image/webp', width: 1600, height: 1067 });
    expect(thumbnail.contentType).toBe('image/webp');
    expect(Math.max(thumbnail.width, thumbnail.height)).toBeLessThanOrEqual(480);
    expect(thumbnail).toMatchObject({ width: 480, height: 320 });
    for (const rendition of [display, thumbnail]) {
      const meta = await sharp(rendition.buffer).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: rendition.width, height: rendition.height });
      expect(meta.exif).toBeUndefined();
    }
  });

  it('never enlarges a small image', async () => {
    const { display, thumbnail } = await makeRenditions(await solid(300, 200).png().toBuffer());
    expect(display).toMatchObject({ width: 300, height: 200 });
    expect(thumbnail).toMatchObject({ width: 300, height: 200 });
  });

  it('turns the renditions upright and strips them', async () => {
    const { display, thumbnail } = await makeRenditions(await sidewaysPhoto());
    expect(display).toMatchObject({ width: 40, height: 60 });
    expect(thumbnail).toMatchObject({ width: 40, height: 60 });
    const meta = await sharp(display.buffer).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });
});

describe('printableJpeg', () => {
  it('reads the bytes a reused buffer holds now, not a picture it held before (decision 129)', async () => {
    const png = (background: string) =>
      sharp({ create: { width: 32, height: 32, channels: 3, background } })
        .png({ compressionLevel: 0 })
        .toBuffer();
    const [red, blue] = await Promise.all([png('#ff0000'), png('#0000ff')]);
    expect(blue.length).toBe(red.length);
    // the book reads every picture into one buffer: same address, same length, other bytes
    const reused = Buffer.from(red);
    const first = await printableJpeg(reused);
    blue.copy(reused);
    const second = await printableJpeg(reused);
    const colour = async (jpeg: Buffer) => (await sharp(jpeg).stats()).dominant;
    const [a, b] = [await colour(first.buffer), await colour(second.buffer)];
    expect(a.r).toBeGreaterThan(200);
    expect(b.b).toBeGreaterThan(200);
    expect(b.r).toBeLessThan(50);
  });
});
