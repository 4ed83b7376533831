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
/**
 * In the order they are tried: Latin and its neighbours first, then emoji (before the Arabic font's
 * symbols subset, which claims emoji it has no glyphs for), then each script; kana and Hangul are
 * drawn from the Japanese and Korean fonts, Han from the Chinese one.
 */
export const FONT_PACKAGES: Array<{ pkg: string; only?: Array<[number, number]> }> = [
  { pkg: '@fontsource/noto-sans' },
  { pkg: '@fontsource/noto-emoji' },
  { pkg: '@fontsource/noto-sans-arabic' },
  { pkg: '@fontsource/noto-sans-hebrew' },
  { pkg: '@fontsource/noto-sans-thai' },
  // Hangul (jamo, compatibility jamo, syllables)
  {
    pkg: '@fontsource/noto-sans-kr',
    only: [
      [0x1100, 0x11ff],
      [0x3130, 0x318f],
      [0xa960, 0xa97f],
      [0xac00, 0xd7ff],
    ],
  },
  // kana, and the half-width forms
  {
    pkg: '@fontsource/noto-sans-jp',
    only: [
      [0x3040, 0x30ff],
      [0x31f0, 0x31ff],
      [0xff66, 0xff9f],
    ],
  },
  { pkg: '@fontsource/noto-sans-sc' },
];

export interface BookFont {
  name: string;
  /** the package's family, `noto-sans-arabic` */
  family: string;
  file: string;
  ranges: Array<[number, number]>;
}

export const has = (font: BookFont, cp: number) => font.ranges.some(([a, b]) => cp >= a && cp <= b);

function parseRanges(text: string): Array<[number, number]> {
  return text.split(',').map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(a!, 16), parseInt(b ?? a!, 16)];
  });
}

/** The parts of `ranges` inside `only` (all of them without it). */
function narrowed(ranges: Array<[number, number]>, only?: Array<[number, number]>): Array<[number, number]> {
  if (!only) return ranges;
  return ranges.flatMap(([a, b]) =>
    only.flatMap(([c, d]) =>
      Math.max(a, c) <= Math.min(b, d) ? [[Math.max(a, c), Math.min(b, d)] as [number, number]] : [],
    ),
  );
}

let fonts: BookFont[] | undefined;

export function bookFonts(): BookFont[] {
  if (fonts) return fonts;
  fonts = [];
  for (const { pkg, only } of FONT_PACKAGES) {
    const root = path.dirname(require.resolve(`${pkg}/package.json`));
    const family = path.basename(pkg);
    const subsets = JSON.parse(fs.readFileSync(path.join(root, 'unicode.json'), 'utf8')) as Record<string, string>;
    const ordered = Object.entries(subsets).sort(([a], [b]) => Number(a !== 'latin') - Number(b !== 'latin'));
    for (const [subset, ranges] of ordered) {
      const name = `${family}-${subset.replace(/^\[(\d+)\]$/, '$1')}`;
      const file = path.join(root, 'files', `${name}-400-normal.woff`);
      if (fs.existsSync(file)) fonts.push({ name, family, file, ranges: narrowed(parseRanges(ranges), only) });
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

/** Hebrew and Arabic (with their presentation forms): the scripts written right to left. */
const RTL = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]/u;

/** Whether a paragraph reads right to left: its first letter is Hebrew or Arabic (the bidi rule P2, simplified). */
export const readsRightToLeft = (text: string) => RTL.test(text.match(/\p{L}/u)?.[0] ?? '');

/**
 * The runs in the order they are drawn left to right, for a line that reads left to right: a stretch
 * of right-to-left words is drawn word by word, last word first, each word alone, so fontkit orders
 * and shapes the letters within it and no space is lost between them. PDFKit has no bidi.
 */
export function visualRuns(runs: Array<{ font: BookFont; text: string }>): Array<{ font: BookFont; text: string }> {
  return runs.flatMap((run) => {
    if (!RTL.test(run.text)) return [run];
    const [, lead = '', body = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/u.exec(run.text) ?? [];
    const words = body.split(/(\s+)/u).filter(Boolean).reverse();
    return [lead, ...words, trail].filter(Boolean).map((text) => ({ font: run.font, text }));
  });
}
