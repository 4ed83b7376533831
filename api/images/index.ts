import sharp, { type Sharp } from 'sharp';

/** The one place sharp is used. Everything an upload needs: validate, clean, and make renditions. */

// libvips' operation cache (50 MB, 100 operations by default) serves an operation asked again on the
// same input; every picture here is processed once, so it only held memory (decision 129). Off, an
// input buffer may also be reused with new bytes: the cache knows a buffer by its address.
sharp.cache(false);

export type ImageContentType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
type Format = 'jpeg' | 'png' | 'gif' | 'webp';

export type NormalisedImage = {
  buffer: Buffer;
  contentType: ImageContentType;
  extension: string;
  width: number;
  height: number;
};

export type Rendition = { buffer: Buffer; contentType: 'image/webp'; width: number; height: number };

const REJECTIONS = { 400: 'Image too large', 413: 'File too large', 415: 'Invalid file type' } as const;

/** Rejection of an upload, with the contract's status and message (CONTRACT §2, §9). */
export class ImageRejected extends Error {
  readonly status: keyof typeof REJECTIONS;
  constructor(status: keyof typeof REJECTIONS, options?: ErrorOptions) {
    super(REJECTIONS[status], options);
    this.name = 'ImageRejected';
    this.status = status;
  }
}

/** CONTRACT §9: larger images are refused from their header, never decoded. */
export const DEFAULT_MAX_PIXELS = 100_000_000;

const FORMATS: Record<Format, { contentType: ImageContentType; extension: string }> = {
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  png: { contentType: 'image/png', extension: 'png' },
  gif: { contentType: 'image/gif', extension: 'gif' },
  webp: { contentType: 'image/webp', extension: 'webp' },
};

/**
 * Checks what the bytes really are (the declared MIME type is never trusted), then re-encodes them in
 * the same format: upright per EXIF orientation, with all metadata (EXIF, GPS, XMP, ICC) dropped and
 * colours converted to sRGB, which is sharp's default when `keepMetadata` is not asked for.
 *
 * Animated GIF and WebP keep all their frames. They are not auto-rotated: GIF has no EXIF, and
 * rotating a multi-frame image would rotate the stacked frames as one tall picture.
 */
export async function normaliseUpload(input: Buffer, opts: { maxPixels?: number } = {}): Promise<NormalisedImage> {
  const maxPixels = opts.maxPixels ?? DEFAULT_MAX_PIXELS;
  // Sniff the signature first, so SVG, PDF, HEIC and the like never reach a decoder at all.
  const format = sniffFormat(input);
  if (!format) throw new ImageRejected(415);
  const animated = format === 'gif' || format === 'webp';
  const options = { failOn: 'error', limitInputPixels: maxPixels, animated } as const;
  return withRejections(async () => {
    // the header only: the size is judged before a single pixel is decoded
    const metadata = await sharp(input, { ...options, limitInputPixels: false }).metadata();
    if (metadata.format !== format) throw new ImageRejected(415);
    const pages = metadata.pages ?? 1;
    // every frame of an animation is decoded: count them all
    const decoded = metadata.width * Math.max(metadata.height, (metadata.pageHeight ?? metadata.height) * pages);
    if (decoded > maxPixels) throw new ImageRejected(400);
    let image = sharp(input, options);
    if (pages === 1) image = image.rotate();
    const { data, info } = await encode(image, format).toBuffer({ resolveWithObject: true });
    return {
      buffer: data,
      ...FORMATS[format],
      width: info.width,
      height: pages > 1 && info.pageHeight ? info.pageHeight : info.height,
    };
  });
}

/**
 * The display size and the card thumbnail, both WebP, upright and stripped. Animated originals give
 * still renditions of their first frame: cards and the lightbox show the original for motion.
 */
