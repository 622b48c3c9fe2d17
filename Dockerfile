# The devutils service as a container image.
#
#   docker build -t devutils:0.1.0 .
#   docker run --rm -p 3000:3000 --read-only devutils:0.1.0
#
# BASE is the runtime (and build) base: the official slim image of Node.js 24, the current LTS,
# unless told otherwise (the tests build it on Node.js 24 too, and the suite runs on it in CI).
# Whatever it is, it must hold node and npm at /usr/local/bin, as the official images do.
ARG BASE=node:24-bookworm-slim

# Build: every dependency, the esbuild bundle into dist/, then only the production dependencies kept.
FROM ${BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# No install scripts: the build runs explicitly below, and esbuild finds its platform binary without its own.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.client.json ./
COPY scripts ./scripts
COPY src ./src
COPY LICENSE NOTICE ./
RUN npm run build \
  && npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf /root/.npm

# Runtime: node, the bundle (dist/, which holds Swagger UI's files too: the build copies them beside it), and the
# production dependencies, of which piscina is loaded from node_modules (it starts its worker script by path).
FROM ${BASE}
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="devutils" \
  org.opencontainers.image.description="A self-hostable HTTP JSON service of developer utility operations (encoders, generators, converters)." \
  org.opencontainers.image.version="${VERSION}" \
  org.opencontainers.image.licenses="MIT"
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY LICENSE NOTICE ./
# Any unprivileged user will do: a number, so that Kubernetes' runAsNonRoot can check it without
# /etc/passwd. Nothing in /app is writable by it, and the process writes no file: the image runs
# with a read-only root filesystem.
USER 10001:10001
EXPOSE 3000
# node itself asks /health: the slim image has no curl or wget.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself: /ready turns 503, requests in flight finish, exit 0.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
