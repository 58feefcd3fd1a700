import type { Kysely } from 'kysely';
import { portraitKey } from '../../catalog/portrait-files';
import { publicHttpsAddress } from '../../accounts/avatar-address';

/**
 * Persona avatars kept before they were checked (any address was, and every viewer's browser
 * loads it): one uploaded here stays (an absolute address of one keeps only its path, as its
 * `PUBLIC_URL` is not known here), a public `https:` address is kept normalised, and any other
 * (`javascript:`, `http:`, credentials, a host inside a network) is removed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const personas = db as unknown as Kysely<{
    personas: { id: string; avatar: string | null };
  }>;
  const rows = await personas
    .selectFrom('personas')
    .select(['id', 'avatar'])
    .where('avatar', 'is not', null)
    .execute();
  for (const row of rows) {
    const avatar = checkedAvatar(row.avatar!);
    if (avatar === row.avatar) continue;
    await personas.updateTable('personas').set({ avatar }).where('id', '=', row.id).execute();
  }
}

/** What is kept of a stored avatar: the same, normalised, its path here, or `null`. */
function checkedAvatar(avatar: string): string | null {
  if (portraitKey(avatar) !== null) return avatar;
  const address = publicHttpsAddress(avatar);
  if (address !== null) return address;
  if (!URL.canParse(avatar)) return null;
  const { protocol, pathname } = new URL(avatar);
  return /^https?:$/.test(protocol) && portraitKey(pathname) !== null ? pathname : null;
}
