# EasyAgentCU in a container: `serve` (the API and UI) or `worker` (tasks from the Postgres queue),
# with Debian's Chromium and the virtual desktop's programs. Written by reading, not built: images
# cannot be built where this project is made (no registry but npm's and Debian's is reachable).
#
# It runs as root, as CI does: Chromium then runs without its own sandbox (the server warns), and
# the desktop's network fence needs `unshare --net`, which Docker's default profile refuses — so a
# desktop task's terminal asks the person before every key (README, "The desktop").
FROM node:20-bookworm-slim

RUN apt-get update \
  && apt-get install -y --no-install-recommends \
    chromium xvfb openbox xterm mousepad pcmanfm fonts-wqy-microhei iproute2 util-linux passwd \
    python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

ENV HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data \
    CHROME_PATH=/usr/bin/chromium
VOLUME /data
EXPOSE 8000
ENTRYPOINT ["node", "bin/easyagentcu.js"]
CMD ["serve"]
