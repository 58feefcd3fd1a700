/** Where a path's method sits on the client: `/user/verify/status` → `['user', 'verifyStatus']`. */
export function methodKeyOf(path: string): [group: string, name: string] {
  const [, group = '', ...rest] = path.split('/');
  const name = rest
    .map((segment, index) =>
      index === 0 ? segment : segment.charAt(0).toUpperCase() + segment.slice(1),
    )
    .join('');
  return [group, name];
}
