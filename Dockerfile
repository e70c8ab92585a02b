# The API as plain JavaScript (`npm run build`) with its production
# dependencies, run by the unprivileged `node` user. docs/DEPLOYMENT.md says
# how to run it; compose.yaml runs two of it with Postgres, a replica and Redis.
#
# Base: node:24-slim (Debian, glibc; Node 24 is the newest LTS line, and
# Node 20 reached its end of life in April 2026), not node:24-alpine. Alpine would save a
# few tens of megabytes, but Node's builds for musl are an experimental
# platform of Node's, and the suite runs on Debian: slim keeps the C library
# the tests ran on. No dependency has native code (pg, ioredis and PGlite are JavaScript and
# WebAssembly), so nothing is compiled in either image.
#
# Install scripts are skipped (--ignore-scripts): the only ones are esbuild's,
# which only speeds up a binary that works without it, and @scarf/scarf's
# download analytics.

# Build: every dependency (the build needs typescript), then dist/.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# The production dependencies alone, in a stage of their own so the build's
# devDependencies never reach the image.
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# Runtime. package.json comes along because its "type": "module" makes the
# .js files in dist/ ES modules. The files stay owned by root: the server
# reads its code and never writes it.
FROM node:24-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
EXPOSE 3000
CMD ["node", "--no-memory-reducer", "dist/src/server/main.js"]