export async function makeRenditions(original: Buffer): Promise<{ display: Rendition; thumbnail: Rendition }> {
  return withRejections(async () => {
    const upright = sharp(original, { failOn: 'error', limitInputPixels: DEFAULT_MAX_PIXELS }).rotate();
    const [display, thumbnail] = await Promise.all([
      rendition(upright.clone(), 1600, 82),
      rendition(upright.clone(), 480, 75),
    ]);
    return { display, thumbnail };
  });
}

/**
 * A gallery card's images: exactly the card's shape (cropped from the centre, as the card's
 * `object-fit: cover` would show it), one per width, WebP at a quality for small pictures. The
 * source is decoded once for all widths: decoding is most of the cost.
 */
export async function makeCardImages(
  source: Buffer,
  widths: readonly number[],
  aspect: number,
): Promise<Map<number, Rendition>> {
  return withRejections(async () => {
    const largest = Math.max(...widths);
    const { data, info } = await sharp(source, { failOn: 'error', limitInputPixels: DEFAULT_MAX_PIXELS })
      .rotate()
      .resize(largest, Math.round(largest * aspect), { fit: 'cover', position: 'centre' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
    const made = await Promise.all(
      widths.map(async (width) => {
        const out = await sharp(data, raw)
          .resize(width, Math.round(width * aspect), { fit: 'fill' })
          .webp({ quality: 68, effort: 2, smartSubsample: true })
          .toBuffer({ resolveWithObject: true });
        const rendition: Rendition = {
          buffer: out.data,
          contentType: 'image/webp',
          width: out.info.width,
          height: out.info.height,
        };
        return [width, rendition] as const;
      }),
    );
    return new Map(made);
  });
}

async function rendition(image: Sharp, box: number, quality: number): Promise<Rendition> {
  const { data, info } = await image
    .resize(box, box, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality })
    .toBuffer({ resolveWithObject: true });
  return { buffer: data, contentType: 'image/webp', width: info.width, height: info.height };
}

function encode(image: Sharp, format: Format): Sharp {
  switch (format) {
    case 'jpeg':
      return image.jpeg({ quality: 90, mozjpeg: false });
    case 'png':
      return image.png();
    case 'gif':
      return image.gif();
    case 'webp':
      return image.webp({ quality: 90 });
    default: {
      const unknown: never = format;
      throw new Error(`Unhandled image format ${String(unknown)}`);
    }
  }
}

function sniffFormat(input: Buffer): Format | undefined {
  if (input.length >= 3 && input[0] === 0xff && input[1] === 0xd8 && input[2] === 0xff) return 'jpeg';
  if (input.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  const head = input.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (input.subarray(0, 4).toString('latin1') === 'RIFF' && input.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'webp';
  }
  return undefined;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Any failure to decode untrusted bytes is the uploader's problem (415), except the size limit (400). */
async function withRejections<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ImageRejected) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new ImageRejected(/pixel limit/i.test(message) ? 400 : 415, { cause: err });
  }
}

/**
 * An image's pixels as RGBA bytes, row by row: its first frame, upright, any transparency over white
 * paper (so opaque). For holding a drawing's recording to its image (decision 066).
 */
export async function rgbaPixels(input: Buffer): Promise<Buffer> {
  return withRejections(async () => {
    const { data } = await sharp(input, { failOn: 'error', limitInputPixels: DEFAULT_MAX_PIXELS })
      .rotate()
      .flatten({ background: '#ffffff' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return data;
  });
}

/** A JPEG of one colour with an SVG drawn over it: demo data for the seed command. */
export function placeholderJpeg(width: number, height: number, background: string, svg: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .composite([{ input: Buffer.from(svg) }])
    .jpeg()
    .toBuffer();
}

/** A picture for print (the keepsake's book): JPEG at most `side` px on its longer side, as PDF takes it. */
export async function printableJpeg(
  input: Buffer,
  side = 1400,
): Promise<{ buffer: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(input)
    .rotate()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82 })
    .toBuffer({ resolveWithObject: true });
  return { buffer: data, width: info.width, height: info.height };
}
