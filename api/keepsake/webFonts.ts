import fs from 'node:fs';
import { Readable } from 'node:stream';
import { bookFonts, has, type BookFont } from './fonts.ts';

/**
 * The keepsake page's fonts (decision 113): the viewer's own fonts first, as the gallery has them;
 * then, for what those lack (CJK, Thai, Hebrew, Arabic, emoji on a machine without such fonts), the
 * book's Noto subsets as WOFF2, only those that hold a character the gallery uses, each family
 * declared with its unicode-range. They are inside fonts.css as data: URLs: a browser loads no font
 * file from file:// (a font is fetched in CORS mode, and a file page has no origin).
 */
export interface WebFont {
  font: BookFont;
  source: string;
}

/** Latin letters, digits and punctuation every system font has: they never bring a file in. */
const EVERYWHERE = 0x250;

/** The code points of a text, in `into`. */
export function collectCodePoints(text: string, into: Set<number>): void {
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp >= EVERYWHERE) into.add(cp);
  }
}

/** The subsets that hold at least one of the code points, in the book's order. */
export function webFontsFor(codePoints: Set<number>, list = bookFonts()): WebFont[] {
  const points = [...codePoints];
  return list
    .filter((font) => points.some((cp) => has(font, cp)))
    .map((font) => ({ font, source: font.file.replace(/\.woff$/, '.woff2') }))
    .filter((web) => fs.existsSync(web.source));
}

const hex = (n: number) => n.toString(16).toUpperCase();

/**
 * What a face may draw: not Latin nor general punctuation (the viewer's own fonts draw those, as in
 * the gallery), since our families come first in the stack. Chromium does not look past a generic
 * family (`sans-serif`) to a web font later in the list, so ours must come before the viewer's.
 */
const LEFT_TO_THE_VIEWER: Array<[number, number]> = [
  [0, EVERYWHERE - 1],
  [0x2000, 0x206f],
];
function ours(ranges: Array<[number, number]>): Array<[number, number]> {
  let out = ranges;
  for (const [c, d] of LEFT_TO_THE_VIEWER) {
    out = out.flatMap(([a, b]): Array<[number, number]> => {
      if (b < c || a > d) return [[a, b]];
      return [...(a < c ? [[a, c - 1] as [number, number]] : []), ...(b > d ? [[d + 1, b] as [number, number]] : [])];
    });
  }
  return out;
}
const family = (font: BookFont) => `'Keepsake ${font.family}'`;

/**
 * fonts.css, streamed: a face per subset, then the stacks: our families for what they hold, colour
 * emoji before our monochrome one, then the gallery's own stack for everything else.
 */
export function fontsCss(fonts: WebFont[]): Readable {
  const drawn = fonts.map((f) => ({ ...f, ranges: ours(f.font.ranges) })).filter((f) => f.ranges.length > 0);
  const families = [...new Set(drawn.map((f) => family(f.font)))];
  const text = families.filter((f) => !f.includes('emoji'));
  const emoji = families.filter((f) => f.includes('emoji'));
  const before = [...text, "'Apple Color Emoji'", "'Segoe UI Emoji'", "'Noto Color Emoji'", ...emoji].join(',');
  return Readable.from(
    (function* () {
      for (const { font, source, ranges } of drawn) {
        const range = ranges.map(([a, b]) => (a === b ? `U+${hex(a)}` : `U+${hex(a)}-${hex(b)}`)).join(',');
        const data = fs.readFileSync(source).toString('base64');
        yield (
          `@font-face{font-family:${family(font)};src:url(data:font/woff2;base64,${data}) format('woff2');` +
          `font-weight:100 900;font-display:swap;unicode-range:${range}}\n`
        );
      }
      yield `html,body,.font-sans{font-family:${before},var(--font-sans)}\n.font-display{font-family:${before},var(--font-display)}\n`;
    })(),
  );
}
