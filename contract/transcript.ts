/**
 * The words of a WebVTT track as text to read (decision 130): an audio message's transcript, or a
 * video's captions offered the same way. The web app shows it under the player; the keepsake can
 * carry it without loading the track. The same reading writes a track back with its cues alone
 * (decision 142): what is stored, served and kept is timing and words, nothing a sender's tool left.
 */
export interface TranscriptLine {
  /** when the words are said, in seconds from the start */
  start: number;
  text: string;
}

/** One cue of a track: when it shows, and its lines as plain words. */
export interface Cue {
  start: number;
  end: number;
  lines: string[];
}

const STAMP = '(?:\\d+:)?\\d{1,2}:\\d{2}\\.\\d{3}';
const TIMING = new RegExp(`^(${STAMP})[ \\t]*-->[ \\t]*(${STAMP})`);
const ARROW = '-->';
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '', rlm: '', quot: '"' };

function seconds(stamp: string): number {
  return stamp.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

/**
 * A cue's line as plain words on one line: a voice span names its speaker, other markup and timestamps
 * go, character references are read.
 */
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
    .replace(/[\r\n]/g, ' ')
    .trim();
}

/**
 * The cues of a WebVTT file, in order, each line as plain words. The header, comments (`NOTE`),
 * style and region blocks, cue identifiers and cue settings are left out. As in a browser's parser,
 * a line with an arrow that is not a block's first or second begins a new block: a cue that follows a
 * note or another cue with no blank line between is read, not joined to the text before it.
 */
export function cuesOf(vtt: string): Cue[] {
  const blocks = vtt
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n(?:[ \t]*\n)+/)
    .map((block) => block.split('\n'));
  // the header is the first block, up to a timing line in it
  const header = blocks[0]!.findIndex((row, i) => i > 0 && row.includes(ARROW));
  const cues: Cue[] = [];
  for (let rows of header > 0 ? [blocks[0]!.slice(header), ...blocks.slice(1)] : blocks.slice(1)) {
    for (;;) {
      const at = rows.findIndex((row) => row.includes(ARROW));
      if (at < 0) break;
      // a cue is an optional identifier line, then its timing line; any other block ends at the arrow
      const next = at > 1 ? at : rows.findIndex((row, i) => i > at && row.includes(ARROW));
      const end = next < 0 ? rows.length : next;
      const timing = at > 1 ? null : TIMING.exec(rows[at]!.trim());
      const lines = rows
        .slice(at + 1, end)
        .map(plainText)
        .filter(Boolean);
      if (timing && lines.length) cues.push({ start: seconds(timing[1]!), end: seconds(timing[2]!), lines });
      rows = rows.slice(end);
    }
  }
  return cues;
}

/** The cues of a WebVTT file, in order, as lines of text: a cue's lines are joined with a space. */
export function transcriptOf(vtt: string): TranscriptLine[] {
  return cuesOf(vtt).map((cue) => ({ start: cue.start, text: cue.lines.join(' ') }));
}

/** `00:01:02.250`: a cue time as a track writes it. */
function stampOf(time: number): string {
  const ms = Math.round(time * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** Words as a cue's text, its markup characters escaped. */
function cueText(line: string): string {
  return line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A WebVTT track of these cues alone: their times and words, with no header text, notes, styles,
 * regions, identifiers or settings (decision 142). Reading it gives the same cues back.
 */
export function trackOf(cues: Cue[]): string {
  const written = cues.map(
    (cue) => `${stampOf(cue.start)} --> ${stampOf(cue.end)}\n${cue.lines.map(cueText).join('\n')}\n`,
  );
  return ['WEBVTT\n', ...written].join('\n');
}

/** A sender's WebVTT file as it is kept: its cues, timing and words, and nothing else (decision 142). */
export function cleanTrack(vtt: string): string {
  return trackOf(cuesOf(vtt));
}

/** A line's start as a reader sees it: `0:07`, `2:15`, `1:02:03`. */
export function clockOf(start: number): string {
  const whole = Math.floor(start);
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}
