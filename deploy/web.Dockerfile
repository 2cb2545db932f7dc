# syntax=docker/dockerfile:1
# The browser app: built with Vite, served by nginx, which also proxies /rest to the API (deploy/nginx.conf).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY directory/package.json directory/
COPY prisma/package.json prisma/
COPY workflows/package.json workflows/
COPY worker/package.json worker/
COPY api/package.json api/
COPY web/package.json web/
COPY scripts/package.json scripts/
COPY tests/package.json tests/
RUN npm ci --no-audit --no-fund --ignore-scripts --include-workspace-root -w contract -w web
COPY tsconfig.base.json ./
COPY contract contract
COPY web web
RUN npm run build -w web

FROM nginx:1.28-alpine
COPY deploy/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/web/dist /usr/share/nginx/html
EXPOSE 80
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD wget -qO- http://127.0.0.1/healthz || exit 1
