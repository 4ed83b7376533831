# syntax=docker/dockerfile:1
# Tribute Gallery: one image for every role (api, worker, migrate). docs/decisions/018.
# Node 24 LTS on Debian 13, pinned by digest (docs/decisions/081; Renovate keeps it current)
ARG NODE_IMAGE=node:24.21.0-trixie-slim@sha256:8ec5d7557396cfe32d21c3f9c13072355ceab22b584578ca4bb28af31120cffe

# ---- build: every dependency as locked, the web app built into dist/web ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# the prune leaves out what only development needs (docs/decisions/082): the pinned `node` package
# (the image has its own Node), the bundled ffmpeg/ffprobe builds (Debian's are used) and embedded
# PostgreSQL (production has DATABASE_URL)
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: production dependencies, Debian's ffmpeg, tini, a user without privileges ----
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core tini ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/.data \
    FFMPEG_PATH=/usr/bin/ffmpeg \
    FFPROBE_PATH=/usr/bin/ffprobe \
    MALLOC_ARENA_MAX=2 \
    MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/db ./db
COPY --from=build /app/api ./api
COPY --from=build /app/events ./events
COPY --from=build /app/projections ./projections
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/contract ./contract
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "scripts/healthcheck.ts", "--api"]
# tini is PID 1: it forwards SIGTERM to node (which drains, docs/decisions/017) and reaps ffmpeg children.
ENTRYPOINT ["/usr/bin/tini", "--", "node"]
CMD ["api/main.ts", "--role", "all"]
