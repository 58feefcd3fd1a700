/** Whether an `If-None-Match` list names `etag` (compared weakly, as RFC 9110 says for it). */
export function ifNoneMatchNames(ifNoneMatch: string, etag: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}
