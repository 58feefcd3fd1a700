import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Container, Flex, Heading, Link, Stack } from '@mates/ui';
import { href, type RoutePath } from '../lib/paths';

/**
 * A screen's frame: its one `h1` and content. Screens shown without the header
 * (docs/product.md, routes) pass `back`, so a phone user always has a way out.
 */
export function Page({
  title,
  back,
  actions,
  children,
}: {
  title: string;
  back?: { to: RoutePath; label?: string };
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Container>
      <Stack gap={5}>
        {back && <Link href={href(back.to)}>← {back.label ?? t('common.home')}</Link>}
        <Flex justify="between" align="center" gap={3} wrap>
          <Heading as="h1" size={3}>
            {title}
          </Heading>
          {actions}
        </Flex>
        {children}
      </Stack>
    </Container>
  );
}
