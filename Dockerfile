# The `mahjong` binary in a small image. Built by docker-compose.yml; also usable alone:
#   docker build -t mahjong . && docker run -p 8080:8080 -v mahjong-data:/data mahjong
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY crates crates
COPY migrations migrations
RUN cargo build --release --locked -p mahjong-cli \
    && cp target/release/mahjong /usr/local/bin/mahjong

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /data --create-home mahjong
COPY --from=build /usr/local/bin/mahjong /usr/local/bin/mahjong
USER mahjong
WORKDIR /data
# The SQLite default lives here when DATABASE_URL is not set.
ENV MAHJONG_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
ENTRYPOINT ["mahjong"]
CMD ["serve", "--bind", "0.0.0.0", "--port", "8080"]
