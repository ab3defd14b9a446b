const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec';
const IMF_FIXDATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) (${MONTHS}) (\\d{4}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
const RFC850_DATE = new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-(${MONTHS})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2}) GMT$`);
const ASCTIME_DATE = new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (${MONTHS}) ([ \\d]\\d) (\\d{2}):(\\d{2}):(\\d{2}) (\\d{4})$`);

/**
 * Parses an HTTP-date (RFC 9110 §5.6.7) in any of its three formats, to whole seconds since the
 * epoch. Anything else (another format, a list, an impossible date) is undefined: conditional
 * requests ignore a date they cannot read rather than guess at it.
 */
export function parseHttpDate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  let m = IMF_FIXDATE.exec(value);
  if (m) return seconds(+m[3], m[2], +m[1], m[4], m[5], m[6]);
  m = RFC850_DATE.exec(value);
  if (m) return seconds(fullYear(+m[3]), m[2], +m[1], m[4], m[5], m[6]);
  m = ASCTIME_DATE.exec(value);
  if (m) return seconds(+m[6], m[1], +m[2].trim(), m[3], m[4], m[5]);
  return undefined;
}

/** Whole seconds since the epoch of an ISO timestamp: the resolution an HTTP-date can express. */
export function httpSeconds(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** A two-digit year more than 50 years ahead is the most recent past year with those digits (§5.6.7). */
function fullYear(twoDigits: number): number {
  const now = new Date().getUTCFullYear();
  const year = now - (now % 100) + twoDigits;
  return year > now + 50 ? year - 100 : year;
}

function seconds(year: number, month: string, day: number, h: string, min: string, s: string): number | undefined {
  const monthIndex = MONTHS.split('|').indexOf(month);
  if (+h > 23 || +min > 59 || +s > 60) return undefined;
  // Date.UTC rolls 31 Feb over into March: such a date is not a date.
  if (new Date(Date.UTC(year, monthIndex, day)).getUTCDate() !== day) return undefined;
  return Date.UTC(year, monthIndex, day, +h, +min, +s) / 1000;
}
