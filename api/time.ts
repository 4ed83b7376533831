/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export function dateIn(timeZone: string, at: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
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
