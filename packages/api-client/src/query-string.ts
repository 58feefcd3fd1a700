import type { QueryValue } from './client-types';

/** Builds `?a=1&tags=x,y` from a query object; arrays comma-separated, empty values left out. */
export function toQueryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.append(key, value.join(','));
      continue;
    }
    params.append(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
