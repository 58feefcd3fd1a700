# syntax=docker/dockerfile:1
# The Mates server with its web app, for linux/amd64 (docs/deploy.md):
#   docker build -t mates .
#   docker run -p 3000:3000 -v mates-data:/data mates
# The build stage has the whole workspace and its development tools; the image has only the
# server's production install (pnpm deploy --prod, slimmed by scripts/slim-production.sh),
# its built files and the web app's, run by the unprivileged `node` user.

ARG NODE_VERSION=20.19

FROM node:${NODE_VERSION}-bookworm AS build
ENV CI=1 TURBO_TELEMETRY_DISABLED=1 TURBO_NO_UPDATE_NOTIFIER=1
RUN npm install --global pnpm@10.34.9
WORKDIR /src
# The lockfile alone fills pnpm's store, so this layer is reused until the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN pnpm fetch
COPY . .
# better-sqlite3 downloads its prebuilt addon, or compiles it (this image has the compiler).
RUN pnpm install --frozen-lockfile --offline
RUN pnpm exec turbo run build --filter=@mates/server --filter=@mates/web --output-logs=errors-only
RUN pnpm --filter @mates/server deploy --prod --legacy /out/server \
  && bash scripts/slim-production.sh /out/server \
  && mkdir -p /out/web \
  && cp -r apps/web/dist /out/web/dist

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data
# /app/server/dist/main.js finds the web app at /app/web/dist by default. The files belong to
# root and are only read; the server writes in DATA_DIR alone (SQLite, media, mail, models).
COPY --from=build /out /app
RUN mkdir -p /data && chown node:node /data
USER node
WORKDIR /app/server
VOLUME ["/data"]
EXPOSE 3000
# GET /api/health answers while the process serves; /api/ready also checks the database.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) ends replies being written, saved, within SHUTDOWN_TIMEOUT; give
# `docker stop` / compose a longer stop_grace_period than that.
CMD ["node", "dist/main.js"]
