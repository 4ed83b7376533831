/**
 * The words of a WebVTT track as text to read (decision 130): an audio message's transcript, or a
 * video's captions offered the same way. The web app shows it under the player; the keepsake can
 * carry it without loading the track.
 */
export interface TranscriptLine {
  /** when the words are said, in seconds from the start */
  start: number;
  text: string;
}

const TIMING = /^((?:\d+:)?\d{1,2}:\d{2}\.\d{3})[ \t]*-->[ \t]*(?:\d+:)?\d{1,2}:\d{2}\.\d{3}/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '', rlm: '', quot: '"' };

function seconds(stamp: string): number {
  return stamp.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/** A cue's payload as plain words: a voice span names its speaker, other markup and timestamps go. */
function plainText(line: string): string {
  return line
    .replace(/<v(?:\.[^ \t>]*)?[ \t]+([^>]*)>/g, (_, speaker: string) => `${speaker.trim()}: `)
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity: string, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
      }
      return ENTITIES[name.toLowerCase()] ?? entity;
    })
    .trim();
}

/**
 * The cues of a WebVTT file, in order, as lines of text. The header, comments (`NOTE`), style and
 * region blocks and cue settings are left out; a cue's lines are joined with a space.
 */
export function transcriptOf(vtt: string): TranscriptLine[] {
  const blocks = vtt
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n(?:[ \t]*\n)+/);
  const lines: TranscriptLine[] = [];
  for (const block of blocks.slice(1)) {
    const rows = block.split('\n');
    // a cue is an optional identifier line, then its timing line
    const at = rows.findIndex((row) => row.includes('-->'));
    if (at < 0 || at > 1) continue;
    const timing = TIMING.exec(rows[at]!.trim());
    if (!timing) continue;
    const text = rows
      .slice(at + 1)
      .map(plainText)
      .filter(Boolean)
      .join(' ');
    if (text) lines.push({ start: seconds(timing[1]!), text });
  }
  return lines;
}

/** A line's start as a reader sees it: `0:07`, `2:15`, `1:02:03`. */
export function clockOf(start: number): string {
  const whole = Math.floor(start);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
