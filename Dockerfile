# One recipe, one image per service: docker build --build-arg SERVICE=dispatcher -t switchboard/dispatcher .
# Every image also holds the standalone migration: node packages/store/dist/migrate.main.js (k8s/README.md).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.build.json ./
COPY packages ./packages
COPY services ./services
# The root build also compiles the Node SDK, a workspace (clients/README.md).
COPY clients/node ./clients/node
RUN npm ci --no-audit --no-fund && npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ARG SERVICE
ENV NODE_ENV=production SERVICE=${SERVICE}
WORKDIR /app
COPY --from=build --chown=root:root /app /app
# Numeric, so Kubernetes can check runAsNonRoot; 1000 is the base image's `node` user. The code stays
# owned by root and the services write nothing but /tmp, so the root filesystem can be read-only.
USER 1000:1000
# The dispatcher and the simulator run with a young generation of 4 MB semi-spaces, the gateway 8 MB, as devstack
# starts them; the old generation's cap comes from NODE_OPTIONS (the chart, docker-compose) (docs/operations.md#memory).
CMD ["sh", "-c", "case $SERVICE in dispatcher|carrier-sim) young=--max-semi-space-size=4;; api-gateway) young=--max-semi-space-size=8;; esac; exec node $young services/${SERVICE}/dist/main.js"]
