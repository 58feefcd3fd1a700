import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { CheckoutStatus, SetSpendingCapPayload, Subscription } from '@mates/api-client';
import {
  createBenefitsFixture,
  createCheckoutStatusFixture,
  createFeatureCostsFixture,
  createPageFixture,
  createSpendingCapFixture,
  createSubscriptionFixture,
  createSubscriptionInfoFixture,
  mockEndpoint,
  mockEndpointLoading,
} from '@mates/api-client/msw';
import {
  api,
  expectBackLinkFirst,
  expectBalances,
  expectChrome,
  failingLoad,
  screenStories,
  type StoryApp,
} from '../../testing/story-app';

const meta = { title: 'Screens/Shop', ...screenStories } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

// ---------------------------------------------------------------- /subscription

/** A visitor sees every package with its price, and what each feature costs. */
export const Packages: Story = {
  parameters: { app: { path: '/subscription' } },
  play: async ({ canvas, canvasElement, loaded }) => {
    await expect(
      await canvas.findByRole('heading', { level: 1, name: 'Packages and prices' }),
    ).toBeVisible();
    const plus = await canvas.findByRole('article', { name: 'Plus' });
    await expect(plus).toHaveTextContent('$9.99 / month');
    await expect(plus).toHaveTextContent('3,000 chats · 200 gold coins');
    const costs = canvas.getByRole('region', { name: 'What things cost' });
    await expect(costs).toHaveTextContent('A message to a mate1 chat');
    await expect(costs).toHaveTextContent('A picture5 gold coins');
    // Memories are written within a chat's price.
    await expect(costs).toHaveTextContent('there is no separate charge');
    await expect(canvas.queryByRole('region', { name: 'Your balance' })).toBeNull();
    await expectChrome(canvasElement, loaded.app as StoryApp);
  },
};

/** Signed in: the balance, the way to the history, and "See details" opens a package. */
export const PackagesSignedIn: Story = {
  parameters: { app: { path: '/subscription', signedIn: true } },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    const balance = await canvas.findByRole('region', { name: 'Your balance' });
    await expect(balance).toHaveTextContent('You have 20 chats and 50 gold coins.');
    await expect(
      within(balance).getByRole('link', { name: 'Your plan and history' }),
    ).toHaveAttribute('href', '#/user-subscription');
    const plus = canvas.getByRole('article', { name: 'Plus' });
    await userEvent.click(within(plus).getByRole('button', { name: 'See details' }));
    await waitFor(() => expect(app.router.state.location.search).toBe('?packageId=package-plus'));
    await expect(await canvas.findByRole('heading', { level: 1, name: 'Plus' })).toBeVisible();
  },
};

