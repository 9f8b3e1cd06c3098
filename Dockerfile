# The service's image: `docker build -t docs-management-gateway .`, run with compose.yaml or alone. Every step is a
# command CI runs outside Docker (.ci/production-start: a clean clone, `npm ci --omit=dev`, then this CMD with this
# ENV, probed with this HEALTHCHECK), since no image registry is reachable from CI. Keep the two in step
# (test/ops/deployment.test.ts compares them).
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# Build: the production install, whose postinstall generates the Prisma client and bundles the server in dist/.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json prisma.config.ts ./
COPY prisma ./prisma
COPY scripts ./scripts
COPY src ./src
COPY packages ./packages
RUN npm ci --omit=dev --no-audit --no-fund

# Runtime: what the server reads (node_modules, the bundle, the migrations, the health check), owned by root and
# read-only to the server's user; only DATA_DIR is writable (PGlite, the secrets key when SECRETS_KEY is unset).
FROM ${NODE_IMAGE}
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/scripts/healthcheck.mjs ./scripts/
RUN mkdir /data && chown node:node /data
# The memory settings only a process's start can make (docs/operations.md, "Runtime settings").
ENV NODE_ENV=production \
    GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072 \
    NODE_OPTIONS=--max-semi-space-size=8 \
    PORT=4000 \
    DATA_DIR=/data
USER node
EXPOSE 4000
VOLUME /data
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
CMD ["node", "dist/main.js"]
