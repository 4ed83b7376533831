import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The book's fonts (decision 092): Noto from npm (@fontsource, nothing fetched at run time), one file
 * per script subset, chosen for each character by the subset's unicode-range (the package's
 * `unicode.json`), so a name in Greek, Cyrillic, Devanagari, Arabic, Hebrew or Chinese and an emoji in
 * a comment each get a font that has them. Only the files a book uses are read, and PDFKit embeds
 * only the glyphs it uses.
 */
const require = createRequire(import.meta.url);
/** In the order they are tried: Latin and its neighbours first, emoji before the CJK subsets. */
const PACKAGES = [
  '@fontsource/noto-sans',
  '@fontsource/noto-sans-arabic',
  '@fontsource/noto-sans-hebrew',
  '@fontsource/noto-emoji',
  '@fontsource/noto-sans-sc',
];

export interface BookFont {
  name: string;
  file: string;
  ranges: Array<[number, number]>;
}

const has = (font: BookFont, cp: number) => font.ranges.some(([a, b]) => cp >= a && cp <= b);

function parseRanges(text: string): Array<[number, number]> {
  return text.split(',').map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(a!, 16), parseInt(b ?? a!, 16)];
  });
}

let fonts: BookFont[] | undefined;

export function bookFonts(): BookFont[] {
  if (fonts) return fonts;
  fonts = [];
  for (const pkg of PACKAGES) {
    const root = path.dirname(require.resolve(`${pkg}/package.json`));
    const family = path.basename(pkg);
    const subsets = JSON.parse(fs.readFileSync(path.join(root, 'unicode.json'), 'utf8')) as Record<string, string>;
    const ordered = Object.entries(subsets).sort(([a], [b]) => Number(a !== 'latin') - Number(b !== 'latin'));
    for (const [subset, ranges] of ordered) {
      const name = `${family}-${subset.replace(/^\[(\d+)\]$/, '$1')}`;
      const file = path.join(root, 'files', `${name}-400-normal.woff`);
      if (fs.existsSync(file)) fonts.push({ name, file, ranges: parseRanges(ranges) });
    }
  }
  return fonts;
}

/** Characters that stay with the one before: joiners, variation selectors, combining marks, skin tones. */
const JOINS: Array<[number, number]> = [
  [0x200c, 0x200d],
  [0xfe00, 0xfe0f],
  [0x0300, 0x036f],
  [0x1f3fb, 0x1f3ff],
  [0xe0020, 0xe007f],
];
const joins = (cp: number) => JOINS.some(([a, b]) => cp >= a && cp <= b);

/** A text cut into runs, each with the first font whose range has its characters. */
export function fontRuns(text: string, list = bookFonts()): Array<{ font: BookFont; text: string }> {
  const runs: Array<{ font: BookFont; text: string }> = [];
  for (const ch of text) {
    const last = runs.at(-1);
    const cp = ch.codePointAt(0)!;
    // a space after an emoji takes the text font's width, not the emoji font's
    const space = /\s/.test(ch) && !last?.font.name.startsWith('noto-emoji');
    if (last && (joins(cp) || space || has(last.font, cp))) {
      last.text += ch;
      continue;
    }
    const font = list.find((f) => has(f, cp)) ?? list[0]!;
    if (last && last.font === font) last.text += ch;
    else runs.push({ font, text: ch });
  }
  return runs;
}
