# One recipe, one image per service: docker build --build-arg SERVICE=dispatcher -t switchboard/dispatcher .
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.base.json tsconfig.build.json ./
COPY packages ./packages
COPY services ./services
RUN npm ci --no-audit --no-fund && npx tsc -b tsconfig.build.json && npm prune --omit=dev

FROM node:20-bookworm-slim
ARG SERVICE
ENV NODE_ENV=production SERVICE=${SERVICE}
WORKDIR /app
COPY --from=build /app /app
USER node
CMD ["sh", "-c", "exec node services/${SERVICE}/dist/main.js"]
