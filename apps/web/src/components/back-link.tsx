import { useTranslation } from 'react-i18next';
import { Link } from '@mates/ui';
import { href, type RoutePath } from '../lib/paths';

/** Where a screen's back link goes: a route, its query, and its words (default "Home"). */
export interface BackTo {
  to: RoutePath;
  query?: Record<string, string>;
  label?: string;
}

/**
 * A screen's way back, "← label": every screen that has one puts it first, above its title
 * (through {@link Page}, or first in its frame), so it is always in the same place.
 */
export function BackLink({ to, query, label }: BackTo) {
  const { t } = useTranslation();
  return <Link href={href(to, query)}>← {label ?? t('common.home')}</Link>;
}
