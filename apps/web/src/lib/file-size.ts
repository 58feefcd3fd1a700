/** The units a file's size is said in, each a thousand times the one before (SI, as disks). */
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * A file's size for people, in `language`: in the largest unit it has at least one of, with up
 * to one decimal (`12.4 kB`, `48.2 MB`, `2.3 GB`, `512 byte`). A zip of a few kilobytes read
 * "0 MB" when every size was said in megabytes.
 */
export function fileSize(bytes: number, language: string): string {
  let unit = 0;
  let amount = Math.max(0, bytes);
  while (amount >= 1000 && unit < UNITS.length - 1) {
    amount /= 1000;
    unit += 1;
  }
  // 999,950 bytes would round to "1,000 kB": said as "1 MB" instead.
  if (unit < UNITS.length - 1 && Math.round(amount * 10) / 10 >= 1000) {
    amount /= 1000;
    unit += 1;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(amount);
}