/** Without a payment provider, packages are shown and the page says they cannot be bought. */
export const PaymentsNotSetUp: Story = {
  parameters: {
    app: { path: '/subscription' },
    msw: {
      handlers: api(
        mockEndpoint('/subscription/info', () =>
          createSubscriptionInfoFixture({
            payments: false,
            costs: createFeatureCostsFixture({ picture: null, voiceClip: null }),
          }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText(/Payments are not set up on this server/)).toBeVisible();
    const costs = canvas.getByRole('region', { name: 'What things cost' });
    await expect(costs).toHaveTextContent('A pictureNot set up on this server');
  },
};

export const NoPackages: Story = {
  parameters: {
    app: { path: '/subscription' },
    msw: {
      handlers: api(
        mockEndpoint('/subscription/info', () => createSubscriptionInfoFixture({ packages: [] })),
      ),
    },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Nothing is on sale right now')).toBeVisible();
  },
};

export const PackagesLoading: Story = {
  parameters: {
    app: { path: '/subscription' },
    msw: { handlers: api(mockEndpointLoading('/subscription/info')) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('status', { name: 'Loading' })).toBeVisible();
  },
};

export const PackagesError: Story = failingLoad(
  { path: '/subscription' },
  '/subscription/info',
  'The server is resting',
  'The packages could not be loaded',
);

// ---------------------------------------------------------------- /single-package

/** A visitor sees the package in detail (the way back first); Buy asks them to sign in first. */
export const OnePackage: Story = {
  parameters: { app: { path: '/single-package?packageId=package-plus' } },
  play: async ({ canvas, canvasElement }) => {
    await expectBackLinkFirst(canvasElement, '← All packages', '#/subscription');
    const body = within(canvasElement.ownerDocument.body);
    const card = await canvas.findByRole('region', { name: 'Plus' });
    await expect(card).toHaveTextContent('It adds 3,000 chats and 200 gold coins to your account.');
    await expect(card).toHaveTextContent('Renews every month until you cancel.');
    await userEvent.click(within(card).getByRole('button', { name: 'Sign in to buy' }));
    const dialog = await body.findByRole('dialog', { name: 'Sign in to Mates' });
    await waitFor(() => expect(dialog).toBeVisible());
  },
};

// What the mocked server was asked during one story.
const asked = { checkouts: [] as string[] };

/** Buy starts a checkout and sends the browser to the payment provider's page. */
export const Buy: Story = {
  loaders: [() => void (asked.checkouts = [])],
  parameters: {
    app: { path: '/single-package?packageId=package-plus', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/subscription/checkout', ({ body }) => {
          asked.checkouts.push((body as { packageId: string }).packageId);
          return { checkoutId: 'co-1', url: 'https://checkout.stripe.test/c/pay/cs_test_1' };
        }),
      ),
    },
  },
  play: async ({ canvas, loaded }) => {
    const app = loaded.app as StoryApp;
    const buy = await canvas.findByRole('button', { name: 'Subscribe for $9.99 / month' });
    await expect(buy).toHaveAccessibleDescription(
      'You pay on the payment service’s own secure page, then come back here.',
    );
    await userEvent.click(buy);
    await waitFor(() =>
      expect(app.redirects).toEqual(['https://checkout.stripe.test/c/pay/cs_test_1']),
    );
    await expect(asked.checkouts).toEqual(['package-plus']);
  },
};

/** Without a payment provider, Buy is off and says why. */
export const BuyWithoutPayments: Story = {
  parameters: {
    app: { path: '/single-package?packageId=package-plus', signedIn: true },
    msw: {
      handlers: api(
        mockEndpoint('/subscription/info', () =>
          createSubscriptionInfoFixture({ payments: false }),
        ),
      ),
    },
  },
  play: async ({ canvas }) => {
    const buy = await canvas.findByRole('button', { name: 'Subscribe for $9.99 / month' });
    await expect(buy).toBeDisabled();
    await expect(buy).toHaveAccessibleDescription(
      'Payments are not set up on this server: you can see the packages, but not buy them.',
    );
  },
};

export const UnknownPackage: Story = {
  parameters: { app: { path: '/single-package?packageId=gone' } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('This package is not on sale')).toBeVisible();
    await expect(canvas.getByRole('link', { name: 'All packages' })).toHaveAttribute(
      'href',
      '#/subscription',
    );
  },
};

/** Back from the provider: states of the checkout, as the server answers them in turn. */
const returning = (answers: CheckoutStatus['state'][], extra: Partial<CheckoutStatus> = {}) => {
  let asks = 0;
  return api(
    mockEndpoint('/subscription/checkoutStatus', () => {
      const state = answers[Math.min(asks, answers.length - 1)]!;
      asks += 1;
      return createCheckoutStatusFixture({ checkoutId: 'co-1', state, ...extra });
    }),
  );
};
const RETURN = '/single-package?packageId=package-plus&checkoutId=co-1';

/** Waiting for the payment's confirmation, announced politely. */
export const WaitingForPayment: Story = {
  parameters: {
    app: { path: RETURN, signedIn: true },
    msw: { handlers: returning(['open']) },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { name: 'Waiting for the payment to be confirmed…' }),
    ).toBeVisible();
    await expect(
      canvas
        .getByText('Waiting for the payment to be confirmed…', { selector: 'h2' })
        .closest('[aria-live="polite"]'),
    ).not.toBeNull();
  },
};

