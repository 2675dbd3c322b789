# The decision server as a container: stateless apart from the policies it reads, so run as
# many replicas as you need behind any load balancer. Mount your policies at /policies.
#   docker build -t reorder-policy-server .
#   docker run -p 8181:8181 -v "$PWD/policies:/policies:ro" reorder-policy-server
ARG SWIFT_IMAGE=swift:6.3-noble

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update && apt-get install -y --no-install-recommends libyaml-dev pkg-config && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY Plugins ./Plugins
RUN swift build -c release --traits Server --product reorder-policy-server --static-swift-stdlib \
    && cp "$(swift build -c release --traits Server --show-bin-path)/reorder-policy-server" /reorder-policy-server

FROM ubuntu:noble
RUN apt-get update && apt-get install -y --no-install-recommends libyaml-0-2 && rm -rf /var/lib/apt/lists/*
COPY --from=build /reorder-policy-server /usr/local/bin/reorder-policy-server
COPY policies /policies
USER nobody
EXPOSE 8181
# No curl in the image: bash speaks enough HTTP to ask /health (200 also while degraded).
HEALTHCHECK --interval=10s --timeout=2s CMD ["/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8181 && printf 'GET /health HTTP/1.0\\r\\n\\r\\n' >&3 && head -1 <&3 | grep -q ' 200 '"]
ENTRYPOINT ["/usr/local/bin/reorder-policy-server", "--host", "0.0.0.0", "--port", "8181", "--policies", "/policies"]
