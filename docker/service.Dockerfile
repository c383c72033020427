# syntax=docker/dockerfile:1.7
#
# WordCut back-end images: one Dockerfile, three targets (build context = repository root).
#
#   docker build -f docker/service.Dockerfile --target service --build-arg SERVICE=gateway   -t wordcut-gateway .
#   docker build -f docker/service.Dockerfile --target service --build-arg SERVICE=jobs      -t wordcut-jobs .
#   docker build -f docker/service.Dockerfile --target service --build-arg SERVICE=export    -t wordcut-export .
#   docker build -f docker/service.Dockerfile --target service --build-arg SERVICE=analytics -t wordcut-analytics .
#   docker build -f docker/service.Dockerfile --target media                                 -t wordcut-media .
#   docker build -f docker/service.Dockerfile --target migrate                               -t wordcut-migrate .
#
# - service: `node services/<SERVICE>/dist/main.js` (gateway, jobs, export, analytics)
# - media:   the media worker, with Debian's ffmpeg/ffprobe (ADR 0004) and CA certificates
# - migrate: runs `node services/<s>/dist/migrate.js` for jobs, analytics, export and gateway, in that order
#            (the Helm pre-install/pre-upgrade hook and the compose `migrate` one-shot)
#
# Every target runs as the unprivileged `node` user (uid/gid 1000, numeric so that Kubernetes can
# enforce runAsNonRoot), with production dependencies only (`npm ci --omit=dev`) and writes nothing
# to its file system, so it runs with a read-only root file system.

ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS base
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false \
    NPM_CONFIG_AUDIT=false

# ---------------------------------------------------------------------------------------------
# The lockfile and every workspace's package.json: all that `npm ci` reads. Kept apart from the
# sources so that the dependency layers are rebuilt only when a manifest changes.
# A new workspace under libs/, services/ or apps/ needs its COPY line here (and in web.Dockerfile);
# tools/lint/dockerfiles.spec.ts fails until it has them (no Docker engine runs in CI).
FROM base AS manifests
COPY package.json package-lock.json .npmrc ./
COPY libs/contracts/package.json     libs/contracts/
COPY libs/platform/package.json      libs/platform/
COPY libs/messaging/package.json     libs/messaging/
COPY libs/storage/package.json       libs/storage/
COPY libs/ffmpeg/package.json        libs/ffmpeg/
COPY libs/transcript/package.json    libs/transcript/
COPY libs/keymoments/package.json    libs/keymoments/
COPY libs/edit-list/package.json     libs/edit-list/
COPY libs/editor-core/package.json   libs/editor-core/
COPY libs/provider/package.json      libs/provider/
COPY libs/publishing/package.json    libs/publishing/
COPY libs/ui/package.json            libs/ui/
COPY services/gateway/package.json   services/gateway/
COPY services/media/package.json     services/media/
COPY services/jobs/package.json      services/jobs/
COPY services/export/package.json    services/export/
COPY services/analytics/package.json services/analytics/
COPY apps/shell/package.json         apps/shell/
COPY apps/editor/package.json        apps/editor/
COPY apps/keyclips/package.json      apps/keyclips/
COPY apps/publish/package.json       apps/publish/
COPY apps/analytics/package.json     apps/analytics/

# ---------------------------------------------------------------------------------------------
# Compile the libraries and all five services once (TypeScript project references; each
# project's output lands in its own dist/). Every target below copies what it needs from here.
FROM manifests AS build
# `npm ci` when the lockfile passes its checks; otherwise `npm install` from the same lockfile
# (versions stay pinned; see "npm ci and the lockfile" in docker/README.md).
RUN --mount=type=cache,target=/root/.npm \
    npm ci || { echo "npm ci rejected package-lock.json: installing from it with npm install" >&2; npm install --no-save; }
COPY tsconfig.base.json ./
COPY libs/contracts      libs/contracts
COPY libs/platform       libs/platform
COPY libs/messaging      libs/messaging
COPY libs/storage        libs/storage
COPY libs/ffmpeg         libs/ffmpeg
COPY libs/transcript     libs/transcript
COPY libs/keymoments     libs/keymoments
COPY libs/edit-list      libs/edit-list
COPY libs/editor-core    libs/editor-core
COPY libs/provider       libs/provider
COPY libs/publishing     libs/publishing
COPY services        services
RUN npx tsc -b libs/contracts libs/platform libs/messaging libs/storage libs/ffmpeg \
      libs/transcript libs/keymoments libs/edit-list libs/editor-core libs/provider libs/publishing \
      services/gateway services/media services/jobs services/export services/analytics