/** Confirmed: the new balances, in the page and in the header at once. */
export const PaymentConfirmed: Story = {
  parameters: {
    app: { path: RETURN, signedIn: true },
    msw: {
      handlers: returning(['open', 'paid'], {
        benefits: createBenefitsFixture({ chats: 3020, goldCoins: 250 }),
      }),
    },
  },
  play: async ({ canvas }) => {
    await expect(
      await canvas.findByRole('heading', { name: 'Payment confirmed' }, { timeout: 5000 }),
    ).toBeVisible();
    await expect(canvas.getByText('You now have 3,020 chats and 250 gold coins.')).toBeVisible();
    await waitFor(() => expect(canvas.getByRole('banner')).toHaveTextContent('3,020 chats'));
    await expect(canvas.getByRole('link', { name: 'See your history' })).toHaveAttribute(
      'href',
      '#/user-subscription',
    );
  },
};

export const PaymentCancelled: Story = {
  parameters: {
    app: { path: `${RETURN}&cancelled=1`, signedIn: true },
    msw: { handlers: returning(['cancelled']) },
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Payment cancelled')).toBeVisible();
    await expect(await canvas.findByRole('link', { name: 'Try again' })).toHaveAttribute(
      'href',
      '#/single-package?packageId=package-plus',
    );
  },
};

export const PaymentFailed: Story = {
  parameters: { app: { path: RETURN, signedIn: true }, msw: { handlers: returning(['failed']) } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('The payment did not go through')).toBeVisible();
  },
};

export const PaymentPageExpired: Story = {
  parameters: { app: { path: RETURN, signedIn: true }, msw: { handlers: returning(['expired']) } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('The payment page expired')).toBeVisible();
  },
};

// ---------------------------------------------------------------- /user-subscription

// What the mocked server remembers during one story: the plan and the limits.
const server = {
  plan: createSubscriptionFixture() as Subscription | null,
  caps: [] as SetSpendingCapPayload[],
};
const withPlan = () =>
  api(
    mockEndpoint('/subscription/info', () =>
      createSubscriptionInfoFixture({ current: server.plan }),
    ),
    mockEndpoint('/subscription/cancel', () => {
      server.plan = createSubscriptionFixture({ cancelAtPeriodEnd: true });
      return server.plan;
    }),
    mockEndpoint('/subscription/resume', () => {
      server.plan = createSubscriptionFixture();
      return server.plan;
    }),
    mockEndpoint('/user/setSpendingCap', ({ body }) => {
      server.caps.push(body as SetSpendingCapPayload);
      return createSpendingCapFixture(body as SetSpendingCapPayload);
    }),
  );

/**
 * The plan renews; cancelling asks first, then it ends at the period's end. No header or
 * footer: the balances are shown beside the way back, which comes first.
 */
export const PlanActiveThenCancelled: Story = {
  loaders: [() => void (server.plan = createSubscriptionFixture())],
  parameters: {
    app: { path: '/user-subscription', signedIn: true },
    msw: { handlers: withPlan() },
  },
  play: async ({ canvas, canvasElement, loaded }) => {
    const body = within(canvasElement.ownerDocument.body);
    const plan = await canvas.findByRole('region', { name: 'Your plan' });
    await expect(plan).toHaveTextContent('Plus');
    await expect(plan).toHaveTextContent('Renews on Dec 20, 2026.');
    await expect(canvas.queryByRole('banner')).toBeNull();
    await expectBackLinkFirst(canvasElement, '← Packages', '#/subscription');
    await expectBalances(canvasElement, loaded.app as StoryApp);
    await userEvent.click(
      within(plan).getByRole('button', { name: 'Cancel at the end of the period' }),
    );
    const confirm = await body.findByRole('dialog', { name: 'Cancel your plan?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel the plan' }));
    await waitFor(() => expect(body.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(plan).toHaveTextContent('Ends on Dec 20, 2026: it will not renew.'));
    await expect(within(plan).getByRole('button', { name: 'Keep my plan' })).toBeVisible();
  },
};

