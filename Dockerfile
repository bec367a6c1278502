# Accord server image: every role of a deployment runs this image (`--role`, or ACCORD_ROLE). See README,
# "Running several nodes (docker-compose)".
FROM node:20-bookworm
WORKDIR /app
COPY . .
# npm ci builds the web client (prepare); the server is bundled into packages/server/dist (what `npm start` runs).
RUN npm ci --no-audit --no-fund && npm run build -w @accord/server && mkdir -p /data && chown node:node /data
USER node
ENV ACCORD_HOST=0.0.0.0 ACCORD_PORT=8080 ACCORD_DATA=/data
EXPOSE 8080
# Every role answers /readyz on its --port: 200 when the store (and Redis, in distributed mode) answers.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.ACCORD_PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "--enable-source-maps", "packages/server/dist/accord.js", "start"]
