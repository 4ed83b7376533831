// The honoree's dates reach the browser after login and are judged by the browser's own clock
// (CONTRACT §2). Date-only values ('2025-09-11') are whole local days; ISO times without an offset
// are local times.

function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** True while now <= cutoff; a date-only cutoff covers that whole day. */
export function isBeforeCutoff(cutoff: string, now = new Date()): boolean {
  if (DATE_ONLY.test(cutoff)) return localDay(now) <= cutoff;
  const end = new Date(cutoff);
  return Number.isNaN(end.getTime()) ? false : now.getTime() <= end.getTime();
}

/** True when today falls within start..end, both days included. */
export function isWithinWindow(start: string, end: string, now = new Date()): boolean {
  const today = localDay(now);
  const startDay = DATE_ONLY.test(start) ? start : localDay(new Date(start));
  const endDay = DATE_ONLY.test(end) ? end : localDay(new Date(end));
  return today >= startDay && today <= endDay;
}

/** 'September 11' for '2025-09-11' (read as a local day, not UTC midnight). */
export function formatDay(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  const date = match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : new Date(day);
  return date.toLocaleDateString('en-US', { month: 'long', day: 'numeric' });
}
