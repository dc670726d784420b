# linkhost in a container: build with the Swift toolchain, run on debian:bookworm-slim with only the
# runtime libraries. The Swift standard library and Foundation are linked statically; Foundation's
# URLSession (for `linkhost cdn-check` and `server.cdnCheck`) still loads libcurl at run time.
#
#   docker build -t linkhost .
#   docker run -p 8080:8080 -v "$PWD/data:/data" linkhost
#
# The config is /srv/linkhost/config.json (mount your own over it); pages, strings and static files
# are /srv/linkhost/Public; the hit log is written to /data (a volume).

ARG SWIFT_VERSION=6.3

FROM swift:${SWIFT_VERSION}-bookworm AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd-dev libgnutls28-dev libsqlite3-dev libpq-dev libqrencode-dev zlib1g-dev libcurl4-openssl-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Package manifest first, so the dependency fetch is cached while sources change.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product linkhost --static-swift-stdlib -Xlinker -s \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/linkhost" /out/linkhost

FROM debian:bookworm-slim
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmicrohttpd12 libsqlite3-0 libpq5 libqrencode4 zlib1g libgnutls30 libcurl4 ca-certificates \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/cache/debconf/*-old /var/log/apt /var/log/dpkg.log \
 && useradd --system --uid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin linkhost \
 && mkdir -p /data /srv/linkhost \
 && chown linkhost:linkhost /data
COPY --from=build /out/linkhost /usr/local/bin/linkhost
COPY Public /srv/linkhost/Public
COPY config.json /srv/linkhost/config.json
USER linkhost
WORKDIR /srv/linkhost
VOLUME ["/data"]
EXPOSE 8080 8443
HEALTHCHECK --interval=30s --timeout=5s --start-period=5s --retries=3 CMD ["linkhost", "probe", "http://127.0.0.1:8080/healthz"]
ENTRYPOINT ["linkhost"]
CMD ["serve", "--config", "/srv/linkhost/config.json", "--log-db", "/data/linkhost.sqlite"]
