# syntax=docker/dockerfile:1
# The portal's Node processes (API, worker, migrations + seed) in one image; docker-compose.yml picks the
# command. The services run as built JavaScript (`node --enable-source-maps <pkg>/dist/main.js`): the build
# step bundles each workspace package into its dist/ (scripts/src/build.ts) and the workflow code into
# worker/dist/workflow-bundle.js, so nothing is compiled when a container starts.

# The user manual's PDF (issue 23), rendered from docs/manual by Chromium (scripts/src/manual/build-pdf.ts)
# in a stage of its own, so the runtime image carries the PDF and not a browser.
FROM node:24-bookworm-slim AS manual
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-dejavu-core fonts-liberation \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
RUN echo '{"type":"module","private":true}' > package.json \
  && npm install --no-save --no-audit --no-fund --ignore-scripts marked@18.2.1 playwright-core@1.65.1 tsx@4.23.15
COPY docs/manual docs/manual
COPY scripts/src/paths.ts scripts/src/
COPY scripts/src/manual scripts/src/manual
RUN CHROMIUM_PATH=/usr/bin/chromium npx tsx scripts/src/manual/build-pdf.ts

FROM node:24-bookworm-slim
WORKDIR /app

# Dependencies first (cached while only sources change). Install scripts are skipped: none of the
# runtime packages needs one, and Prisma's would try to download engines (the wasm engine is used).
COPY package.json package-lock.json ./
COPY contract/package.json contract/
COPY directory/package.json directory/
COPY scim/package.json scim/
COPY prisma/package.json prisma/
COPY workflows/package.json workflows/
COPY worker/package.json worker/
COPY api/package.json api/
COPY web/package.json web/
COPY scripts/package.json scripts/
COPY tests/package.json tests/
RUN npm ci --no-audit --no-fund --ignore-scripts --include-workspace-root \
      -w contract -w directory -w scim -w prisma -w workflows -w worker -w api \
  && npm cache clean --force

COPY tsconfig.base.json ./
COPY contract contract
COPY directory directory
COPY scim scim
COPY prisma prisma
COPY workflows workflows
COPY worker worker
COPY api api
COPY scripts/src/build.ts scripts/src/paths.ts scripts/src/
RUN cd prisma && DATABASE_URL=postgresql://x:y@localhost:5432/x npx prisma generate \
  && cd .. && npx tsx scripts/src/build.ts --force

COPY --from=manual /app/docs/manual/dist/user-manual.pdf docs/manual/dist/user-manual.pdf

ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
USER node
CMD ["node", "--enable-source-maps", "api/dist/main.js"]
