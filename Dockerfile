# syntax=docker/dockerfile:1
# GogoBee: multi-stage build. Dependencies are cooked in their own layer (cargo-chef), so a code
# change rebuilds only the workspace crates. The runtime image is slim; the binary is stripped
# (symbols stay out of the image) and runs as a non-root user: the entrypoint starts as root only
# to give a root-owned volume to that user, then drops to it (scripts/docker-entrypoint).

FROM rust:1.95-slim-bookworm AS chef
RUN cargo install cargo-chef --locked
WORKDIR /app

FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

FROM chef AS builder
# No symbols in the shipped binary (about a sixth of the unstripped size).
ENV CARGO_PROFILE_RELEASE_STRIP=symbols
COPY --from=planner /app/recipe.json recipe.json
# The build's environment (the bundled SQLite's flags), so the cooked dependencies are the ones
# the workspace links.
COPY .cargo .cargo
RUN cargo chef cook --release --recipe-path recipe.json --bin gogobee
COPY . .
RUN cargo build --release --locked --bin gogobee
# The licences of every crate the binary ships, checked against the allow-list and collected.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 \
 && rm -rf /var/lib/apt/lists/* \
 && scripts/licenses --collect THIRD-PARTY-LICENSES.txt

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tini \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin gogobee \
 && mkdir -p /data && chown gogobee /data
# The project's licence and the texts of the licences its crates ship under.
COPY LICENSE /usr/share/gogobee/LICENSE
COPY crates/render/fonts/LICENSE /usr/share/gogobee/FONT-LICENSE
COPY --from=builder /app/THIRD-PARTY-LICENSES.txt /usr/share/gogobee/THIRD-PARTY-LICENSES.txt
COPY --from=builder /app/target/release/gogobee /usr/local/bin/gogobee
COPY scripts/docker-entrypoint /usr/local/bin/docker-entrypoint
# Narration is embedded in the binary; the files ride along for operators to read.
COPY flavor /usr/share/gogobee/flavor
# No USER: the entrypoint runs as root just long enough to chown a root-owned volume, then
# drops to `gogobee` (uid 10001) before the bot starts.
WORKDIR /data
ENV DATABASE_URL=sqlite:///data/gogobee.db?mode=rwc \
    RUST_LOG=info \
    LOG_FORMAT=json
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/docker-entrypoint", "/usr/local/bin/gogobee"]
CMD ["bot"]
