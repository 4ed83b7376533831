import { open } from 'node:fs/promises';
import { MediaRejected } from './errors.ts';

/** What the first bytes say the file is. ffprobe is then forced to that demuxer and no other. */
export type Container = 'mp4' | 'm4a' | 'mov' | 'avi' | 'mp3' | 'wav' | 'webm';

/** The ffmpeg demuxer each container is read with (`-f`): never left to ffmpeg's own guessing. */
export const DEMUXER: Record<Container, string> = {
  mp4: 'mov',
  m4a: 'mov',
  mov: 'mov',
  avi: 'avi',
  mp3: 'mp3',
  wav: 'wav',
  // ffmpeg's one demuxer for Matroska and WebM; only the `webm` doctype reaches it
  webm: 'matroska',
};

const HEAD_BYTES = 64;

/**
 * Reads the magic numbers before any decoder sees the file. An HLS playlist, an ffconcat script, an
 * image or plain text stops here, so ffmpeg's playlist and concat demuxers (which open other files and
 * URLs) are never reached.
 */
export async function sniffMediaFile(path: string): Promise<{ container: Container }> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    const container = sniffBytes(buffer.subarray(0, bytesRead));
    if (!container) throw new MediaRejected(415, { reason: 'sniff: not an allowed audio or video signature' });
    return { container };
  } finally {
    await file.close();
  }
}

export function sniffBytes(head: Buffer): Container | undefined {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.length >= 12 && ascii(4, 8) === 'ftyp') return ISO_BRANDS.get(ascii(8, 12));
  if (head.length >= 12 && ascii(0, 4) === 'RIFF') {
    const form = ascii(8, 12);
    if (form === 'AVI ') return 'avi';
    if (form === 'WAVE') return 'wav';
    return undefined;
  }
  if (isWebm(head)) return 'webm';
  if (head.length >= 10 && ascii(0, 3) === 'ID3' && head[3]! >= 2 && head[3]! <= 4) return 'mp3';
  if (isMpegAudioFrame(head)) return 'mp3';
  return undefined;
}

const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
/** The EBML DocType element (0x4282), its one-byte size 4, then `webm`: what MediaRecorder writes. */
const WEBM_DOCTYPE = Buffer.from([0x42, 0x82, 0x84, ...Buffer.from('webm')]);

/** A WebM file (Matroska's EBML header with the `webm` doctype); other Matroska files are not taken. */
function isWebm(head: Buffer): boolean {
  return head.length >= 16 && head.subarray(0, 4).equals(EBML_MAGIC) && head.includes(WEBM_DOCTYPE);
}

/** Major brands of the ISO/QuickTime family we accept; HEIC, AVIF, JPEG 2000 and CR3 share `ftyp` too. */
const ISO_BRANDS = new Map<string, Container>([
  ...['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'mmp4', 'MSNV', 'dash'].map(
    (brand) => [brand, 'mp4'] as const,
  ),
  ...['3gp4', '3gp5', '3gp6', '3g2a'].map((brand) => [brand, 'mp4'] as const),
  ['M4A ', 'm4a'],
  ['M4B ', 'm4a'],
  ['qt  ', 'mov'],
]);

/** An MPEG-1/2/2.5 Layer III frame header: 11 sync bits, then no reserved version, layer, rate or bitrate. */
function isMpegAudioFrame(head: Buffer): boolean {
  if (head.length < 4) return false;
  const [b0, b1, b2] = [head[0]!, head[1]!, head[2]!];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return false;
  const version = (b1 >> 3) & 0b11;
  const layer = (b1 >> 1) & 0b11;
  const bitrate = b2 >> 4;
  const sampleRate = (b2 >> 2) & 0b11;
  return version !== 0b01 && layer === 0b01 && bitrate !== 0b1111 && bitrate !== 0 && sampleRate !== 0b11;
}
