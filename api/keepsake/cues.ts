const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  lrm: '\u200e',
  rlm: '\u200f',
};

/** A cue's text as a reader reads it: no tags (`<v Sam>`, `<i>`, timestamps), entities decoded. */
function plain(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/**
 * The words of a WebVTT track (decision 123), one string per cue, for the book: a video's captions or
 * an audio message's transcript. Blocks with no timing line (the header, `NOTE`, `STYLE`, `REGION`)
 * are skipped; a cue's identifier and timing are not words. The browser page reads the track with
 * the browser's own parser instead.
 */
export function cueWords(vtt: string): string[] {
  const blocks = vtt
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/);
  const words: string[] = [];
  for (const block of blocks) {
    const lines = block.split('\n');
    const timing = lines.findIndex((line) => line.includes('-->'));
    if (timing < 0 || timing > 1) continue;
    const text = plain(lines.slice(timing + 1).join('\n'))
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join(' ');
    if (text) words.push(text);
  }
  return words;
}
