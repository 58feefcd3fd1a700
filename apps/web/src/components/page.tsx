import type { ReactNode } from 'react';
import { Container, Flex, Heading, Stack } from '@mates/ui';
import { BackLink, type BackTo } from './back-link';
import { AccountBalances } from './account-balances';

/**
 * A screen's frame: its one `h1` and content. Screens shown without the header
 * (docs/product.md, routes) pass `back`, so a phone user always has a way out; it sits first,
 * above the title, on every screen. Those that spend chats or coins pass `balances` to show
 * them there too, as the header would.
 */
export function Page({
  title,
  back,
  balances = false,
  actions,
  children,
}: {
  title: string;
  back?: BackTo;
  balances?: boolean;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Container>
      <Stack gap={5}>
        {(back || balances) && (
          <Flex justify="between" align="center" gap={3} wrap>
            {back ? <BackLink {...back} /> : <span />}
            {balances && <AccountBalances />}
          </Flex>
        )}
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
