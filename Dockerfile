# syntax=docker/dockerfile:1
# One image for the four apps; the command picks one (scripts/app-entries.ts):
#   docker build -t s2sp .
#   docker run s2sp gateway | agents | weather-server | stats-server
# See README.md, "Deploying".

ARG NODE_IMAGE=node:20.20-bookworm-slim

# Build: every dependency, code generation (Prisma client, gRPC contracts) and tsc.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs ./libs
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.base.json nest-cli.json buf.yaml buf.gen.yaml ./
COPY proto ./proto
COPY prisma ./prisma
COPY scripts ./scripts
COPY apps ./apps
# tsconfig.json compiles the tests and benchmarks too; they stay in this stage.
COPY test ./test
COPY bench ./bench
RUN npm run build

# Production dependencies only (the workspace packages' entries need libs/*/package.json).
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs ./libs
RUN npm ci --omit=dev --no-audit --no-fund

# Runtime: compiled apps and libs, what they read at run time, no compiler, no tests.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# glibc malloc: few arenas, large blocks mapped on their own and trimmed from 128 KiB, so memory a
# server used to serialize a large answer goes back to the system (bench/data-plane/allocator-settings.ts).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY package.json ./
# libs/<name> are the @s2sp/* packages: package.json, the compiled dist/, and the assets each
# reads at run time (@s2sp/contracts' proto/ and descriptor sets, @s2sp/database's prisma/,
# @s2sp/gateway's console/dist), all written by `npm run build`.
COPY --from=build /app/libs ./libs
COPY --from=build /app/dist/apps ./dist/apps
COPY --from=build /app/dist/scripts ./dist/scripts
# The embedded PostgreSQL (no DATABASE_URL) and the dev key keep their files here.
RUN mkdir -p /app/.data/auth && chown -R node:node /app/.data
USER node
EXPOSE 3000 3101 3102 50051 9464
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["node", "dist/scripts/app-health.js"]
ENTRYPOINT ["node", "dist/scripts/app-entry.js"]
CMD ["gateway"]
