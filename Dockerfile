# The `mahjong` binary in a small image, run as an unprivileged user. Built by
# docker-compose.yml; also usable alone:
#   docker build -t mahjong . && docker run -p 127.0.0.1:8080:8080 -v mahjong-data:/data mahjong
#
# Dependencies are built in a layer of their own (cargo-chef), so a change to the project's
# code rebuilds only the project's crates. Every file the build reads is COPYed below: the
# crates, the migrations the store embeds, and web/, the client the server embeds. CI
# (.ci/docker-context) assembles this context from these COPY lines alone and builds it, so a
# missing COPY fails CI even where no Docker engine runs.
FROM rust:1.95-bookworm AS chef
RUN cargo install cargo-chef --locked --version 0.1.73
WORKDIR /src

FROM chef AS plan
COPY Cargo.toml Cargo.lock ./
COPY crates crates
RUN cargo chef prepare --recipe-path recipe.json

FROM chef AS build
COPY --from=plan /src/recipe.json recipe.json
RUN cargo chef cook --release --locked -p mahjong-cli --recipe-path recipe.json
COPY Cargo.toml Cargo.lock ./
COPY crates crates
COPY migrations migrations
COPY web web
COPY clients/typescript/dist clients/typescript/dist
RUN cargo build --release --locked -p mahjong-cli
RUN cp target/release/mahjong /usr/local/bin/mahjong

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /data --create-home --uid 10001 mahjong
COPY --from=build /usr/local/bin/mahjong /usr/local/bin/mahjong
USER mahjong
WORKDIR /data
# The SQLite default lives here when DATABASE_URL is not set.
ENV MAHJONG_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
# Ready: the server answers and its database takes a write (`mahjong health`, no curl needed).
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
    CMD ["mahjong", "health", "--addr", "127.0.0.1:8080"]
ENTRYPOINT ["mahjong"]
CMD ["serve", "--bind", "0.0.0.0", "--port", "8080"]