# ---------------------------------------------------------------------------------------------
# Production dependencies only. No production package has an install script; --ignore-scripts
# keeps it that way. Workspace packages (@wordcut/*) are symlinks into libs/, services/, apps/.
FROM manifests AS prod-deps
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --ignore-scripts \
 || { echo "npm ci rejected package-lock.json: installing from it with npm install" >&2; \
      npm install --no-save --omit=dev --ignore-scripts; }

# ---------------------------------------------------------------------------------------------
# /app as every runtime image has it: manifests, production node_modules, compiled libraries.
FROM base AS app
COPY --from=manifests /app/ /app/
COPY --from=prod-deps /app/node_modules /app/node_modules
COPY --from=build /app/libs/contracts/dist /app/libs/contracts/dist
COPY --from=build /app/libs/platform/dist  /app/libs/platform/dist
COPY --from=build /app/libs/messaging/dist /app/libs/messaging/dist
COPY --from=build /app/libs/storage/dist   /app/libs/storage/dist
COPY --from=build /app/libs/ffmpeg/dist    /app/libs/ffmpeg/dist
COPY --from=build /app/libs/transcript/dist /app/libs/transcript/dist
COPY --from=build /app/libs/keymoments/dist /app/libs/keymoments/dist
COPY --from=build /app/libs/edit-list/dist /app/libs/edit-list/dist
COPY --from=build /app/libs/editor-core/dist /app/libs/editor-core/dist
COPY --from=build /app/libs/provider/dist  /app/libs/provider/dist
COPY --from=build /app/libs/publishing/dist /app/libs/publishing/dist
COPY docker/healthcheck.js /app/docker/healthcheck.js

# ---------------------------------------------------------------------------------------------
FROM base AS runtime
ENV NODE_ENV=production \
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true

# ---------------------------------------------------------------------------------------------
# Media workers: ffmpeg/ffprobe from Debian (ADR 0004). ca-certificates lets ffprobe read
# presigned https:// URLs of the object store (Node has its own CA bundle, ffmpeg does not).
FROM runtime AS media
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg fonts-dejavu-core ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && ffmpeg -version >/dev/null && ffprobe -version >/dev/null
COPY --from=app /app/ /app/
COPY --from=build /app/services/media/dist /app/services/media/dist
ENV WORDCUT_SERVICE=media
WORKDIR /app/services/media
USER 1000:1000
EXPOSE 3101
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/app/docker/healthcheck.js"]
CMD ["node", "dist/main.js"]

# ---------------------------------------------------------------------------------------------
# Schema migrations of every service that owns one (jobs, analytics, export, gateway; one Postgres schema
# each, created by the migration itself under an advisory lock). Needs DATABASE_URL only.
FROM runtime AS migrate
COPY --from=app /app/ /app/
COPY --from=build /app/services/jobs/dist      /app/services/jobs/dist
COPY --from=build /app/services/analytics/dist /app/services/analytics/dist
COPY --from=build /app/services/export/dist    /app/services/export/dist
COPY --from=build /app/services/gateway/dist   /app/services/gateway/dist
ENV WORDCUT_SERVICE=migrate
USER 1000:1000
CMD ["sh", "-c", "set -e; for s in jobs analytics export gateway; do node services/$s/dist/migrate.js; done"]

# ---------------------------------------------------------------------------------------------
# gateway, jobs, export or analytics (the last stage, so a build without --target needs SERVICE).
FROM runtime AS service
ARG SERVICE
RUN case "${SERVICE}" in \
      gateway|jobs|export|analytics) ;; \
      media) echo "build the media worker with --target media (it needs ffmpeg)" >&2; exit 1 ;; \
      *) echo "--build-arg SERVICE=gateway|jobs|export|analytics is required (got '${SERVICE}')" >&2; exit 1 ;; \
    esac
COPY --from=app /app/ /app/
COPY --from=build /app/services/${SERVICE}/dist /app/services/${SERVICE}/dist
ENV WORDCUT_SERVICE=${SERVICE}
WORKDIR /app/services/${SERVICE}
USER 1000:1000
# Listens on PORT: gateway 3000, jobs 3102, export 3103, analytics 3104 by default.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 CMD ["node", "/app/docker/healthcheck.js"]
CMD ["node", "dist/main.js"]
