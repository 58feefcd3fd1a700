import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import qs from 'qs';
import Stripe from 'stripe';

/**
 * A local stand-in for Stripe, on 127.0.0.1, speaking Stripe's wire format for the calls Mates
 * makes: form-encoded requests with bracket notation (`line_items[0][price_data][currency]`),
 * Bearer keys, `Idempotency-Key` replays, JSON objects shaped as Stripe's API version
 * `2026-10-28` returns them, and errors as `{ error: { type, message } }`. It also plays the
 * hosted Checkout page (Pay / Cancel buttons) and delivers webhook events, signed with the
 * official library's `generateTestHeaderString`, to `webhookUrl`.
 */
// Stripe's objects as JSON on the wire: loosely typed on purpose, as a double reads and writes them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Wire = Record<string, any>;

export async function startStripeDouble(options: { secretKey: string; webhookSecret: string }) {
  const stripe = new Stripe(options.secretKey);
  const sessions = new Map<string, Wire>();
  const subscriptions = new Map<string, Wire>();
  const paymentIntents = new Map<string, Wire>();
  const invoices = new Map<string, Wire>();
  const invoicePayments = new Map<string, Wire>();
  const replays = new Map<string, { status: number; body: string }>();
  const requests: { method: string; path: string; body: Wire }[] = [];
  const deliveries: { event: ReturnType<typeof event>; status: number }[] = [];
  // Where events go: a URL (a listening server), or a function (an app called in-process).
  let webhook: string | ((request: Request) => Promise<Response>) = '';
  let url = '';
  const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
  const seconds = () => Math.floor(Date.now() / 1000);
  const MONTH = 30 * 24 * 3600;

  /** Builds a Stripe event around `object`, as Stripe sends it. */
  const event = (type: string, object: Wire) => ({
    id: id('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: seconds(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });

  /**
   * Delivers a signed event (or a built one) to the webhook, or to `target` (another server's
   * webhook, for events delivered to several servers at once); answers the HTTP status.
   */
  const deliver = async (
    built: ReturnType<typeof event>,
    secret = options.webhookSecret,
    target = webhook,
  ) => {
    const payload = JSON.stringify(built);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
    const request = new Request(
      typeof target === 'string' ? target : 'http://mates.test/api/stripe/webhook',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
        body: payload,
      },
    );
    const response = typeof target === 'string' ? await fetch(request) : await target(request);
    deliveries.push({ event: built, status: response.status });
    return response.status;
  };

  /** A payment of `amount`, succeeded, with its charge (`latest_charge`). */
  const paymentIntent = (amount: number, currency: string, customer: string, metadata: Wire) => {
    const intent = {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      currency,
      status: 'succeeded',
      customer,
      latest_charge: id('ch'),
      metadata,
    };
    paymentIntents.set(intent.id, intent);
    return intent;
  };

  /**
   * A subscription's invoice, paid by a payment of its own (an `invoice_payment` ties the two:
   * since API version 2025-03-31 an invoice no longer names its payment intent).
   */
  const paidInvoice = (subscription: Wire, billingReason: string, amount: number) => {
    const item = subscription.items.data[0];
    const intent = paymentIntent(amount, item.price.currency, subscription.customer, {});
    const invoice = {
      id: id('in'),
      object: 'invoice',
      billing_reason: billingReason,
      created: seconds(),
      status: 'paid',
      status_transitions: { finalized_at: seconds(), paid_at: seconds() },
      amount_due: amount,
      amount_paid: amount,
      currency: item.price.currency,
      customer: subscription.customer,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
      lines: {
        object: 'list',
        data: [
          {
            id: id('il'),
            object: 'line_item',
            period: { start: item.current_period_start, end: item.current_period_end },
          },
        ],
      },
    };
    invoices.set(invoice.id, invoice);
    const payment = {
      id: id('inpay'),
      object: 'invoice_payment',
      amount_paid: amount,
      amount_requested: amount,
      created: seconds(),
      currency: invoice.currency,
      invoice: invoice.id,
      is_default: true,
      livemode: false,
      payment: { type: 'payment_intent', payment_intent: intent.id },
      status: 'paid',
      status_transitions: { canceled_at: null, paid_at: seconds() },
    };
    invoicePayments.set(payment.id, payment);
    return invoice;
  };

  const subscriptionFor = (session: Wire) => {
    const start = seconds();
    const price = session.line_items?.[0]?.price_data ?? {};
    const subscription = {
      id: id('sub'),
      object: 'subscription',
      status: 'active',
      customer: session.customer,
      cancel_at_period_end: false,
      created: start,
      metadata: session.subscription_data?.metadata ?? {},
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            current_period_start: start,
            current_period_end: start + MONTH,
            price: {
              id: id('price'),
              object: 'price',
              currency: price.currency,
              unit_amount: Number(price.unit_amount),
              recurring: { interval: price.recurring?.interval ?? 'month' },
            },
          },
        ],
      },
    };
    subscriptions.set(subscription.id, subscription);
    return subscription;
  };

  /** The buyer pays: the session completes; answers its event, not delivered yet. */
  const complete = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`no session ${sessionId}`);
    session.status = 'complete';
    session.payment_status = 'paid';
    session.customer = id('cus');
    if (session.mode === 'subscription') {
      const subscription = subscriptionFor(session);
      session.subscription = subscription.id;
      session.invoice = paidInvoice(subscription, 'subscription_create', session.amount_total).id;
    } else {
      const metadata = session.payment_intent_data?.metadata ?? {};
      const intent = paymentIntent(
        session.amount_total,
        session.currency,
        session.customer,
        metadata,
      );
      session.payment_intent = intent.id;
    }
    return event('checkout.session.completed', publicSession(session));
  };

  /** The buyer pays on the hosted page: the session completes and its event is delivered. */
  const pay = (sessionId: string) => deliver(complete(sessionId));

  /** A renewal of `subscriptionId`: its period moves on and `invoice.paid` is delivered. */
  const renew = (subscriptionId: string) => {
    const subscription = subscriptions.get(subscriptionId)!;
    const item = subscription.items.data[0];
    item.current_period_start = item.current_period_end;
    item.current_period_end += MONTH;
    const invoice = paidInvoice(subscription, 'subscription_cycle', item.price.unit_amount);
    return event('invoice.paid', structuredClone(invoice));
  };

  /** The payment intent that paid `invoiceId` (through its `invoice_payment`). */
  const paymentOfInvoice = (invoiceId: string): string => {
    for (const payment of invoicePayments.values())
      if (payment.invoice === invoiceId) return payment.payment.payment_intent;
    throw new Error(`no payment for ${invoiceId}`);
  };

  /** The charge of `paymentIntentId`, as a `charge.*` event carries it. */
  const chargeOf = (paymentIntentId: string, amountRefunded: number) => {
    const intent = paymentIntents.get(paymentIntentId)!;
    return {
      id: intent.latest_charge,
      object: 'charge',
      amount: intent.amount,
      amount_refunded: amountRefunded,
      currency: intent.currency,
      payment_intent: intent.id,
      refunded: amountRefunded >= intent.amount,
      status: 'succeeded',
    };
  };

  /** A refund of `amountRefunded` (minor units, in all so far; all of it by default) of a payment. */
  const refundedPayment = (paymentIntentId: string, amountRefunded?: number) => {
    const intent = paymentIntents.get(paymentIntentId)!;
    intent.amount_refunded = amountRefunded ?? intent.amount;
    return event('charge.refunded', chargeOf(paymentIntentId, intent.amount_refunded));
  };

  /** A refund of `amountRefunded` (minor units, in all so far) of a paid pack's charge. */
  const refunded = (sessionId: string, amountRefunded: number) =>
    refundedPayment(sessions.get(sessionId)!.payment_intent, amountRefunded);

  /**
   * A chargeback on a payment, decided: `charge.dispute.closed` with the dispute's `status`
   * (`lost`: the bank took the money back; `won`: it stayed). `amount` defaults to the charge's.
   */
  const disputeClosed = (paymentIntentId: string, status: 'lost' | 'won', amount?: number) => {
    const intent = paymentIntents.get(paymentIntentId)!;
    return event('charge.dispute.closed', {
      id: id('du'),
      object: 'dispute',
      amount: amount ?? intent.amount,
      charge: intent.latest_charge,
      created: seconds(),
      currency: intent.currency,
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: intent.id,
      reason: 'fraudulent',
      status,
    });
  };

  /** The subscription as a `customer.subscription.*` event carries it. */
  const subscriptionEvent = (
    type: 'customer.subscription.updated' | 'customer.subscription.deleted',
    subscriptionId: string,
    changes: Record<string, unknown> = {},
  ) => {
    const subscription = subscriptions.get(subscriptionId)!;
    Object.assign(subscription, changes);
    return event(type, structuredClone(subscription));
  };

  const publicSession = (session: Wire) => {
    const { subscription_data: _s, payment_intent_data: _p, line_items: _l, ...rest } = session;
    return structuredClone(rest);
  };

  const fail = (res: http.ServerResponse, status: number, type: string, message: string) =>
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { type, message } }));

  const json = (res: http.ServerResponse, body: unknown) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  /** Stripe's answer for an object it does not have. */
  const missing = (kind: string, objectId: string) => ({
    status: 404,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'id',
        message: `No such ${kind}: '${objectId}'`,
      },
    },
  });

  const api = (method: string, path: string, body: Wire): { status: number; body: unknown } => {
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const item = body.line_items?.[0]?.price_data;
      if (!item?.currency || item.unit_amount === undefined)
        return {
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message: 'Missing required param: line_items.',
            },
          },
        };
      if (!['payment', 'subscription'].includes(body.mode))
        return {
          status: 400,
          body: { error: { type: 'invalid_request_error', message: 'Invalid mode.' } },
        };
      const sessionId = id('cs');
      const session = {
        id: sessionId,
        object: 'checkout.session',
        mode: body.mode,
        status: 'open',
        payment_status: 'unpaid',
        url: `${url}/pay/${sessionId}`,
        success_url: body.success_url,
        cancel_url: body.cancel_url,
        client_reference_id: body.client_reference_id ?? null,
        customer_email: body.customer_email ?? null,
        customer: null,
        subscription: null,
        payment_intent: null,
        invoice: null,
        metadata: body.metadata ?? {},
        currency: item.currency,
        amount_total: Number(item.unit_amount),
        expires_at: Number(body.expires_at ?? seconds() + 86400),
        created: seconds(),
        livemode: false,
        line_items: body.line_items,
        subscription_data: body.subscription_data,
        payment_intent_data: body.payment_intent_data,
      };
      sessions.set(sessionId, session);
      return { status: 200, body: publicSession(session) };
    }
    if ((match = /^\/v1\/checkout\/sessions\/([\w]+)(\/expire)?$/.exec(path))) {
      const session = sessions.get(match[1]!);
      if (!session) return missing('checkout.session', match[1]!);
      if (method === 'POST' && match[2]) {
        if (session.status !== 'open')
          return {
            status: 400,
            body: {
              error: {
                type: 'invalid_request_error',
                message: 'Only Checkout Sessions with a status of open can be expired.',
              },
            },
          };
        session.status = 'expired';
      }
      return { status: 200, body: publicSession(session) };
    }
    if (method === 'GET' && (match = /^\/v1\/payment_intents\/([\w]+)$/.exec(path))) {
      const intent = paymentIntents.get(match[1]!);
      if (!intent) return missing('payment_intent', match[1]!);
      return { status: 200, body: structuredClone(intent) };
    }
    if (method === 'GET' && (match = /^\/v1\/charges\/([\w]+)$/.exec(path))) {
      const intent = [...paymentIntents.values()].find((each) => each.latest_charge === match![1]);
      if (!intent) return missing('charge', match[1]!);
      return { status: 200, body: chargeOf(intent.id, intent.amount_refunded ?? 0) };
    }
    if (method === 'GET' && (match = /^\/v1\/invoices\/([\w]+)$/.exec(path))) {
      const invoice = invoices.get(match[1]!);
      if (!invoice) return missing('invoice', match[1]!);
      return { status: 200, body: structuredClone(invoice) };
    }
    if (method === 'GET' && path === '/v1/invoice_payments') {
      const data = [...invoicePayments.values()].filter(
        (payment) =>
          (!body.invoice || payment.invoice === body.invoice) &&
          (!body.payment ||
            (payment.payment.type === body.payment.type &&
              payment.payment.payment_intent === body.payment.payment_intent)),
      );
      return {
        status: 200,
        body: { object: 'list', data, has_more: false, url: '/v1/invoice_payments' },
      };
    }
    if ((match = /^\/v1\/subscriptions\/([\w]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1]!);
      if (!subscription) return missing('subscription', match[1]!);
      if (method === 'POST' && body.cancel_at_period_end !== undefined)
        subscription.cancel_at_period_end = body.cancel_at_period_end === 'true';
      // Cancelling now (not at the period's end), as deleting an account does.
      if (method === 'DELETE') {
        if (subscription.status === 'canceled')
          return {
            status: 400,
            body: {
              error: {
                type: 'invalid_request_error',
                message: `No such subscription: '${match[1]}'`,
                code: 'resource_missing',
              },
            },
          };
        subscription.status = 'canceled';
        subscription.canceled_at = Math.floor(Date.now() / 1000);
      }
      return { status: 200, body: structuredClone(subscription) };
    }
    return {
      status: 404,
      body: {
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${path}).`,
        },
      },
    };
  };

  const page = (session: Wire) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout (Stripe double)</title></head>
<body><main><h1>Pay Mates</h1>
<p>${session.currency.toUpperCase()} ${(session.amount_total / 100).toFixed(2)}</p>
<form method="post" action="/pay/${session.id}/pay"><button type="submit">Pay</button></form>
<form method="post" action="/pay/${session.id}/cancel"><button type="submit">Cancel</button></form>
</main></body></html>`;

  // Set by `holdNextCheckout`: the next Checkout Session is made once it is released.
  let checkoutHold: Promise<void> | null = null;

  /** Holds the next Checkout Session's creation (a slow Stripe) until the answer is called. */
  const holdNextCheckout = () => {
    let release!: () => void;
    checkoutHold = new Promise<void>((resolve) => (release = resolve));
    return () => release();
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString();
    const [path = '/', query = ''] = (req.url ?? '/').split('?');
    let match: RegExpExecArray | null;
    if ((match = /^\/pay\/(\w+)(?:\/(pay|cancel))?$/.exec(path))) {
      const session = sessions.get(match[1]!);
      if (!session) return void res.writeHead(404).end('No such checkout');
      if (req.method === 'GET') {
        return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(session));
      }
      if (match[2] === 'cancel')
        return void res.writeHead(303, { location: session.cancel_url }).end();
      if (session.status !== 'open') return void res.writeHead(409).end('Checkout is not open');
      await pay(session.id);
      return void res.writeHead(303, { location: session.success_url }).end();
    }
    const key = req.headers.authorization?.replace(/^Bearer /, '');
    if (key !== options.secretKey)
      return fail(res, 401, 'invalid_request_error', 'Invalid API Key provided.');
    // A POST's parameters are its form body; a GET's, its query (the same bracket notation).
    const body = qs.parse(req.method === 'POST' ? raw : query) as Wire;
    requests.push({ method: req.method ?? 'GET', path, body });
    const idempotency = req.headers['idempotency-key'];
    const replayKey = typeof idempotency === 'string' ? `${path} ${idempotency}` : null;
    const replay = replayKey ? replays.get(replayKey) : undefined;
    if (replay) {
      return void res
        .writeHead(replay.status, {
          'content-type': 'application/json',
          'idempotent-replayed': 'true',
        })
        .end(replay.body);
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions' && checkoutHold) {
      const hold = checkoutHold;
      checkoutHold = null;
      await hold;
    }
    const answer = api(req.method ?? 'GET', path, body);
    const text = JSON.stringify(answer.body);
    if (replayKey) replays.set(replayKey, { status: answer.status, body: text });
    if (answer.status !== 200)
      return void res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
    json(res, answer.body);
  };
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** Give to `STRIPE_API_URL`. */
    url,
    sessions,
    subscriptions,
    invoices,
    paymentIntents,
    requests,
    deliveries,
    /** Where events are delivered: the server's `/api/stripe/webhook`, or an in-process app. */
    setWebhook: (target: typeof webhook) => void (webhook = target),
    event,
    deliver,
    complete,
    pay,
    renew,
    holdNextCheckout,
    paymentOfInvoice,
    refunded,
    refundedPayment,
    disputeClosed,
    subscriptionEvent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The double of {@link startStripeDouble}. */
export type StripeDouble = Awaited<ReturnType<typeof startStripeDouble>>;
