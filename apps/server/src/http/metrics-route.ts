import { Hono } from 'hono';
import type { MetricsConfig } from '../config';
import type { Metrics } from '../metrics/metrics';

/** Answers Prometheus's scrape: every metric of this server, in the text format. */
export function metricsRoute(metrics: Metrics, path: string): Hono {
  const routes = new Hono();
  routes.get(path, async (c) =>
    c.body(await metrics.registry.metrics(), 200, {
      'Content-Type': metrics.registry.contentType,
      'Cache-Control': 'no-store',
    }),
  );
  return routes;
}

/**
 * What the main port answers at the metrics path: the metrics when they are served there;
 * a plain 404 when they have a port of their own or are off (never the web app, which would
 * answer a navigation with its page and a 200 that a scraper would take for metrics).
 */
export function mainPortMetrics(metrics: Metrics, config: MetricsConfig | null): Hono {
  if (config && config.port === undefined) return metricsRoute(metrics, config.path);
  const routes = new Hono();
  routes.all(config?.path ?? '/metrics', (c) => c.text('Not found', 404));
  return routes;
}

/** The app of a metrics port of its own (`METRICS_PORT`): the metrics, and 404 elsewhere. */
export function metricsApp(metrics: Metrics, path: string): Hono {
  const app = new Hono();
  app.route('/', metricsRoute(metrics, path));
  app.notFound((c) => c.text('Not found', 404));
  return app;
}
