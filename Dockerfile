# syntax=docker/dockerfile:1
# The connector as a container: `docker compose up -d` (docker-compose.yml, docs/deployment.md).
# Configuration and secrets come from the environment at run time (env_file: .env), never from
# the image: .dockerignore keeps .env out of the build context.

# Node 22: the oldest Node the connector supports (package.json engines), and the one CI tests on.
ARG NODE_IMAGE=node:22-slim

# --- Production dependencies only --------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: nothing at run time needs an install script (msgpackr-extract ships
# prebuilt binaries as optional packages), and slim images have no compiler for node-gyp.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# --- Build: TypeScript to dist/ ----------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY config ./config
COPY src ./src
COPY jobs ./jobs
RUN npm run build

# --- Runtime -------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# package.json says "type": "module"; without it Node would not load dist/ as ES modules.
COPY --from=deps /app/package.json ./package.json
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The node image's unprivileged user; the app needs to write nothing on disk.
USER node
EXPOSE 3000
# Healthy means the connector can take webhooks (/readyz: Redis answers). A refused partner token
# does not make it unhealthy: a proxy that routes only to healthy containers would then turn
# Shopify's webhooks away. Alert on /status/partner instead (src/server/health-routes.ts).
# Worker-only containers (`start --no-http`) serve no HTTP: compose disables this check for them.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"]
# `start` closes gracefully on SIGTERM: active jobs finish, then Redis connections close.
CMD ["node", "dist/src/cli/main.js", "start"]
