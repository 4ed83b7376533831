import type { Clock } from '#events/clock.ts';

export type { Clock };
/** Where the program reads the time: one clock, given to what needs it (tests may give another; decision 147). */
export const systemClock: Clock = () => new Date();

/** One formatter per time zone, and its last answer: a date in the zones in use changes only on a whole minute. */
const dates = new Map<string, { format: Intl.DateTimeFormat; from: number; day: string }>();
const MINUTE_MS = 60_000;

/** The calendar date (YYYY-MM-DD) of an instant in a time zone (every gallery request asks). */
export function dateIn(timeZone: string, at: Date): string {
  let known = dates.get(timeZone);
  if (!known) {
    const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    known = { format, from: NaN, day: '' };
    dates.set(timeZone, known);
  }
  const minute = Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS;
  if (minute !== known.from) {
    known.day = known.format.format(at);
    known.from = minute;
  }
  return known.day;
}

const ONES = [
  '',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** A whole number from 1 to 199 in English words without spaces: 50 → "fifty", 42 → "fortytwo". */
export function numberInWords(n: number): string {
  if (n >= 100) return `onehundred${n % 100 ? numberInWords(n % 100) : ''}`;
  if (n < 20) return ONES[n] ?? '';
  return `${TENS[Math.floor(n / 10)]}${ONES[n % 10]}`;
}