/** A plan that ends at the period's end can be kept. */
export const PlanCancellingThenResumed: Story = {
  loaders: [() => void (server.plan = createSubscriptionFixture({ cancelAtPeriodEnd: true }))],
  parameters: {
    app: { path: '/user-subscription', signedIn: true },
    msw: { handlers: withPlan() },
  },
  play: async ({ canvas }) => {
    const plan = await canvas.findByRole('region', { name: 'Your plan' });
    await expect(plan).toHaveTextContent('Ends on Dec 20, 2026: it will not renew.');
    await userEvent.click(within(plan).getByRole('button', { name: 'Keep my plan' }));
    await waitFor(() => expect(plan).toHaveTextContent('Renews on Dec 20, 2026.'));
  },
};

/** No plan, an empty history: what to do next. */
export const NoPlanAndNoHistory: Story = {
  parameters: {
    app: { path: '/user-subscription', signedIn: true },
    msw: {
      handlers: api(mockEndpoint('/user/ledger', () => createPageFixture([]))),
    },
  },
  play: async ({ canvas }) => {
    const plan = await canvas.findByRole('region', { name: 'Your plan' });
    await expect(plan).toHaveTextContent('You have no plan');
    await expect(within(plan).getByRole('link', { name: 'See packages' })).toBeVisible();
    await expect(await canvas.findByText('Nothing has moved yet')).toBeVisible();
  },
};

/** Every movement, newest first: kind, signed change, reason, date and the balance after. */
export const History: Story = {
  parameters: { app: { path: '/user-subscription', signedIn: true } },
  play: async ({ canvas }) => {
    const history = await canvas.findByRole('list', { name: 'History' });
    const rows = await within(history).findAllByRole('listitem');
    await expect(rows).toHaveLength(5);
    await expect(rows[0]).toHaveAccessibleName('Spent: −1 gold coin');
    await expect(rows[0]).toHaveTextContent('voice');
    // What a spend paid for leads to its chat.
    await expect(within(rows[0]!).getByRole('link', { name: 'Open the chat' })).toHaveAttribute(
      'href',
      '#/chat-detail?roomId=room-1',
    );
    await expect(rows[1]).toHaveAccessibleName('Given back: +5 gold coins');
    await expect(rows[4]).toHaveAccessibleName('Gift: +50 chats · +20 gold coins');
    await expect(rows[4]).toHaveTextContent('Balance after: 50 chats · 20 gold coins');
  },
};

/** Daily limits: empty is none; a bad value is said at the field and nothing is sent. */
export const SpendingLimits: Story = {
  loaders: [() => void (server.caps = [])],
  parameters: {
    app: { path: '/user-subscription', signedIn: true },
    msw: { handlers: withPlan() },
  },
  play: async ({ canvas, canvasElement }) => {
    const limits = await canvas.findByRole('region', { name: 'Daily spending limits' });
    const chats = await within(limits).findByRole('textbox', { name: 'Chats a day' });
    const coins = within(limits).getByRole('textbox', { name: 'Gold coins a day' });
    await expect(coins).toHaveValue('20');
    await expect(limits).toHaveTextContent('Spent today: 1 chat and 6 gold coins.');
    await userEvent.type(chats, 'lots');
    await userEvent.click(within(limits).getByRole('button', { name: 'Save limits' }));
    await expect(chats).toHaveAccessibleDescription(
      'A whole number from 0 to 1,000,000, or empty for no limit.',
    );
    await expect(server.caps).toEqual([]);
    await userEvent.clear(chats);
    await userEvent.type(chats, '30');
    await userEvent.clear(coins);
    await userEvent.click(within(limits).getByRole('button', { name: 'Save limits' }));
    await waitFor(() => expect(server.caps).toEqual([{ dailyChats: 30, dailyGoldCoins: null }]));
    const body = within(canvasElement.ownerDocument.body);
    const saved = await body.findByText('Your limits are saved.');
    await waitFor(() => expect(saved).toBeVisible());
  },
};
